// D1 and D2 on a three-member set of processes, each on its own dbpath (startReplicaSet's
// `dbpath`: member i in <dbpath>/<i>), and seed 002's third question: what a write concern
// promises through a crash of every member, of the primary alone, and through a failover.
// The cases are registered by replicaSet.test.ts (npm test: a member that rejoins) and by
// test/faults/emulatorDurability.faults.ts (all of them: each takes 10-20 s on a busy machine).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize } from 'bson';
import { MongoClient, MongoServerError, type WriteConcernSettings } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForPrimary, type RunningReplicaSet } from '../../src/index.ts';
import { PROCESS_TEST_TIMEOUT_MS } from './nodeProcess.ts';
import {
  adminCommand,
  failPoint,
  idsOn,
  launchSet,
  secondariesOf,
  settledPrimary,
  startTestSet,
  withClient,
} from '../repl/replSetHelpers.ts';

const WRITERS = 6;
const ACKS_BEFORE_KILL = 150;

let dir: string | undefined;
let set: RunningReplicaSet | undefined;
/** Every line each member printed, by member index (a restart's lines follow its first run's). */
let output: string[][] = [];

function cleanUp(): void {
  afterEach(async () => {
    await set?.stop();
    set = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
}

async function startSet(
  options: { writeConcernMajorityJournalDefault?: boolean; memberArgs?: string[] } = {},
): Promise<RunningReplicaSet> {
  dir = mkdtempSync(join(tmpdir(), 'emulator-set-'));
  output = [[], [], []];
  set = await startTestSet({
    dbpath: dir,
    onOutput: (i, line) => output[i]!.push(line),
    ...options,
  });
  return set;
}

async function killAll(running: RunningReplicaSet): Promise<void> {
  for (const member of running.members) member.kill('SIGKILL');
  await Promise.all(running.members.map((m) => m.exited()));
}

async function startAll(running: RunningReplicaSet): Promise<void> {
  await Promise.all(running.members.map((m) => m.start()));
  await waitForPrimary(
    running.members.map((m) => m.address),
    30_000,
  );
}

/** WRITERS clients insert at `writeConcern` until ACKS_BEFORE_KILL acknowledgements, then every member is SIGKILLed at once. */
async function writeThroughWholeSetKill(
  running: RunningReplicaSet,
  writeConcern: WriteConcernSettings,
): Promise<string[]> {
  const acks: string[] = [];
  let killing: Promise<void> | undefined;
  const clients = Array.from(
    { length: WRITERS },
    () => new MongoClient(running.uri, { maxPoolSize: 1, retryWrites: false, serverSelectionTimeoutMS: 1000 }),
  );
  await Promise.all(
    clients.map(async (client, w) => {
      const coll = client.db('d1').collection<{ _id: string }>('docs');
      for (let i = 0; !killing; i++) {
        try {
          await coll.insertOne({ _id: `${w}-${i}` }, { writeConcern });
        } catch {
          return;
        }
        acks.push(`${w}-${i}`);
        if (acks.length >= ACKS_BEFORE_KILL && !killing) killing = killAll(running);
      }
    }),
  );
  await killing;
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  return acks;
}

async function idsOnSet(running: RunningReplicaSet): Promise<Set<string>> {
  return withClient(running.uri, async (client) => {
    const docs = await client
      .db('d1')
      .collection<{ _id: string }>('docs')
      .find({}, { readConcern: { level: 'majority' } })
      .toArray();
    return new Set(docs.map((d) => d._id));
  });
}

/**
 * SIGKILLs a secondary, runs `whileDown` (writes to d2.docs), starts the member again on its
 * dbpath and waits until it holds `count` documents of d2.docs; answers the lines it
 * printed since that start.
 */
async function restartASecondary(
  running: RunningReplicaSet,
  whileDown: () => Promise<unknown>,
  count: number,
): Promise<string[]> {
  const primary = await settledPrimary(running);
  const [victim] = secondariesOf(running, primary);
  victim!.kill('SIGKILL');
  await victim!.exited();
  await whileDown();
  const before = output[victim!.index]!.length;
  await victim!.start();
  await expect.poll(async () => (await idsOn(victim!, 'd2', 'docs')).length, { timeout: 20_000 }).toBe(count);
  return output[victim!.index]!.slice(before);
}

export function wholeSetKill(): void {
  describe('D1: a kill of every member at once (--dbpath)', () => {
    cleanUp();

    it('keeps every write acknowledged at w: majority; each member recovers its own data', async () => {
      const running = await startSet();
      const acks = await writeThroughWholeSetKill(running, { w: 'majority' });
      expect(acks.length).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
      const before = output.map((lines) => lines.length);
      await startAll(running);
      const present = await idsOnSet(running);
      expect(acks.filter((id) => !present.has(id))).toEqual([]);
      for (const [i, lines] of output.entries()) {
        const sinceRestart = lines.slice(before[i]);
        expect(sinceRestart.some((l) => l.includes('storage: recovered'))).toBe(true);
        expect(sinceRestart.filter((l) => l.includes('initial sync from'))).toEqual([]);
      }
    });

    it('with writeConcernMajorityJournalDefault: false acknowledges majority writes no journal holds, and the kill loses them (seed 002)', async () => {
      const running = await startSet({ writeConcernMajorityJournalDefault: false });
      await withClient(running.uri, async (client) => {
        const coll = client.db('d1').collection<{ _id: string }>('docs');
        await coll.insertOne({ _id: 'journaled' }, { writeConcern: { w: 'majority', journal: true } });
        // No member's journal moves from here on (mongod's pauseJournalFlusherThread).
        for (const member of running.members) await failPoint(member, 'pauseJournalFlusherThread', 'alwaysOn');
        // Applied by a majority is enough: acknowledged at once.
        await coll.insertOne({ _id: 'applied-only' }, { writeConcern: { w: 'majority' } });
        // j: true still waits for a journal, which never comes.
        await expect(
          coll.insertOne({ _id: 'waits' }, { writeConcern: { w: 'majority', journal: true, wtimeoutMS: 500 } }),
        ).rejects.toMatchObject({ code: 64 });
      });
      await killAll(running);
      await startAll(running);
      const present = await idsOnSet(running);
      expect(present.has('journaled')).toBe(true);
      expect(present.has('applied-only')).toBe(false);
    });

    it('with writeConcernMajorityJournalDefault: true, a majority write waits for the journals; replSetGetStatus shows durable optimes', async () => {
      const running = await startSet();
      await withClient(running.uri, async (client) => {
        for (const member of running.members) await failPoint(member, 'pauseJournalFlusherThread', 'alwaysOn');
        const coll = client.db('d1').collection<{ _id: string }>('docs');
        await expect(
          coll.insertOne({ _id: 'waits' }, { writeConcern: { w: 'majority', wtimeoutMS: 500 } }),
        ).rejects.toMatchObject({ code: 64 });
        const paused = await adminCommand(running.members[0]!, { replSetGetStatus: 1 });
        // Applied past what the journal holds while the flusher is paused.
        expect(paused.optimes.appliedOpTime.ts.greaterThan(paused.optimes.durableOpTime.ts)).toBe(true);
        for (const member of running.members) await failPoint(member, 'pauseJournalFlusherThread', 'off');
        await coll.insertOne({ _id: 'durable' }, { writeConcern: { w: 'majority', wtimeoutMS: 10_000 } });
      });
    });
  });
}

export function seed002Q3(): void {
  describe("seed 002's third question: w: 1, j: true", () => {
    cleanUp();

    it('survives a crash and restart of its primary, but is rolled back when another member was elected meanwhile; majority writes survive both', async () => {
      const running = await startSet();
      await withClient(
        running.uri,
        async (client) => {
          const coll = client.db('q3').collection<{ _id: string }>('docs');
          await coll.insertOne({ _id: 'majority-1' }, { writeConcern: { w: 'majority' } });
          // 1. The primary alone holds a j:true write; it crashes and comes back before anyone else is elected.
          const primary = await settledPrimary(running);
          let secondaries = secondariesOf(running, primary);
          for (const s of secondaries) await failPoint(s, 'stopReplProducer', 'alwaysOn');
          for (const s of secondaries) await adminCommand(s, { replSetFreeze: 30 });
          await coll.insertOne({ _id: 'j-survives' }, { writeConcern: { w: 1, journal: true } });
          await primary.restart();
          // It comes back with the write from its journal and is elected again (the others are frozen).
          expect(await settledPrimary(running)).toBe(primary);
          for (const s of secondaries) await adminCommand(s, { replSetFreeze: 0 });
          for (const s of secondaries) await failPoint(s, 'stopReplProducer', 'off');
          for (const member of running.members)
            await expect
              .poll(() => idsOn(member, 'q3', 'docs'), { timeout: 15_000 })
              .toEqual(['j-survives', 'majority-1']);

          // 2. Again, but the others elect a new primary while it is down: its write is rolled back.
          secondaries = secondariesOf(running, primary);
          for (const s of secondaries) await failPoint(s, 'stopReplProducer', 'alwaysOn');
          await coll.insertOne({ _id: 'j-rolled-back' }, { writeConcern: { w: 1, journal: true } });
          primary.kill('SIGKILL');
          await primary.exited();
          for (const s of secondaries) await failPoint(s, 'stopReplProducer', 'off');
          const newPrimary = await settledPrimary(running, primary);
          expect(newPrimary).not.toBe(primary);
          await coll.insertOne({ _id: 'majority-2' }, { writeConcern: { w: 'majority' } });
          await primary.start();
          for (const member of running.members)
            await expect
              .poll(() => idsOn(member, 'q3', 'docs'), { timeout: 20_000 })
              .toEqual(['j-survives', 'majority-1', 'majority-2']);
          // The old primary recovered the write from its journal, then rolled it back into its rollback files.
          const rollbackDir = join(primary.rollbackDir, 'q3.docs');
          const saved = readdirSync(rollbackDir).map((f) => deserialize(readFileSync(join(rollbackDir, f))));
          expect(saved).toEqual([{ _id: 'j-rolled-back' }]);
        },
        { retryWrites: false },
      );
    });
  });
}

export function memberRejoins(): void {
  describe('D2: a restarted member recovers instead of resyncing', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
    cleanUp();

    it('rejoins on its dbpath without an initial sync and holds every write', async () => {
      const running = await startSet();
      await withClient(running.uri, async (client) => {
        const coll = client.db('d2').collection<{ _id: string }>('docs');
        await coll.insertMany(
          Array.from({ length: 50 }, (_, i) => ({ _id: `before-${i}` })),
          { writeConcern: { w: 3 } },
        );
        const lines = await restartASecondary(
          running,
          () =>
            coll.insertMany(
              Array.from({ length: 50 }, (_, i) => ({ _id: `during-${i}` })),
              { writeConcern: { w: 'majority' } },
            ),
          100,
        );
        expect(lines.some((l) => l.includes('storage: recovered'))).toBe(true);
        expect(lines.filter((l) => l.includes('initial sync from'))).toEqual([]);
      });
    });
  });
}

export function memberFellOffTheOplog(): void {
  describe('D2: a member that fell off the oplog', () => {
    cleanUp();

    it('resyncs a member that fell off the oplog of every sync source', async () => {
      const running = await startSet({ memberArgs: ['--oplogMaxEntries', '20'] });
      await withClient(running.uri, async (client) => {
        const coll = client.db('d2').collection<{ _id: string }>('docs');
        await coll.insertOne({ _id: 'before' }, { writeConcern: { w: 3 } });
        const lines = await restartASecondary(
          running,
          async () => {
            for (let i = 0; i < 60; i++)
              await coll.insertOne({ _id: `during-${i}` }, { writeConcern: { w: 'majority' } });
          },
          61,
        );
        expect(lines.some((l) => l.includes('too stale'))).toBe(true);
        expect(lines.some((l) => l.includes('initial sync from'))).toBe(true);
      });
    });
  });
}

export function launcherBringsTheSetBack(): void {
  describe('mongo-emulator --nodes 3 --dbpath DIR, run again', () => {
    it('brings the set back with its data and config, without a new replSetInitiate', async () => {
      const root = mkdtempSync(join(tmpdir(), 'emulator-launcher-'));
      try {
        const first = await launchSet(['--dbpath', root]);
        let replicaSetId: unknown;
        try {
          const client = new MongoClient(first.uri);
          // This test is about the restart, not the first term: a write that met an election
          // (11602 after the driver's one retry; seen once in a CI run at load 5, cause not yet
          // found; the stability test holds one term for 60 s) is sent again, as an application would.
          const docs = client.db('kept').collection<{ _id: string }>('docs');
          for (let attempt = 1; ; attempt++) {
            try {
              await docs.replaceOne({ _id: 'before the restart' }, { _id: 'before the restart' }, { upsert: true });
              break;
            } catch (error) {
              if (attempt >= 5 || !(error instanceof MongoServerError) || error.code !== 11602) throw error;
            }
          }
          replicaSetId = (await client.db('admin').command({ replSetGetConfig: 1 })).config.settings.replicaSetId;
          await client.close();
        } finally {
          await first.stop();
        }
        const second = await launchSet(['--dbpath', root]);
        try {
          expect(second.uri).toBe(first.uri);
          const client = new MongoClient(second.uri);
          expect(await client.db('kept').collection('docs').findOne({})).toEqual({ _id: 'before the restart' });
          // A new initiate would have made a new set (another replicaSetId).
          expect((await client.db('admin').command({ replSetGetConfig: 1 })).config.settings.replicaSetId).toEqual(
            replicaSetId,
          );
          await client.close();
        } finally {
          await second.stop();
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
}
