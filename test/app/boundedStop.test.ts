// Issue 41: "the sweeper, the projection and every background loop stop within the shutdown grace
// whatever they wait on". The hold sweeper's stop once waited on a frozen account's turn, and
// SIGTERM never exited. Here a background task whose stop never resolves stands for any such loop:
// the app still stops, the task left behind with a warning naming it, and the tasks started before
// it (stopped after it) are still stopped.
import { afterAll, describe, expect, it } from 'vitest';
import type { StartupTask } from '../../src/db/startupTask.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const GRACE_MS = 300;

describe("the background tasks' stop is bounded by the shutdown grace", () => {
  let app: TestApp | undefined;
  afterAll(async () => {
    await app?.close().catch(() => undefined);
  });

  it("stops the app although a task's stop never returns, and says which task was left behind", async () => {
    const lines: Array<{ msg: string; task?: string }> = [];
    let earlierStopped = false;
    const earlier: StartupTask = {
      name: 'test: stops',
      run: async () => ({ stop: async () => void (earlierStopped = true) }),
    };
    const stuck: StartupTask = {
      name: 'test: never stops',
      run: async () => ({ stop: () => new Promise<void>(() => undefined) }),
    };
    app = await startTestApp({
      env: { SHUTDOWN_GRACE_MS: String(GRACE_MS) },
      logger: createLogger({
        level: 'warn',
        destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
      }),
      startupTasks: (tasks) => [...tasks, earlier, stuck],
    });
    await app.close();
    // The stuck task is named, the one that stopped at once is not. The app's own tasks (the audit,
    // the live watchers) may be named too when a loaded machine keeps them past the 300 ms grace.
    const named = lines
      .filter((line) => line.msg.includes('did not stop within the shutdown grace'))
      .map((line) => line.task);
    expect(named).toContain('test: never stops');
    expect(named).not.toContain('test: stops');
    expect(earlierStopped).toBe(true);
    app = undefined;
  }, 60_000);
});
