// hello's topologyVersion counter: it moves when this member's state, its configuration or the
// primary it knows changes, and wakes the awaitable hellos of the drivers' streaming monitors
// (mongod's TopologyCoordinator::incrementTopologyVersion and
// ReplicationCoordinatorImpl::getTopologyChangeFuture).
export class TopologyVersion {
  #counter = 0n;
  readonly #waiters = new Set<() => void>();

  get counter(): bigint {
    return this.#counter;
  }

  /** Something a driver's monitor watches changed: the counter moves and every waiting hello answers. */
  bump(): void {
    this.#counter += 1n;
    for (const wake of [...this.#waiters]) wake();
  }

  /** An awaitable hello: resolves when the counter moves past `counter`, or after `timeoutMs`, or on an abort. */
  waitForChange(counter: bigint, timeoutMs: number, signals: AbortSignal[]): Promise<void> {
    if (this.#counter !== counter || timeoutMs <= 0 || signals.some((s) => s.aborted)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        for (const s of signals) s.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      for (const s of signals) s.addEventListener('abort', done, { once: true });
      this.#waiters.add(done);
    });
  }
}
