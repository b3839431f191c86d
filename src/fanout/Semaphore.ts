// A counting semaphore with a bounded waiting line: `acquire` resolves once a slot is free and
// throws when the line is full, so waiting callers cannot grow memory without bound.
export class Semaphore {
  readonly #waiters: Array<() => void> = [];
  #free: number;

  constructor(
    slots: number,
    private readonly waitersMax: number,
  ) {
    this.#free = slots;
  }

  async acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    if (this.#waiters.length >= this.waitersMax)
      throw new Error(`more than ${this.waitersMax} callers waiting for a slot`);
    await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#free++;
  }
}
