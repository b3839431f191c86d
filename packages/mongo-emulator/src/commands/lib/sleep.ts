/** Waits `durationMs`, or less when any signal aborts; never rejects. */
export function sleep(durationMs: number, signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    if (signals.some((signal) => signal.aborted)) return resolve();
    const done = () => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, durationMs);
    for (const signal of signals) signal.addEventListener('abort', done, { once: true });
  });
}
