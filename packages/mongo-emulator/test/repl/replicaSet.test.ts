// @module-tag processes
// The emulator as a three-member replica set of processes: hello as the SDAM spec reads it, the
// oplog replicated over the wire (CRUD, transactions, indexes, retryable-write records), mongod's
// refusals on a secondary, write concern, reads on a lagging secondary, and the driver following
// a step-down without applying a retried write or transaction twice. One set for the file; each
// test leaves it with a primary and both secondaries applying.
import { type MongoServerError, ReadPreference, MongoClient } from 'mongodb';
import { Long, type ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import {
  adminCommand,
  directClient,
  failPoint,
  idsOn,
  reconfigureMember,
  secondariesOf,
  setForFile,
  settledPrimary,
  stepDownThePrimary,
  type TestDoc,
  withDirectClient,
} from './replSetHelpers.ts';
import { PeerClient } from '../../src/repl/PeerClient.ts';

const rs = setForFile();

describe('a three-member replica set of emulator processes', () => {
  it('answers hello on every member as the SDAM spec reads it', async () => {
    const primary = await settledPrimary(rs.set);
    const hosts = rs.set.members.map((m) => m.address).sort();
    for (const member of rs.set.members) {
      const hello = await adminCommand(member, { hello: 1 });
      expect(hello.setName).toBe('rs0');
      expect([...hello.hosts].sort()).toEqual(hosts);
      expect(hello.me).toBe(member.address);
      expect(hello.primary).toBe(primary.address);
      expect(hello.isWritablePrimary !== hello.secondary).toBe(true);
      expect(hello.isWritablePrimary).toBe(member === primary);
      expect(hello.setVersion).toBe(1);
      expect(hello.topologyVersion.processId.toHexString()).toMatch(/^[0-9a-f]{24}$/);
      expect(hello.lastWrite.lastWriteDate).toBeInstanceOf(Date);
      if (member === primary) {
        // mongod's OID::fromTerm: 0x7fffffff, then the term.
        expect(hello.electionId.toHexString()).toMatch(/^7fffffff0000000000000\w{3}$/);
      } else {
        expect(hello.electionId).toBeUndefined();
      }
    }
    const status = await adminCommand(primary, { serverStatus: 1 });
    expect(Number(status.pid)).toBe(primary.pid);
  });

  it('streams hello: a driver that polls once a minute learns of a step-down at once', async () => {
    const primary = await settledPrimary(rs.set);
    const slow = new MongoClient(rs.set.uri, { heartbeatFrequencyMS: 60_000, serverSelectionTimeoutMS: 5000 });
    // Every member's monitor is waiting in an awaitable hello before the step-down.
    const awaiting = new Set<string>();
    slow.on('serverHeartbeatStarted', (event) => {
      if (event.awaited) awaiting.add(event.connectionId);
    });
    try {
      await slow.db('admin').command({ ping: 1 });
      await expect.poll(() => awaiting.size, { timeout: 10_000 }).toBe(rs.set.members.length);
      const newPrimary = new Promise<string>((resolve) => {
        slow.on('serverDescriptionChanged', (event) => {
          if (event.newDescription.type === 'RSPrimary' && event.address !== primary.address) resolve(event.address);
        });
      });
      const steppedDownAt = Date.now();
      await adminCommand(primary, { replSetStepDown: 10, secondaryCatchUpPeriodSecs: 5 });
      expect(await newPrimary).not.toBe(primary.address);
      // Far below the 60 s poll: the awaitable hello answered when the topology changed.
      expect(Date.now() - steppedDownAt).toBeLessThan(10_000);
    } finally {
      await slow.close();
      await adminCommand(primary, { replSetFreeze: 0 });
    }
  });

  it('replicates writes, transactions, indexes and collection commands to every member', async () => {
    const db = rs.client.db('repl');
    await db.createCollection('made', { validator: { a: { $exists: true } } });
    const coll = db.collection<TestDoc>('items');
    await coll.insertMany([
      { _id: 1, a: 1, list: [1, 2, 3] },
      { _id: 2, a: 2 },
    ]);
    await coll.updateOne({ _id: 1 }, { $set: { 'nested.x': 1 }, $push: { list: 4 }, $inc: { a: 10 } });
    await coll.updateOne({ _id: 1 }, [{ $set: { list: { $slice: ['$list', 2] } } }]);
    await coll.deleteOne({ _id: 2 });
    await coll.createIndex({ a: 1 }, { unique: true, name: 'a_unique' });
    const session = rs.client.startSession();
    try {
      await session.withTransaction(async () => {
        await coll.insertOne({ _id: 3, a: 3 }, { session });
        await coll.updateOne({ _id: 1 }, { $unset: { nested: '' } }, { session });
      });
    } finally {
      await session.endSession();
    }
    const primary = await settledPrimary(rs.set);
    const expected = await coll.find().sort({ _id: 1 }).toArray();
    expect(expected).toEqual([
      { _id: 1, a: 11, list: [1, 2] },
      { _id: 3, a: 3 },
    ]);
    for (const member of secondariesOf(rs.set, primary)) {
      await withDirectClient(member, async (direct) => {
        const docs = await direct
          .db('repl')
          .collection<TestDoc>('items')
          .find({}, { readPreference: ReadPreference.secondaryPreferred })
          .sort({ _id: 1 })
          .toArray();
        expect(docs).toEqual(expected);
        const indexes = await direct
          .db('repl')
          .collection<TestDoc>('items')
          .listIndexes({ readPreference: ReadPreference.secondaryPreferred } as never)
          .toArray();
        expect(indexes.map((i) => i.name).sort()).toEqual(['_id_', 'a_unique']);
        const collections = await direct
          .db('repl')
          .listCollections({ name: 'made' }, { readPreference: ReadPreference.secondaryPreferred })
          .toArray();
        expect((collections[0] as { options?: unknown } | undefined)?.options).toEqual({
          validator: { a: { $exists: true } },
        });
      });
    }
    // The same oplog entries (ts, t) on every member: optimes mean the same thing everywhere.
    const lasts = await Promise.all(
      rs.set.members.map((m) =>
        withDirectClient(m, async (direct) => {
          const [last] = await direct
            .db('local')
            .collection('oplog.rs')
            .find({}, { readPreference: ReadPreference.secondaryPreferred })
            .sort({ $natural: -1 })
            .limit(1)
            .toArray();
          return `${String(last!.ts)}/${String(last!.t)}`;
        }),
      ),
    );
    expect(new Set(lasts).size).toBe(1);
  });

  it('refuses writes on a secondary with 10107 and reads without secondaryOk with 13435, as mongod', async () => {
    const primary = await settledPrimary(rs.set);
    const [secondary] = secondariesOf(rs.set, primary);
    const direct = directClient(secondary!);
    try {
      await direct.connect();
      const write = await direct
        .db('repl')
        .command({ insert: 'items', documents: [{ _id: 'x' }] })
        .catch((e: MongoServerError) => e);
      expect(write).toMatchObject({ code: 10107, codeName: 'NotWritablePrimary' });
      // The driver adds a secondaryOk read preference on a direct connection, so this read goes raw.
      const raw = new PeerClient(secondary!.address);
      try {
        expect(await raw.command('repl', { find: 'items' }, 5000)).toMatchObject({
          ok: 0,
          code: 13435,
          codeName: 'NotPrimaryNoSecondaryOk',
        });
        expect(
          await raw.command('repl', { find: 'items', $readPreference: { mode: 'secondaryPreferred' } }, 5000),
        ).toMatchObject({ ok: 1 });
      } finally {
        raw.close();
      }
      const retryable = await direct
        .db('repl')
        .command({
          insert: 'items',
          documents: [{ _id: 'y' }],
          lsid: { id: new (await import('bson')).UUID() },
          txnNumber: Long.fromNumber(1),
        })
        .catch((e: MongoServerError) => e);
      expect((retryable as MongoServerError).errorLabels).toContain('RetryableWriteError');
    } finally {
      await direct.close();
    }
  });

  it('waits for w:3, fails wtimeout with 64 and keeps the write applied', async () => {
    const coll = rs.client.db('repl').collection<TestDoc>('wc');
    const reply = await coll.insertOne({ _id: 'w3' }, { writeConcern: { w: 3, wtimeoutMS: 10_000 } });
    expect(reply.acknowledged).toBe(true);
    const primary = await settledPrimary(rs.set);
    const secondaries = secondariesOf(rs.set, primary);
    for (const s of secondaries) await failPoint(s, 'rsSyncApplyStop', 'alwaysOn');
    try {
      const error = await coll
        .insertOne({ _id: 'late' }, { writeConcern: { w: 'majority', wtimeoutMS: 300 } })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 64,
        errInfo: { wtimeout: true, writeConcern: { w: 'majority', wtimeout: 300 } },
      });
      expect(await coll.findOne({ _id: 'late' })).toEqual({ _id: 'late' });
    } finally {
      for (const s of secondaries) await failPoint(s, 'rsSyncApplyStop', 'off');
    }
    await coll.insertOne({ _id: 'after' }, { writeConcern: { w: 3, wtimeoutMS: 10_000 } });
  });

  it('serves a lagging secondary stale without afterClusterTime and waits with it (50 when maxTimeMS ends the wait)', async () => {
    const primary = await settledPrimary(rs.set);
    const [lagging] = secondariesOf(rs.set, primary);
    const coll = rs.client.db('repl').collection<TestDoc>('lag');
    await coll.insertOne({ _id: 'v', n: 1 }, { writeConcern: { w: 3 } });
    await failPoint(lagging!, 'rsSyncApplyStop', 'alwaysOn');
    const direct = directClient(lagging!);
    try {
      const session = rs.client.startSession({ causalConsistency: true });
      await coll.updateOne({ _id: 'v' }, { $set: { n: 2 } }, { session, writeConcern: { w: 2 } });
      const operationTime = session.operationTime!;
      const secondaryColl = direct.db('repl').collection<TestDoc>('lag');
      const stale = await secondaryColl.findOne({ _id: 'v' }, { readPreference: ReadPreference.secondaryPreferred });
      expect(stale).toEqual({ _id: 'v', n: 1 });
      // A causally consistent read that knows the write: the driver sends afterClusterTime.
      const causal = direct.startSession({ causalConsistency: true });
      causal.advanceClusterTime(session.clusterTime!);
      causal.advanceOperationTime(operationTime);
      const timedOut = await secondaryColl
        .findOne({ _id: 'v' }, { session: causal, readPreference: ReadPreference.secondaryPreferred, maxTimeMS: 200 })
        .catch((e: unknown) => e);
      expect(timedOut).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
      const waiting = secondaryColl.findOne(
        { _id: 'v' },
        { session: causal, readPreference: ReadPreference.secondaryPreferred },
      );
      await failPoint(lagging!, 'rsSyncApplyStop', 'off');
      expect(await waiting).toEqual({ _id: 'v', n: 2 });
      await causal.endSession();
      await session.endSession();
    } finally {
      await failPoint(lagging!, 'rsSyncApplyStop', 'off');
      await direct.close();
    }
  });

  it('applies a retryable write and a withTransaction once when a step-down interrupts their write concern', async () => {
    const primary = await settledPrimary(rs.set);
    const [follower, behind] = secondariesOf(rs.set, primary);
    const coll = rs.client.db('repl').collection<TestDoc>('once');
    await coll.insertOne({ _id: 'counter', n: 0 }, { writeConcern: { w: 3 } });
    // One secondary stops applying: w:3 cannot be met, and it cannot win the election (it is behind).
    await failPoint(behind!, 'rsSyncApplyStop', 'alwaysOn');
    try {
      const update = coll.updateOne({ _id: 'counter' }, { $inc: { n: 1 } }, { writeConcern: { w: 3 } });
      const session = rs.client.startSession();
      const transaction = session.withTransaction(
        async () => {
          await coll.updateOne({ _id: 'counter' }, { $inc: { t: 1 } }, { session });
        },
        { writeConcern: { w: 3 } },
      );
      // Both wait for the lagging member when the primary steps down under them.
      await withDirectClient(follower!, async (followerClient) => {
        const onFollower = followerClient.db('repl').collection<TestDoc>('once');
        await expect
          .poll(
            async () =>
              await onFollower.findOne({ _id: 'counter' }, { readPreference: ReadPreference.secondaryPreferred }),
            { timeout: 10_000 },
          )
          .toEqual({ _id: 'counter', n: 1, t: 1 });
      });
      // The primary now, stepped down: on a loaded machine a member starved past its 1 s election
      // timeout may have called an election already, which interrupts the waits just the same.
      const steppedDown = await stepDownThePrimary(rs.set, {
        replSetStepDown: 5,
        secondaryCatchUpPeriodSecs: 2,
        force: true,
      });
      await failPoint(behind!, 'rsSyncApplyStop', 'off');
      await Promise.all([update, transaction.finally(() => session.endSession())]);
      const newPrimary = await settledPrimary(rs.set);
      expect(newPrimary).not.toBe(steppedDown);
      expect(await coll.findOne({ _id: 'counter' })).toEqual({ _id: 'counter', n: 1, t: 1 });
    } finally {
      await failPoint(behind!, 'rsSyncApplyStop', 'off');
    }
  });

  it('never elects a priority-0 member (replSetReconfig), and reports every member in replSetGetStatus', async () => {
    const primary = await settledPrimary(rs.set);
    const [passive, other] = secondariesOf(rs.set, primary);
    await reconfigureMember(primary, passive!, { priority: 0 });
    expect((await adminCommand(passive!, { hello: 1 })).passive).toBe(true);
    await adminCommand(primary, { replSetStepDown: 10, secondaryCatchUpPeriodSecs: 5 });
    const next = await settledPrimary(rs.set);
    expect(next).toBe(other);
    const status = await adminCommand(next, { replSetGetStatus: 1 });
    expect(status.members.map((m: { name: string; stateStr: string }) => [m.name, m.stateStr]).sort()).toEqual(
      [
        [primary.address, 'SECONDARY'],
        [passive!.address, 'SECONDARY'],
        [next.address, 'PRIMARY'],
      ].sort(),
    );
    for (const member of status.members) expect(member.optime.ts).toBeDefined();
    await reconfigureMember(next, passive!, { priority: 1 });
    // The stepped-down member may stand again at once.
    expect((await adminCommand(primary, { replSetFreeze: 0 })).info).toBe('unfreezing');
  });

  it('hides a delayed member from hello and applies on it only secondaryDelaySecs after the write', async () => {
    const primary = await settledPrimary(rs.set);
    const [delayed] = secondariesOf(rs.set, primary);
    await reconfigureMember(primary, delayed!, { priority: 0, hidden: true, secondaryDelaySecs: 2 });
    try {
      expect((await adminCommand(primary, { hello: 1 })).hosts).not.toContain(delayed!.address);
      expect((await adminCommand(delayed!, { hello: 1 })).hidden).toBe(true);
      const coll = rs.client.db('repl').collection<TestDoc>('delayed');
      const writtenAt = Date.now();
      await coll.insertOne({ _id: 'late' });
      await withDirectClient(delayed!, async (direct) => {
        const onDelayed = direct.db('repl').collection<TestDoc>('delayed');
        expect(
          await onDelayed.findOne({ _id: 'late' }, { readPreference: ReadPreference.secondaryPreferred }),
        ).toBeNull();
        await expect
          .poll(() => onDelayed.findOne({ _id: 'late' }, { readPreference: ReadPreference.secondaryPreferred }), {
            timeout: 10_000,
            interval: 100,
          })
          .toEqual({ _id: 'late' });
        expect(Date.now() - writtenAt).toBeGreaterThanOrEqual(2000);
      });
    } finally {
      await reconfigureMember(primary, delayed!, { priority: 1, hidden: false, secondaryDelaySecs: 0 });
    }
  });

  it('follows a SIGKILLed primary, and the restarted member re-syncs', async () => {
    const primary = await settledPrimary(rs.set);
    const before = (await adminCommand(primary, { hello: 1 })).electionId as ObjectId;
    const coll = rs.client.db('repl').collection<TestDoc>('failover');
    await coll.insertOne({ _id: 'before' });
    primary.kill('SIGKILL');
    await primary.exited();
    // The survivors elect a primary; the driver's next write goes there. (A write sent at the
    // kill is retried once by the driver, which may still fail while no primary exists yet:
    // bench:failover measures that window.)
    const newPrimary = await settledPrimary(rs.set, primary);
    await coll.insertOne({ _id: 'after' });
    const after = (await adminCommand(newPrimary, { hello: 1 })).electionId as ObjectId;
    expect(after.toHexString() > before.toHexString()).toBe(true);
    await primary.restart();
    await expect.poll(() => idsOn(primary, 'repl', 'failover'), { timeout: 20_000 }).toEqual(['after', 'before']);
    expect((await adminCommand(primary, { hello: 1 })).secondary).toBe(true);
  });
});
