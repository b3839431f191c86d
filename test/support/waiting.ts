// The one way tests wait: on observable state, never for a fixed time. `waitFor` polls a check
// (a count in the database, a gauge, the database's clock) until it holds, and fails after a deadline
// naming what it waited for. Events that arrive by themselves (subscription messages, process
// output) are awaited where they arrive (support/ws.ts `next`, support/app.ts `waitFor`).
import { setTimeout as pause } from 'node:timers/promises';

/** How often a check is polled: short against the seconds a test may wait, long against a check's cost. */
const POLL_INTERVAL_MS = 25;
/** A test's wait by default; a process-level test names its own. */
export const WAIT_TIMEOUT_MS = 15_000;

/** Polls `check` until it returns a value other than undefined/false, which it returns; fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, timeoutMs = WAIT_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}`);
    await pause(POLL_INTERVAL_MS);
  }
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
  await waitFor(async () => ((await db.command({ hello: 1 })).localTime?.getTime() ?? 0) > instant.getTime(), `the database clock to pass ${instant.toISOString()}`);
}
