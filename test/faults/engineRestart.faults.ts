// The long form of the engine-restart readiness test (test/health/readiness.test.ts has the short
// one in npm test): the engine stays down for more failed reopens than the old code's give-up
// count (8), and the feed still reopens by itself once an engine is back on the same port, with
// /readyz back to 200 and a new subscription receiving events. Run by `npm run test:faults`.
import { afterAll, describe, it } from 'vitest';
import { engineOutage, type OutageRun } from '../health/support/readiness.ts';

describe('readiness through a long engine outage', () => {
  const run: OutageRun = {};
  afterAll(async () => {
    await run.app?.close().catch(() => undefined);
    await run.engine?.kill();
  });

  it('turns 503 when the engine dies and back to 200 when it returns on the same port; the feed recovers', async () => {
    await engineOutage(run, 8);
  }, 180_000);
});
