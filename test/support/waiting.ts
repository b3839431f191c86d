// The one way tests wait: on observable state, never for a fixed time, through one polling loop.
// `waitFor` polls a check (a count in the database, a gauge, the database's clock) until it
// returns a value, and fails after a deadline naming what it waited for; `eventually` retries an
// assertion until it passes, and fails with its last diff. Events that arrive by themselves
// (subscription messages, process output) are awaited where they arrive (support/ws.ts `next`,
// support/app.ts `MainProcess.waitFor`).
import { setTimeout as pause } from 'node:timers/promises';

/** How often a check is polled: short against the seconds a test may wait, long against a check's cost. */
const POLL_INTERVAL_MS = 25;
/** A test's wait by default; a process-level test names its own. */
export const WAIT_TIMEOUT_MS = 15_000;

export interface WaitOptions {
  /** Give up after this long (default WAIT_TIMEOUT_MS). */
  timeout?: number;
  /** Poll this often (default 25 ms). */
  interval?: number;
}

/**
 * The one polling loop: runs `attempt` until it settles, at most `timeout` long. `attempt` answers
 * `{ done: true, value }` or the reason it is not done yet, which the final error carries.
 */
async function poll<T>(
  attempt: () => Promise<{ done: true; value: T } | { done: false; reason: Error }>,
  options: WaitOptions,
): Promise<T> {
  const timeoutMs = options.timeout ?? WAIT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await attempt();
    if (outcome.done) return outcome.value;
    if (Date.now() > deadline) {
      outcome.reason.message = `timed out after ${timeoutMs}ms: ${outcome.reason.message}`;
      throw outcome.reason;
    }
    await pause(options.interval ?? POLL_INTERVAL_MS);
  }
}

/** Polls `check` until it returns a value other than undefined/false, which it returns; fails after `timeoutMs`. */
export function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = WAIT_TIMEOUT_MS,
): Promise<T> {
  return poll(
    async () => {
      const value = await check();
      return value !== undefined && value !== false
        ? { done: true, value }
        : { done: false, reason: new Error(`waiting for ${what}`) };
    },
    { timeout: timeoutMs },
  );
}

/**
 * Runs `assertion` (expect calls) until it passes, and returns what it returned; after the
 * timeout, fails with the assertion's own last error, so the diff of what was seen is kept.
 */
export function eventually<T>(assertion: () => Promise<T> | T, options: WaitOptions = {}): Promise<T> {
  return poll(async () => {
    try {
      return { done: true, value: await assertion() };
    } catch (error) {
      return { done: false, reason: error instanceof Error ? error : new Error(String(error)) };
    }
  }, options);
}

/**
 * Waits until this process's clock reads later than `instant`: before a write an in-process app
 * stamps with its own clock (`new Date()`) must be stamped after it.
 */
export async function clockPasses(instant: Date): Promise<void> {
  await waitFor(() => Date.now() > instant.getTime(), `the clock to pass ${instant.toISOString()}`);
}

/** What `databaseClockPasses` needs of a database (a driver Db fits). */
interface CommandTarget {
  command(command: { hello: 1 }): Promise<{ localTime?: Date }>;
}

/**
 * Waits until the database's clock (hello's localTime, the clock `$$NOW` stamps with) reads later
 * than `instant`: what a test needs before a write must be stamped after it.
 */
export async function databaseClockPasses(db: CommandTarget, instant: Date): Promise<void> {
  await waitFor(
    async () => ((await db.command({ hello: 1 })).localTime?.getTime() ?? 0) > instant.getTime(),
    `the database clock to pass ${instant.toISOString()}`,
  );
}
