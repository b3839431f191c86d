// Per-account turns of one process. A transaction that meets another's write on its account fails
// at once (WriteConflict) and must run again, so N moves racing on one hot account cost O(N^2)
// attempts and can starve. Taking turns here, moves of this process never conflict with each
// other; only moves of other processes do, and those are retried.
//
// The accounts of one call are a SET: deduplicated, then taken once each in one fixed order (code
// unit order of the ids). An account named twice was once taken twice, and the second take waited
// on the first forever (issue 41: a capture to the hold's own account froze that account and, with
// it, every later move, the hold sweeper and the shutdown). The fixed order means two calls can
// never each hold what the other waits for.
//
// A wait for the turn is bounded: past the caller's deadline (its retry budget) or its abort
// signal, the call gives up without running its work (`TurnNotTaken`), releases what it took, and
// the caller answers its transient result. The chain stays ordered: whoever queued behind the
// quitter still waits for whoever queued before it.

/** The turn did not come before the caller's deadline or abort: the work did not run. */
export class TurnNotTaken extends Error {
  constructor(readonly reason: 'deadline' | 'aborted') {
    super(
      reason === 'deadline'
        ? "gave up waiting for the accounts' turn: the retry budget ran out"
        : "stopped waiting for the accounts' turn",
    );
  }
}

export interface TurnOptions {
  /** Epoch ms: past it, stop waiting and throw TurnNotTaken('deadline'). */
  deadlineMs?: number;
  /** Aborted: stop waiting and throw TurnNotTaken('aborted'). */
  signal?: AbortSignal;
}

/** The accounts of one call as turns take them: each once, in one fixed order. */
export function turnOrder(accountIds: readonly string[]): string[] {
  return [...new Set(accountIds)].sort();
}

export class AccountTurns {
  readonly #tails = new Map<string, Promise<void>>();

  /**
   * Runs `work` once this call holds the turn of every account in `accountIds` (a set: an account
   * named twice is taken once). Throws TurnNotTaken, without running `work`, when the turns did not
   * come before `options.deadlineMs` or `options.signal` aborted.
   */
  async run<T>(accountIds: readonly string[], work: () => Promise<T>, options: TurnOptions = {}): Promise<T> {
    const releases: (() => void)[] = [];
    try {
      for (const id of turnOrder(accountIds)) releases.push(await this.#take(id, options));
      return await work();
    } finally {
      for (const release of releases) release();
    }
  }

  /** Accounts some call holds or waits for (tests: nothing is left behind). */
  get busyAccounts(): number {
    return this.#tails.size;
  }

  async #take(accountId: string, options: TurnOptions): Promise<() => void> {
    const held = this.#tails.get(accountId);
    const previous = held ?? Promise.resolve();
    let resolveMine!: () => void;
    const mine = new Promise<void>((resolve) => (resolveMine = resolve));
    const tail = previous.then(() => mine);
    this.#tails.set(accountId, tail);
    const release = () => {
      resolveMine();
      if (this.#tails.get(accountId) === tail) this.#tails.delete(accountId);
    };
    // Nobody holds or waits for the account: the turn is this call's at once.
    if (held === undefined) return release;
    try {
      await waitBounded(previous, options);
    } catch (error) {
      // Quitting: whoever queued behind this call now waits only for `previous`.
      release();
      throw error;
    }
    return release;
  }
}

/** `previous`, or TurnNotTaken once the deadline passes or the signal aborts. */
async function waitBounded(previous: Promise<void>, { deadlineMs, signal }: TurnOptions): Promise<void> {
  if (deadlineMs === undefined && signal === undefined) return previous;
  if (signal?.aborted) throw new TurnNotTaken('aborted');
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      previous,
      new Promise<never>((_resolve, reject) => {
        if (deadlineMs !== undefined)
          timer = setTimeout(() => reject(new TurnNotTaken('deadline')), Math.max(0, deadlineMs - Date.now()));
        if (signal) {
          onAbort = () => reject(new TurnNotTaken('aborted'));
          signal.addEventListener('abort', onAbort, { once: true });
        }
      }),
    ]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
