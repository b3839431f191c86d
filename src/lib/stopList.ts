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
