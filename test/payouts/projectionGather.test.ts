// Proves the projection's gathering pause (ProjectionLimits.batchGatherMs): after writing the
// payouts of a batch that was not full, the holder waits before reading the stream again, so
// withdrawals made one at a time meanwhile reach it as one batch (one payout write, one token
// store) instead of one batch each, and every one of them still gets exactly one payout (P1). A
// stop during the pause ends it at once. The pause is set long here so that which withdrawals
// fall into one batch does not depend on the machine's speed.
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { PayoutWriters } from '../../src/testing/index.ts';
import { createWorkService, createWorkTelemetry } from '../../src/work/index.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  awaitAllProjected,
  expectExactlyOnePayoutEach,
  fundedAccount,
  ledgerOn,
  withProjection,
} from './support/payouts.ts';
import { waitFor } from '../support/waiting.ts';
import { pino } from 'pino';
import { Registry } from 'prom-client';

let test: TestDb;
let app: TestApp | undefined;
beforeAll(async () => {
  test = await connectTestDb('projection_gather');
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});
afterAll(async () => {
  await test.close();
});

/** The real batch upsert, recording the size of every batch it is given. */
function recordingWriter(batches: number[]): PayoutWriters {
  const work = createWorkService({
    db: test.db,
    telemetry: createWorkTelemetry(new Registry(), pino({ level: 'silent' })),
  });
  return {
    writePayout: work.createPayout,
    writePayouts: async (payouts) => {
      batches.push(payouts.length);
      return work.createPayouts(payouts);
    },
  };
}

describe('the payout projection gathers withdrawals between batches', () => {
  it('projects withdrawals made one at a time during the pause as one batch, exactly once each', async () => {
    const ledger = ledgerOn(test.db);
    await fundedAccount(ledger, 'gather-acct');
    const batches: number[] = [];
    app = await startTestApp({
      dbName: test.dbName,
      ...withProjection({ batchGatherMs: 3_000 }, recordingWriter(batches)),
    });
    expect((await ledger.withdraw({ accountId: 'gather-acct', amount: 1, requestId: 'gather-0' })).kind).toBe(
      'withdrawSuccess',
    );
    await awaitAllProjected(test.db, 1);
    // The holder now pauses; these ten, one after the other, wait for it in the stream.
    for (let i = 1; i <= 10; i += 1) {
      expect((await ledger.withdraw({ accountId: 'gather-acct', amount: 1, requestId: `gather-${i}` })).kind).toBe(
        'withdrawSuccess',
      );
    }
    expectExactlyOnePayoutEach(await awaitAllProjected(test.db, 11));
    expect(batches).toEqual([1, 10]);
  });

  it('ends the pause at once when the projection stops', async () => {
    const ledger = ledgerOn(test.db);
    await fundedAccount(ledger, 'gather-stop');
    const batches: number[] = [];
    // Ten minutes: a stop that waited for the pause would outlast the test's timeout.
    app = await startTestApp({
      dbName: test.dbName,
      ...withProjection({ batchGatherMs: 600_000 }, recordingWriter(batches)),
    });
    expect((await ledger.withdraw({ accountId: 'gather-stop', amount: 1, requestId: 'gather-stop-0' })).kind).toBe(
      'withdrawSuccess',
    );
    await waitFor(() => (batches.length > 0 ? true : undefined), 'the first batch');
    await app.close();
    app = undefined;
  });
});
