/**
 * Moves of one process (one MongoClient) take turns per account. A transaction that meets another's write on its
 * account fails at once (WriteConflict) and must run again, so N moves racing on one hot account
 * cost O(N^2) attempts and can starve. Queued here, moves of this process never conflict with each
 * other; only moves of other processes do, and those are retried. Accounts are taken in id order,
 * so two transfers can never wait for each other.
 */
export class AccountTurns {
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(accountIds: readonly string[], work: () => Promise<T>): Promise<T> {
    const releases: (() => void)[] = [];
    try {
      for (const id of [...accountIds].sort()) releases.push(await this.#take(id));
      return await work();
    } finally {
      for (const release of releases) release();
    }
  }

  async #take(accountId: string): Promise<() => void> {
    const previous = this.#tails.get(accountId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.#tails.set(accountId, tail);
    await previous;
    return () => {
      release();
      if (this.#tails.get(accountId) === tail) this.#tails.delete(accountId);
    };
  }
}
