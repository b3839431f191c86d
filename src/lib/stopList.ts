// The one stop list: what a start-up built, each with the step that stops it, stopped in reverse
// order (the last thing started stops first, so nothing is stopped under something still using
// it). The app (src/app/createApp.ts) and the server (src/server/startServer.ts) each keep one.

export class StopList {
  readonly #steps: Array<() => Promise<void>> = [];

  /** `onError` hears a step that failed; the steps after it still run. */
  constructor(private readonly onError: (error: unknown) => void) {}

  push(step: () => Promise<void>): void {
    this.#steps.push(step);
  }

  /** Runs every step pushed so far, last first, and forgets them: a second call runs only what was pushed since. */
  async stopAll(): Promise<void> {
    for (const step of this.#steps.splice(0).reverse()) {
      await step().catch(this.onError);
    }
  }
}

/**
 * `stop()`, awaited at most until `deadlineMs` (epoch ms): a background loop stuck on something
 * that never answers must not hold the process past its shutdown grace (issue 41: the hold
 * sweeper's stop waited on a frozen account's turn and SIGTERM never exited). True when it stopped
 * in time; false when it was left behind (`stop()` was still called, and its signal is set).
 */
export async function stopBefore(stop: () => Promise<void>, deadlineMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>(
    (resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadlineMs - Date.now()))),
  );
  try {
    return await Promise.race([stop().then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
