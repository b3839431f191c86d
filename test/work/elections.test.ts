import { MongoClient } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorkService, createWorkTelemetry, type WorkService } from '../../src/work/index.ts';
import { KeyNamespace, namespacedKey, workItems } from '../../src/work/model.ts';
import { failCommand } from '../support/failPoints.ts';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';

// Work-item writes through two elections in one call: the driver retries a write once after a
// step-down, and a set settling after a partition may step down again inside that retry. The
// service reruns the writes whose rerun is their own outcome (creation by key and call, heartbeat,
// keyed completion). Faults come from mongod's failCommand fail point, for this file's client only.

const appName = 'work-elections';
const steppedDown = { code: 11602, codeName: 'InterruptedDueToReplStateChange', errmsg: 'operation was interrupted' };

let h: WorkHarness;
let client: MongoClient;
/** The service whose commands the fail point hits. */
let faulted: WorkService;
let turnOff: (() => Promise<void>) | null = null;
beforeAll(async () => {
  h = await openWorkHarness('elections');
  client = new MongoClient(h.db.uri, { appName, maxPoolSize: 4 });
  await client.connect();
  faulted = createWorkService({ db: client.db(h.db.dbName), telemetry: createWorkTelemetry(new Registry(), pino({ level: 'silent' })) });
});
afterEach(async () => {
  await turnOff?.();
  turnOff = null;
});
afterAll(async () => {
  await client?.close();
  await h.close();
});

/** The next two findAndModify commands of the faulted client: refused, or applied with a step-down in the reply. */
async function twoStepDowns(applied: boolean): Promise<void> {
  turnOff = await failCommand(h.db.client, appName, { times: 2 }, { failCommands: ['findAndModify'], ...(applied ? { writeConcernError: steppedDown } : { errorCode: steppedDown.code }) });
}

async function claimed(key: string) {
  const created = await h.service.create({ kind: 'ELECTIONS', payload: { key }, idempotencyKey: key, maxAttempts: 3 });
  if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
  const claim = await h.service.claim({ workerId: 'w', id: created.item._id, leaseSeconds: 30 });
  if (claim.kind !== 'claimSuccess') throw new Error(claim.kind);
  return claim.item;
}

describe('createWorkItem', () => {
  it('creates the item when the upsert and the driver retry both meet a step-down', async () => {
    await twoStepDowns(false);
    const created = await faulted.create({ kind: 'ELECTIONS', payload: { n: 1 }, idempotencyKey: 'el-create-refused', maxAttempts: 3 });
    expect(created).toMatchObject({ kind: 'createWorkItemSuccess', item: { status: 'PENDING', version: 1 } });
    expect(await workItems(h.db.db).countDocuments({ idempotencyKey: namespacedKey(KeyNamespace.CLIENT, 'el-create-refused') })).toBe(1);
  });

  it('answers its own creation, not a replay, when the upsert applied but both replies carried a step-down', async () => {
    await twoStepDowns(true);
    const input = { kind: 'ELECTIONS', payload: { n: 2 }, idempotencyKey: 'el-create-applied', maxAttempts: 3 };
    expect(await faulted.create(input)).toMatchObject({ kind: 'createWorkItemSuccess', item: { status: 'PENDING', version: 1 } });
    // Another call with the key is a replay, as ever.
    expect(await faulted.create(input)).toMatchObject({ kind: 'duplicateReplayed', requestId: 'el-create-applied' });
  });
});

describe('heartbeat and completion', () => {
  it('extends the lease when the heartbeat and the driver retry both meet a step-down', async () => {
    const item = await claimed('el-beat');
    await twoStepDowns(false);
    const beat = await faulted.heartbeat({ id: item._id, workerId: 'w', version: item.version });
    expect(beat).toMatchObject({ kind: 'heartbeatSuccess', item: { version: item.version } });
  });

  it('completes once when the completion and the driver retry both meet a step-down', async () => {
    const item = await claimed('el-complete-refused');
    await twoStepDowns(false);
    const done = await faulted.complete({ id: item._id, workerId: 'w', version: item.version, outcome: 'DONE', result: { ok: true } });
    expect(done).toMatchObject({ kind: 'completeSuccess', item: { status: 'DONE', version: item.version + 1 } });
  });

  it('answers a completion that applied behind two step-downs as its replay, and applies it once', async () => {
    const item = await claimed('el-complete-applied');
    await twoStepDowns(true);
    const done = await faulted.complete({ id: item._id, workerId: 'w', version: item.version, outcome: 'DONE', result: { ok: true } });
    expect(done).toMatchObject({ kind: 'duplicateReplayed', original: { kind: 'completeSuccess', item: { status: 'DONE', version: item.version + 1 } } });
    const stored = await h.service.get(item._id);
    expect(stored).toMatchObject({ status: 'DONE', version: item.version + 1 });
    expect(stored!.history.filter((step: { to: string }) => step.to === 'DONE')).toHaveLength(1);
  });
});
