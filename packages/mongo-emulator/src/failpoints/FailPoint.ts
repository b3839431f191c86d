import { consume, parseMode, type FailPointMode } from './FailPointMode.ts';

/**
 * One named fail point: its mode, its parsed `data`, and how often it fired since it was last
 * configured (what `configureFailPoint` answers as `count`).
 */
export class FailPoint<Data> {
  private active: { mode: FailPointMode; data: Data } | undefined;
  private timesEntered = 0;

  constructor(private readonly parseData: (data: unknown) => Data) {}

  /** Replaces mode and data (validated first, so a bad call leaves the old state); returns the old count. */
  configure(mode: unknown, data: unknown): number {
    const parsedMode = parseMode(mode);
    const next = parsedMode.kind === 'off' ? undefined : { mode: parsedMode, data: this.parseData(data) };
    const previous = this.timesEntered;
    this.active = next;
    this.timesEntered = 0;
    return previous;
  }

  /**
   * Evaluates the fail point for one occurrence. An occurrence `applies` rejects leaves
   * times/skip untouched, as on mongod. Returns the data when it fires.
   */
  evaluate(applies: (data: Data) => boolean = () => true): Data | undefined {
    const current = this.active;
    if (!current || !applies(current.data)) return undefined;
    const { fires, next } = consume(current.mode);
    this.active = next.kind === 'off' ? undefined : { mode: next, data: current.data };
    if (!fires) return undefined;
    this.timesEntered += 1;
    return current.data;
  }

  /** The mode's kind, for diagnostics. */
  get modeKind(): FailPointMode['kind'] {
    return this.active?.mode.kind ?? 'off';
  }
}
