// Proves the administrative and diagnostic commands answer in mongod's shapes.
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const admin = () => fixture.client.db('admin');

describe('admin commands', () => {
  it('reports one PRIMARY member in replSetGetStatus, only on admin', async () => {
    const status = await admin().command({ replSetGetStatus: 1 });
    expect(status).toMatchObject({ set: 'rs0', myState: 1 });
    expect(status.members).toHaveLength(1);
    expect(status.members[0]).toMatchObject({ stateStr: 'PRIMARY', self: true, health: 1 });
    expect(status.optimes.appliedOpTime.ts._bsontype).toBe('Timestamp');
    await expect(fixture.client.db('other').command({ replSetGetStatus: 1 })).rejects.toMatchObject({ code: 13 });
  });

  it('counts connections and operations in serverStatus', async () => {
    await fixture.client.db('adm').collection('c').insertOne({});
    const status = await admin().command({ serverStatus: 1 });
    expect(status.connections.current).toBeGreaterThanOrEqual(1);
    expect(status.opcounters.insert).toBeGreaterThanOrEqual(1);
    expect(typeof status.uptime).toBe('number');
  });

  it("reports its memory in serverStatus's mem (MiB, as mongod) and its process's heap, handles and event-loop delay", async () => {
    const status = await admin().command({ serverStatus: 1 });
    expect(status.mem).toMatchObject({ bits: 64, supported: true });
    expect(status.mem.resident).toBeGreaterThan(10);
    expect(status.mem.resident).toBeLessThan(1_000_000);
    expect(Number(status.emulatorProcess.heapUsedBytes)).toBeGreaterThan(1_000_000);
    expect(status.emulatorProcess.activeHandles).toBeGreaterThan(0);
    expect(status.emulatorProcess.eventLoopDelayP99Ms).toBeGreaterThanOrEqual(0);
  });

  it("counts each command run and failed in serverStatus's metrics.commands, as mongod does", async () => {
    const before = (await admin().command({ serverStatus: 1 })).metrics.commands;
    const collection = fixture.client.db('adm').collection('counted');
    await collection.insertOne({ _id: 1 } as never);
    await collection.insertOne({ _id: 2 } as never);
    await expect(collection.insertOne({ _id: 1 } as never)).rejects.toMatchObject({ code: 11000 });
    await expect(fixture.client.db('adm').command({ find: 'counted', filter: { $bogus: 1 } })).rejects.toMatchObject({
      code: 2,
    });
    const after = (await admin().command({ serverStatus: 1 })).metrics.commands;
    const grew = (name: string, field: 'total' | 'failed') =>
      Number(after[name]?.[field] ?? 0) - Number(before[name]?.[field] ?? 0);
    // A duplicate key is a write error in an ok reply: the command itself did not fail.
    expect([grew('insert', 'total'), grew('insert', 'failed')]).toEqual([3, 0]);
    expect([grew('find', 'total'), grew('find', 'failed')]).toEqual([1, 1]);
    expect(after['serverStatus'].total).toBeGreaterThanOrEqual(2);
  });

  it('ends and kills sessions', async () => {
    const session = fixture.client.startSession();
    await fixture.client.db('adm').collection('c').findOne({}, { session });
    await session.endSession();
    await expect(admin().command({ endSessions: [session.id] })).resolves.toMatchObject({ ok: 1 });
    await expect(admin().command({ killAllSessions: [] })).resolves.toMatchObject({ ok: 1 });
  });

  it('answers the diagnostic commands', async () => {
    expect((await admin().command({ connectionStatus: 1 })).authInfo.authenticatedUsers).toEqual([]);
    expect((await admin().command({ hostInfo: 1 })).system.numCores).toBeGreaterThan(0);
    expect((await admin().command({ whatsmyuri: 1 })).you).toMatch(/:\d+$/);
    expect((await admin().command({ getCmdLineOpts: 1 })).parsed.replication.replSet).toBe('rs0');
    expect((await admin().command({ currentOp: 1 })).inprog).toEqual([]);
    expect(
      (await admin().command({ getParameter: 1, featureCompatibilityVersion: 1 })).featureCompatibilityVersion.version,
    ).toBe('7.0');
  });

  it('refuses deliberately unsupported commands with CommandNotSupported', async () => {
    await expect(admin().command({ mapReduce: 'c', map: 'x', reduce: 'y' })).rejects.toMatchObject({
      code: 115,
      codeName: 'CommandNotSupported',
    });
  });
});
