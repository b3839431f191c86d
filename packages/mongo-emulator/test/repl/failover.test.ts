// @module-tag processes
// Failover as users meet it: an isolated primary's w:1 write is rolled back when it returns (and
// saved in a rollback file), a w:majority write never is; a change stream resumes across a
// killed primary with every event once, in order. One set per file.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize } from 'bson';
import { describe, expect, it } from 'vitest';
import {
  adminCommand,
  failPoint,
  idsOn,
  secondariesOf,
  setForFile,
  settledPrimary,
  type TestDoc,
  withDirectClient,
} from './replSetHelpers.ts';

const rs = setForFile({ monitorCommands: true });

describe('failover', () => {
  it("rolls back an isolated primary's w:1 write when it returns, never a w:majority one", async () => {
    const primary = await settledPrimary(rs.set);
    const secondaries = secondariesOf(rs.set, primary);
    const coll = rs.client.db('fo').collection<TestDoc>('rb');
    await coll.insertOne({ _id: 'majority' }, { writeConcern: { w: 'majority' } });
    for (const s of secondaries) await failPoint(s, 'stopReplProducer', 'alwaysOn');
    await coll.insertOne({ _id: 'w1', note: 'acknowledged by the isolated primary only' }, { writeConcern: { w: 1 } });
    primary.kill('SIGSTOP');
    try {
      for (const s of secondaries) await failPoint(s, 'stopReplProducer', 'off');
      const newPrimary = await settledPrimary(rs.set, primary);
      expect(newPrimary).not.toBe(primary);
      // Straight to the new primary: the set's client may still hold a request to the stopped one.
      await withDirectClient(newPrimary, (direct) =>
        direct
          .db('fo')
          .collection<TestDoc>('rb')
          .insertOne({ _id: 'after' }, { writeConcern: { w: 'majority' } }),
      );
    } finally {
      primary.kill('SIGCONT');
    }
    // The old primary steps down on the new term, finds its last entry missing on the new
    // primary, rolls back to the common point and follows.
    for (const member of rs.set.members)
      await expect.poll(() => idsOn(member, 'fo', 'rb'), { timeout: 20_000 }).toEqual(['after', 'majority']);
    const dir = join(primary.rollbackDir, 'fo.rb');
    const files = readdirSync(dir).filter((f) => /^removed\..+\.bson$/.test(f));
    expect(files).toHaveLength(1);
    expect(deserialize(readFileSync(join(dir, files[0]!)))).toEqual({
      _id: 'w1',
      note: 'acknowledged by the isolated primary only',
    });
    expect((await adminCommand(primary, { serverStatus: 1 })).repl.rbid).toBe(1);
  });

  it('reports only majority-committed events on a change stream', async () => {
    const primary = await settledPrimary(rs.set);
    const secondaries = secondariesOf(rs.set, primary);
    const coll = rs.client.db('fo').collection<TestDoc>('majority');
    const stream = coll.watch([], { maxAwaitTimeMS: 100 });
    try {
      await stream.tryNext();
      for (const s of secondaries) await failPoint(s, 'stopReplProducer', 'alwaysOn');
      await coll.insertOne({ _id: 'pending' }, { writeConcern: { w: 1 } });
      // Several empty getMores while the write is on the primary alone.
      for (let i = 0; i < 3; i++) expect(await stream.tryNext()).toBeNull();
      for (const s of secondaries) await failPoint(s, 'stopReplProducer', 'off');
      let event = await stream.tryNext();
      while (!event) event = await stream.tryNext();
      expect(event).toMatchObject({ operationType: 'insert', documentKey: { _id: 'pending' } });
    } finally {
      for (const s of secondaries) await failPoint(s, 'stopReplProducer', 'off');
      await stream.close();
    }
  });

  // A step-down, not a SIGKILL: after a SIGKILL the driver's resume first closes the old cursor on
  // the dead member, which waits 30 s in the driver (its killCursors), with mongod as with us.
  it('resumes a change stream across a step-down with every event once, in order (the demoted member fails the getMore resumably)', async () => {
    const coll = rs.client.db('fo').collection<TestDoc>('cs');
    const resumes: string[] = [];
    const onStarted = (event: { commandName: string; command: Record<string, unknown>; address: string }) => {
      const spec = (event.command.pipeline as Record<string, unknown>[] | undefined)?.[0]?.$changeStream as
        | Record<string, unknown>
        | undefined;
      if (event.commandName === 'aggregate' && spec?.resumeAfter) resumes.push(event.address);
    };
    rs.client.on('commandStarted', onStarted);
    const stream = coll.watch([], { maxAwaitTimeMS: 200 });
    try {
      await stream.tryNext();
      await coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
      const seen: unknown[] = [];
      while (seen.length < 3) {
        const event = await stream.tryNext();
        if (event && event.operationType === 'insert') seen.push(event.documentKey._id);
      }
      const primary = await settledPrimary(rs.set);
      await adminCommand(primary, { replSetStepDown: 10 });
      await coll.insertMany([{ _id: 4 }, { _id: 5 }, { _id: 6 }]);
      while (seen.length < 6) {
        const event = await stream.tryNext();
        if (event && event.operationType === 'insert') seen.push(event.documentKey._id);
      }
      expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
      const newPrimary = await settledPrimary(rs.set);
      expect(newPrimary).not.toBe(primary);
      // The driver resumed on the new primary: the demoted member failed the stream's getMore.
      expect(resumes).toEqual([newPrimary.address]);
    } finally {
      rs.client.off('commandStarted', onStarted);
      await stream.close();
    }
  });
});
