// A process that dies in the middle of a transaction leaves it open until the server's lifetime
// limit. mongod lets another client find it ($currentOp's idle sessions, with the appName of the
// client that ran its last statement) and end it (killSessions), which releases its writes at
// once. This file proves the emulator does both as mongod does, through the driver.
import { MongoClient, type Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../driver/emulatorFixture.ts';

const fixture = useEmulator();
const DB = 'kill_sessions';

async function idleSessions(client: MongoClient, stage: Document = {}): Promise<Document[]> {
  return client
    .db('admin')
    .aggregate([{ $currentOp: stage }, { $match: { type: 'idleSession' } }])
    .toArray();
}

/** A client named `appName` that leaves a transaction open on `{ _id }` of `coll`, then is dropped without ending it. */
async function openTransaction(appName: string, coll: string, _id: number) {
  const client = await fixture.newClient({ appName });
  const session = client.startSession();
  session.startTransaction();
  await client
    .db(DB)
    .collection<{ _id: number }>(coll)
    .updateOne({ _id }, { $inc: { n: 1 } }, { session });
  return { client, session };
}

describe('idle transactions: $currentOp and killSessions', () => {
  it("lists an open transaction between statements as an idle session, with its lsid and its last client's appName", async () => {
    await fixture.client.db(DB).collection<{ _id: number; n: number }>('listed').insertOne({ _id: 1, n: 0 });
    const { session } = await openTransaction('proc-a', 'listed', 1);
    const listed = (await idleSessions(fixture.client)).filter((op) => op['appName'] === 'proc-a');
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      type: 'idleSession',
      desc: 'inactive transaction',
      active: false,
      lsid: { id: session.id!.id },
      transaction: { parameters: { txnNumber: 1, autocommit: false } },
    });
    expect(Number(listed[0]!['transaction'].timeOpenMicros)).toBeGreaterThanOrEqual(0);
    expect(
      Date.parse(listed[0]!['transaction'].expiryTime) - Date.parse(listed[0]!['transaction'].startWallClockTime),
    ).toBe(60_000);
    // idleSessions: false leaves them out, as on mongod.
    expect(
      (await idleSessions(fixture.client, { idleSessions: false })).filter((op) => op['appName'] === 'proc-a'),
    ).toEqual([]);
    await session.abortTransaction();
    expect((await idleSessions(fixture.client)).filter((op) => op['appName'] === 'proc-a')).toEqual([]);
  });

  it("ends the named session's transaction: a write waiting on its document goes through at once, its own commit is NoSuchTransaction", async () => {
    const accounts = fixture.client.db(DB).collection<{ _id: number; n: number }>('accounts');
    await accounts.insertOne({ _id: 1, n: 0 });
    const { session } = await openTransaction('proc-dead', 'accounts', 1);
    // Another client's write on the same document waits for the open transaction.
    const before = (await fixture.client.db('admin').command({ serverStatus: 1 })).metrics.operation.writeConflicts;
    const waiting = accounts.updateOne({ _id: 1 }, { $inc: { n: 10 } });
    await expect
      .poll(
        async () => (await fixture.client.db('admin').command({ serverStatus: 1 })).metrics.operation.writeConflicts,
      )
      .toBeGreaterThan(before);
    const [orphan] = (await idleSessions(fixture.client)).filter((op) => op['appName'] === 'proc-dead');
    expect(await fixture.client.db('admin').command({ killSessions: [orphan!['lsid']] })).toMatchObject({ ok: 1 });
    expect(await waiting).toMatchObject({ modifiedCount: 1 });
    expect(await accounts.findOne({ _id: 1 })).toEqual({ _id: 1, n: 10 });
    await expect(session.commitTransaction()).rejects.toMatchObject({ code: 251, codeName: 'NoSuchTransaction' });
  });

  it('kills only the sessions named; [] kills every session of the caller (no users here: all)', async () => {
    await fixture.client
      .db(DB)
      .collection<{ _id: number }>('many')
      .insertMany([{ _id: 1 }, { _id: 2 }]);
    const a = await openTransaction('proc-1', 'many', 1);
    const b = await openTransaction('proc-2', 'many', 2);
    await fixture.client.db('admin').command({ killSessions: [{ id: a.session.id!.id }] });
    const left = (await idleSessions(fixture.client)).map((op) => op['appName']);
    expect(left).toContain('proc-2');
    expect(left).not.toContain('proc-1');
    await fixture.client.db(DB).command({ killSessions: [] });
    expect((await idleSessions(fixture.client)).map((op) => op['appName'])).not.toContain('proc-2');
    await expect(b.session.commitTransaction()).rejects.toMatchObject({ codeName: 'NoSuchTransaction' });
  });

  it("refuses malformed lsids with mongod's codes", async () => {
    const admin = fixture.client.db('admin');
    await expect(admin.command({ killSessions: 1 })).rejects.toMatchObject({ code: 14 });
    await expect(admin.command({ killSessions: [{}] })).rejects.toMatchObject({ code: 40414 });
    await expect(admin.command({ killSessions: [{ id: 'x' }] })).rejects.toMatchObject({ code: 40414 });
    await expect(
      admin.command({ killSessions: [{ id: new MongoClient('mongodb://x').startSession().id!.id, extra: 1 }] }),
    ).rejects.toMatchObject({ code: 40415 });
  });
});
