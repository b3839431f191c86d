// The claim loop's nap: it sleeps until a timeout or until something frees room or signals work
// (a handler finished, a completion was answered, a subscription event), whichever comes first.

export interface Wakeable {
  /** Ends the current nap, or, when none is on, makes the next one return at once. */
  wake(): void;
  /** Resolves after `ms`, or sooner on wake() (or at once if one came since the last nap, or `stopped()`). */
  nap(ms: number): Promise<void>;
}

export function createWakeable(stopped: () => boolean): Wakeable {
  let wakeUp: (() => void) | null = null;
  /** A wake-up that came while the loop was not napping (claiming, say). */
  let woken = false;
  return {
    wake() {
      const resolve = wakeUp;
      wakeUp = null;
      if (resolve) resolve();
      else woken = true;
    },
    nap(ms) {
      return new Promise<void>((resolve) => {
        if (woken || stopped()) {
          woken = false;
          resolve();
          return;
        }
        const timer = setTimeout(() => {
          wakeUp = null;
          resolve();
        }, ms);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}
