// Metric label values taken from client input (a work item's kind) are bounded: a client that makes
// up a new value per request must not add a series per request to /metrics (issue 41: 200 made-up
// kinds created and claimed were 200 new `work_started_total` series, readable by anyone). Known
// values always keep their own label; the first `max` others seen by this process get theirs; the
// rest share OVERFLOW_LABEL, which no valid value can be (kinds start with a letter).

export const OVERFLOW_LABEL = '_other';

export class BoundedLabels {
  readonly #known: ReadonlySet<string>;
  readonly #seen = new Set<string>();

  constructor(
    private readonly max: number,
    known: Iterable<string> = [],
  ) {
    this.#known = new Set(known);
  }

  /** The label value for `value`: itself while bounded, OVERFLOW_LABEL past the bound. */
  of(value: string): string {
    if (this.#known.has(value) || this.#seen.has(value)) return value;
    if (this.#seen.size >= this.max) return OVERFLOW_LABEL;
    this.#seen.add(value);
    return value;
  }
}
