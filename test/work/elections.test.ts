// @module-tag failpoints
import { MongoClient, type ObjectId } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorkService, createWorkTelemetry, type WorkService } from '../../src/work/index.ts';
import { KeyNamespace, namespacedKey, workItems } from '../../src/work/model.ts';
import { failCommand } from '../support/failPoints.ts';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';
import { useOwnEngine } from '../support/mongo.ts';

// Its fail points on an engine of its own, never waiting on another file's (test/support/mongo.ts).
useOwnEngine();

// Work-item writes through two elections in one call: the driver retries a write once after a
// step-down, and a set settling after a partition may step down again inside that retry. The
// service reruns every write: creation by key and call, heartbeat, keyed completion, and claims
// and requeues by the call's own id written with the write (R5). Faults come from mongod's
// failCommand fail point, for this file's client only.

const appName = 'work-elections';
const steppedDown = { code: 11602, codeName: 'InterruptedDueToReplStateChange', errmsg: 'operation was interrupted' };

let h: WorkHarness;
let client: MongoClient;
/** The service whose commands the fail point hits. */
let faulted: WorkService;
let turnOff: (() => Promise<void>) | null = null;
beforeAll(async () => {
  h = await openWorkHarness('elections');
  // A fail point's ShutdownInProgress (91) marks the server Unknown until the driver's monitor hears
  // from it again: its streaming hello answers on a topology change or after heartbeatFrequencyMS,
  // and an injected error changes nothing on the server (as on mongod), so the default 10 s would
  // be each such test's wait.
  client = new MongoClient(h.db.uri, { appName, maxPoolSize: 4, heartbeatFrequencyMS: 500 });
  await client.connect();
  faulted = createWorkService({
    db: client.db(h.db.dbName),
    telemetry: createWorkTelemetry(new Registry(), pino({ level: 'silent' })),
  });
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
async function twoStepDowns(applied: boolean, code: number = steppedDown.code): Promise<void> {
  const error = { ...steppedDown, code };
  turnOff = await failCommand(
    h.db.client,
    appName,
    { times: 2 },
    { failCommands: ['findAndModify'], ...(applied ? { writeConcernError: error } : { errorCode: code }) },
  );
}

/** mongod's codes of a primary that is going or gone (error_codes.yml): a step-down, a write on a secondary, a shutdown. */
const STATE_CHANGES = [
  [11602, 'InterruptedDueToReplStateChange'],
  [10107, 'NotWritablePrimary'],
  [91, 'ShutdownInProgress'],
] as const;

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
    const created = await faulted.create({
      kind: 'ELECTIONS',
      payload: { n: 1 },
      idempotencyKey: 'el-create-refused',
      maxAttempts: 3,
    });
    expect(created).toMatchObject({ kind: 'createWorkItemSuccess', item: { status: 'PENDING', version: 1 } });
    expect(
      await workItems(h.db.db).countDocuments({
        idempotencyKey: namespacedKey(KeyNamespace.CLIENT, 'el-create-refused'),
      }),
    ).toBe(1);
  });

  it('answers its own creation, not a replay, when the upsert applied but both replies carried a step-down', async () => {
    await twoStepDowns(true);
    const input = { kind: 'ELECTIONS', payload: { n: 2 }, idempotencyKey: 'el-create-applied', maxAttempts: 3 };
    expect(await faulted.create(input)).toMatchObject({
      kind: 'createWorkItemSuccess',
      item: { status: 'PENDING', version: 1 },
    });
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
    const done = await faulted.complete({
      id: item._id,
      workerId: 'w',
      version: item.version,
      outcome: 'DONE',
      result: { ok: true },
    });
    expect(done).toMatchObject({ kind: 'completeSuccess', item: { status: 'DONE', version: item.version + 1 } });
  });

  it('answers a completion that applied behind two step-downs as its replay, and applies it once', async () => {
    const item = await claimed('el-complete-applied');
    await twoStepDowns(true);
    const done = await faulted.complete({
      id: item._id,
      workerId: 'w',
      version: item.version,
      outcome: 'DONE',
      result: { ok: true },
    });
    expect(done).toMatchObject({
      kind: 'duplicateReplayed',
      original: { kind: 'completeSuccess', item: { status: 'DONE', version: item.version + 1 } },
    });
    const stored = await h.service.get(item._id);
    expect(stored).toMatchObject({ status: 'DONE', version: item.version + 1 });
    expect(stored!.history.filter((step: { to: string }) => step.to === 'DONE')).toHaveLength(1);
  });
});

describe('batches of heartbeats and completions (issue 43)', () => {
  const doneBy = (item: { _id: ObjectId; version: number }) => ({
    id: item._id,
    workerId: 'w',
    version: item.version,
    outcome: 'DONE' as const,
    result: { ok: true },
  });
  const donesIn = async (id: ObjectId) =>
    (await h.service.get(id))!.history.filter((step: { to: string }) => step.to === 'DONE').length;

  it('extends every lease of a batch whose writes meet two refused step-downs', async () => {
    const items = [await claimed('el-beats-1'), await claimed('el-beats-2')];
    await twoStepDowns(false);
    const beats = await faulted.heartbeatMany({
      items: items.map((item) => ({ id: item._id, workerId: 'w', version: item.version })),
    });
    expect(beats.map((beat) => beat.kind)).toEqual(['heartbeatSuccess', 'heartbeatSuccess']);
  });

  it('completes each item of a batch once when its writes meet two refused step-downs', async () => {
    const items = [
      await claimed('el-batch-refused-1'),
      await claimed('el-batch-refused-2'),
      await claimed('el-batch-refused-3'),
    ];
    await twoStepDowns(false);
    const answers = await faulted.completeMany({ items: items.map(doneBy) });
    expect(answers.map((answer) => answer.kind)).toEqual(['completeSuccess', 'completeSuccess', 'completeSuccess']);
    for (const item of items) expect(await donesIn(item._id)).toBe(1);
  });

  it('answers each item whose completion applied behind two step-downs as its replay, and applies each once', async () => {
    const items = [await claimed('el-batch-applied-1'), await claimed('el-batch-applied-2')];
    // Two faults per item: its write and the driver's retry of it both apply and both replies
    // carry a step-down, so each item's rerun finds its completion applied.
    turnOff = await failCommand(
      h.db.client,
      appName,
      { times: 2 * items.length },
      { failCommands: ['findAndModify'], writeConcernError: steppedDown },
    );
    const answers = await faulted.completeMany({ items: items.map(doneBy) });
    for (const [i, answer] of answers.entries()) {
      expect(answer).toMatchObject({
        kind: 'duplicateReplayed',
        original: { kind: 'completeSuccess', item: { status: 'DONE', version: items[i]!.version + 1 } },
      });
    }
    for (const item of items) {
      expect(await h.service.get(item._id)).toMatchObject({ status: 'DONE', version: item.version + 1 });
      expect(await donesIn(item._id)).toBe(1);
    }
  });
});

describe('claims and requeues', () => {
  async function pending(kind: string, key: string) {
    const created = await h.service.create({ kind, payload: { key }, idempotencyKey: key, maxAttempts: 1 });
    if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
    return created.item;
  }

  /** A dead letter: claimed once, completed as failed with no attempt left. */
  async function deadLetter(key: string) {
    const created = await pending('EL_REQUEUE', key);
    const claim = await h.service.claim({ workerId: 'w', id: created._id, leaseSeconds: 30 });
    if (claim.kind !== 'claimSuccess') throw new Error(claim.kind);
    const item = claim.item;
    const failed = await h.service.complete({
      id: item._id,
      workerId: 'w',
      version: item.version,
      outcome: 'FAILED',
      result: null,
    });
    if (failed.kind !== 'completeSuccess' || failed.item.status !== 'FAILED')
      throw new Error(`not dead-lettered: ${JSON.stringify(failed)}`);
    return failed.item;
  }

  const claimsIn = (history: ReadonlyArray<{ to: string }>) =>
    history.filter((step) => step.to === 'PROCESSING').length;

  it.each(STATE_CHANGES)(
    'claims by id when the claim and the driver retry are both refused with %i %s',
    async (code, name) => {
      const item = await pending(`EL_CLAIM_${code}`, `el-claim-refused-${name}`);
      await twoStepDowns(false, code);
      const claim = await faulted.claim({ workerId: 'w', id: item._id, leaseSeconds: 30 });
      expect(claim).toMatchObject({ kind: 'claimSuccess', item: { status: 'PROCESSING', version: 2, lockedBy: 'w' } });
    },
  );

  it('answers its own claim by id, not ConflictLost, when the claim applied but both replies carried a step-down', async () => {
    const item = await pending('EL_CLAIM_ID', 'el-claim-applied');
    await twoStepDowns(true);
    const claim = await faulted.claim({ workerId: 'w', id: item._id, leaseSeconds: 30 });
    expect(claim).toMatchObject({ kind: 'claimSuccess', item: { status: 'PROCESSING', version: 2, lockedBy: 'w' } });
    expect(claimsIn((await h.service.get(item._id))!.history)).toBe(1);
  });

  it('answers the item its claim of the next one took, and leaves the next item alone, when both replies carried a step-down', async () => {
    // The claim's first walk is over stalled items: the first item is one (its lease expired), so
    // the faulted write is the one that takes it, and a rerun that forgot it would take the second.
    const created = await h.service.create({
      kind: 'EL_CLAIM_NEXT',
      payload: { key: 'el-next-1' },
      idempotencyKey: 'el-next-1',
      maxAttempts: 3,
    });
    if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
    const first = created.item;
    expect((await h.service.claim({ workerId: 'gone', id: first._id, leaseSeconds: 30 })).kind).toBe('claimSuccess');
    await workItems(h.db.db).updateOne({ _id: first._id }, { $set: { leaseExpiresAt: new Date(0) } });
    const second = await pending('EL_CLAIM_NEXT', 'el-next-2');
    await twoStepDowns(true);
    const claim = await faulted.claim({ workerId: 'w', kinds: ['EL_CLAIM_NEXT'], leaseSeconds: 30 });
    expect(claim).toMatchObject({ kind: 'claimSuccess', item: { status: 'PROCESSING', lockedBy: 'w' } });
    expect(claim.kind === 'claimSuccess' && claim.item._id.equals(first._id)).toBe(true);
    expect(await h.service.get(second._id)).toMatchObject({ status: 'PENDING', version: 1 });
  });

  it('answers a batch claim with the item it took when both replies carried a step-down', async () => {
    const item = await pending('EL_CLAIM_MANY', 'el-many-1');
    await twoStepDowns(true);
    const batch = await faulted.claimMany({ kinds: ['EL_CLAIM_MANY'], workerId: 'w', max: 4, leaseSeconds: 30 });
    expect(batch).toMatchObject({ kind: 'claimWorkItemsSuccess', conflicts: 0 });
    expect(batch.kind === 'claimWorkItemsSuccess' && batch.items.map((i) => i._id.toHexString())).toEqual([
      item._id.toHexString(),
    ]);
    expect(claimsIn((await h.service.get(item._id))!.history)).toBe(1);
  });

  it.each(STATE_CHANGES)(
    'requeues when the requeue and the driver retry are both refused with %i %s',
    async (code, name) => {
      const item = await deadLetter(`el-requeue-refused-${name}`);
      await twoStepDowns(false, code);
      expect(await faulted.requeue({ id: item._id, version: item.version })).toMatchObject({
        kind: 'requeueSuccess',
        item: { status: 'PENDING', version: item.version + 1 },
      });
    },
  );

  it('answers its own requeue, not ConflictLost, when the requeue applied but both replies carried a step-down', async () => {
    const item = await deadLetter('el-requeue-applied');
    await twoStepDowns(true);
    expect(await faulted.requeue({ id: item._id, version: item.version })).toMatchObject({
      kind: 'requeueSuccess',
      item: { status: 'PENDING', version: item.version + 1 },
    });
    // Another requeue at that version lost the race, as ever.
    expect(await faulted.requeue({ id: item._id, version: item.version })).toMatchObject({
      kind: 'conflictLost',
      operation: 'requeue',
    });
  });
});
