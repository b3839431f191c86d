// The orphan sweep ends exactly the open transactions of processes whose liveness lease lapsed in
// this database: never a live process's, never its own, never those of a process that keeps no
// lease here (another application or another database on the same server). Each case opens a
// real transaction from a client named as an API process names its client, and asks the server
// afterwards whether it is still open.
import { randomBytes } from 'node:crypto';
import { MongoClient, type ClientSession } from 'mongodb';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appNameOf,
  createLivenessTelemetry,
  createProcessLiveness,
  type ProcessLiveness,
} from '../../src/db/processLiveness.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';

let test: TestDb;
const clients: MongoClient[] = [];
const tag = randomBytes(4).toString('hex');
const logger = createLogger({ level: 'silent' });
const registry = new Registry();

beforeAll(async () => {
  test = await connectTestDb('process_liveness');
  await test.db.collection<{ _id: string }>('docs').insertMany(['x', 'z', 'self', 'other'].map((_id) => ({ _id })));
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await test?.close();
});

function liveness(processId: string): ProcessLiveness {
  return createProcessLiveness({ db: test.db, processId, logger, telemetry: createLivenessTelemetry(registry) });
}

/** A transaction left open on `docs/<_id>` by a client announcing `appName`. */
async function openTransaction(appName: string, _id: string): Promise<ClientSession> {
  const client = new MongoClient(test.uri, { appName });
  clients.push(client);
  const session = client.startSession();
  session.startTransaction();
  await client
    .db(test.dbName)
    .collection<{ _id: string }>('docs')
    .updateOne({ _id }, { $set: { touched: appName } }, { session });
  return session;
}

async function openAppNames(): Promise<string[]> {
  const ops = await test.client
    .db('admin')
    .aggregate([{ $currentOp: { idleSessions: true } }, { $match: { type: 'idleSession' } }])
    .toArray();
  return ops.map((op) => String(op['appName']));
}

async function lapse(processId: string): Promise<void> {
  await test.db
    .collection<{ _id: string }>('process_liveness')
    .updateOne({ _id: processId }, { $set: { expiresAt: new Date(0) } });
}

describe('orphan sweep', () => {
  it("ends a lapsed process's transaction, and only that one", async () => {
    const [self, x, z] = [`self-${tag}`, `x-${tag}`, `z-${tag}`];
    const sweeper = liveness(self);
    await sweeper.heartbeat();
    await liveness(x).heartbeat();
    const ofX = await openTransaction(appNameOf(x), 'x');
    const ofZ = await openTransaction(appNameOf(z), 'z'); // keeps no lease in this database
    const ofSelf = await openTransaction(appNameOf(self), 'self');
    const ofOther = await openTransaction(`other-app-${tag}`, 'other');

    expect(await sweeper.sweepOnce()).toBe(0); // x is alive
    await lapse(x);
    await lapse(self);
    expect(await sweeper.sweepOnce()).toBe(1);
    const open = await openAppNames();
    expect(open).not.toContain(appNameOf(x));
    expect(open).toEqual(expect.arrayContaining([appNameOf(z), appNameOf(self), `other-app-${tag}`]));
    await expect(ofX.commitTransaction()).rejects.toMatchObject({ codeName: 'NoSuchTransaction' });
    for (const session of [ofZ, ofSelf, ofOther]) await session.commitTransaction();
    expect(await sweeper.sweepOnce()).toBe(0);
    expect(await registry.getSingleMetricAsString('orphan_transactions_ended_total')).toMatch(
      /orphan_transactions_ended_total 1$/m,
    );
  });

  it('renews its own lease by the database clock', async () => {
    const processId = `renew-${tag}`;
    await liveness(processId).heartbeat();
    const leases = test.db.collection<{ _id: string; expiresAt: Date; pid: number }>('process_liveness');
    const doc = await leases.findOne({ _id: processId });
    expect(doc).toMatchObject({ pid: process.pid });
    expect(doc!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });
});
