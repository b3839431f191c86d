// At most `perWindowMax` log lines per key in each window, so that a client hammering with a bad
// key (or a thousand subscribers resyncing at once) cannot flood the log: the first lines of a
// window are written, the rest counted and reported on the next line written for that key.

export interface LogThrottleOptions {
  windowMs: number;
  perWindowMax: number;
  /** Keys tracked at once; past it the oldest window is forgotten (a bounded map). */
  keysMax: number;
  now?: () => number;
}

export class LogThrottle {
  readonly #windows = new Map<string, { startedMs: number; written: number; suppressed: number }>();
  constructor(private readonly options: LogThrottleOptions) {}

  /** Whether to write this line; `suppressed`: lines of this key dropped since the last one written. */
  take(key: string): { write: boolean; suppressed: number } {
    const nowMs = (this.options.now ?? Date.now)();
    let window = this.#windows.get(key);
    if (!window || nowMs - window.startedMs >= this.options.windowMs) {
      const suppressed = window?.suppressed ?? 0;
      this.#windows.delete(key);
      if (this.#windows.size >= this.options.keysMax) this.#windows.delete(this.#windows.keys().next().value!);
      window = { startedMs: nowMs, written: 0, suppressed };
      this.#windows.set(key, window);
    }
    if (window.written >= this.options.perWindowMax) {
      window.suppressed++;
      return { write: false, suppressed: 0 };
    }
    window.written++;
    const suppressed = window.suppressed;
    window.suppressed = 0;
    return { write: true, suppressed };
  }
}

/** Auth failures and resyncs: 5 lines per key per 10 s (a burst shows, a flood is counted), 1,000 keys. */
export const AUDIT_LOG_THROTTLE = Object.freeze({ windowMs: 10_000, perWindowMax: 5, keysMax: 1_000 });
