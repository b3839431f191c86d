// S4: when change-stream history is lost, the projection reconciles (nothing left unprojected)
// and subscribers get a visible ResyncRequired, then live events again. Runs on an emulator of its
// own with a tiny oplog: the projection is stopped while far more than the oplog's worth of
// writes happen, so its stored token and a client's old cursor both fall out of the window.
import { startEmulator, type RunningEmulator } from '@precondition/mongo-emulator';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workItems } from '../../src/work/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  awaitAllProjected,
  expectExactlyOnePayoutEach,
  fundedAccount,
  ledgerOn,
  metricValue,
  withdrawMany,
  withProjection,
} from '../payouts/support/payouts.ts';
import { createItem, subscribeAll, take, WORK_ITEM_STATUS } from './support/streamsTest.ts';

const OPLOG_MAX_ENTRIES = 100;
const kinds = ['s4-kind'];

describe('S4: history loss', () => {
  let emulator: RunningEmulator;
  let client: MongoClient;
  let db: Db;
  const apps: TestApp[] = [];
  const startApp = async (projection: boolean) => {
    const app = await startTestApp({
      mongoUri: emulator.uri,
      dbName: 's4',
      ...withProjection(projection ? { leaseAcquireIntervalMs: 100 } : null),
    });
    apps.push(app);
    return app;
  };
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, replSetName: 'rs0', oplogMaxEntries: OPLOG_MAX_ENTRIES });
    client = new MongoClient(emulator.uri);
    db = client.db('s4');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await client?.close();
    await emulator?.stop();
  });

  it('reconciles the projection, tells live and resuming subscribers to resync, and goes on', async () => {
    const projector = await startApp(true);
    const watcher = await startApp(false);
    const ledger = ledgerOn(db);
    await fundedAccount(ledger, 's4-acct');
    await withdrawMany(ledger, 's4-acct', 's4-a', 5);
    await awaitAllProjected(db, 5);
    const [live] = await subscribeAll(watcher, 1, () => ({ kinds }));
    await createItem(watcher, 's4-kind', 's4-before');
    const [before] = await take(live!, 1);

    // The projection stops; meanwhile more than the whole oplog is written, the last part in one
    // burst, and one payout item the projection had made is deleted: the catch-up starts from the
    // watermark less its margin, so it finds that withdrawal again and re-creates its payout.
    await projector.close();
    const deleted = await workItems(db).findOneAndDelete({ kind: 'PAYOUT', 'payload.requestId': 's4-a-2' });
    expect(deleted).not.toBeNull();
    await withdrawMany(ledger, 's4-acct', 's4-b', 40);
    await db.collection('filler').insertMany(Array.from({ length: 2 * OPLOG_MAX_ENTRIES }, (_, i) => ({ i })));

    const successor = await startApp(true);
    expectExactlyOnePayoutEach(await awaitAllProjected(db, 45));
    expect(await metricValue(successor.registry, 'payout_reconciliations_total', { reason: 'HISTORY_LOST' })).toBe(1);

    // The live subscriber's shared stream lost its place too: a visible notice, then live events.
    const [notice] = await take(live!, 1);
    expect(notice).toMatchObject({ __typename: 'ResyncRequired', reason: 'HISTORY_LOST' });
    const after = await createItem(watcher, 's4-kind', 's4-after');
    expect((await take(live!, 1))[0]).toMatchObject({ __typename: 'WorkItemStatusChanged', itemId: after, version: 1 });

    // A client resuming from a cursor older than the window: resync (with a cursor), then live.
    const resumed = watcher.ws('ops').subscribe(WORK_ITEM_STATUS, { kinds, after: before!.cursor });
    const [resync] = await take(resumed, 1);
    expect(resync).toMatchObject({ __typename: 'ResyncRequired', reason: 'HISTORY_LOST' });
    expect(typeof resync!.cursor).toBe('string');
    const last = await createItem(watcher, 's4-kind', 's4-last');
    expect((await take(resumed, 1))[0]).toMatchObject({ itemId: last, version: 1 });
  });
});
