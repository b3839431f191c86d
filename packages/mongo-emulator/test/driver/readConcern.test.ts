// Proves read concern is checked as on mongod: every level is accepted, an unknown one is
// BadValue, and afterClusterTime is honoured when it is not ahead of the node's cluster time
// (a causally consistent session reads its own write) and refused when it is.
import { Timestamp } from 'bson';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const db = () => fixture.client.db('rc');

describe('read concern', () => {
  it('accepts the five levels and refuses any other', async () => {
    for (const level of ['local', 'majority', 'linearizable', 'available']) {
      await expect(db().command({ find: 'c', readConcern: { level } })).resolves.toMatchObject({ ok: 1 });
    }
    await expect(db().command({ find: 'c', readConcern: { level: 'bogus' } })).rejects.toMatchObject({
      code: 2,
      message: "Enumeration value 'bogus' for field 'readConcern.level' is not a valid value.",
    });
  });

  it('reads its own write in a causally consistent session through afterClusterTime', async () => {
    const started: unknown[] = [];
    const listener = (event: { commandName: string; command: Record<string, unknown> }) => {
      if (event.commandName === 'find') started.push(event.command.readConcern);
    };
    const client = await fixture.newClient({ monitorCommands: true });
    client.on('commandStarted', listener);
    const clientSession = client.startSession({ causalConsistency: true });
    try {
      await client
        .db('rc')
        .collection('cc')
        .insertOne({ _id: 1 } as never, { session: clientSession });
      expect(
        await client
          .db('rc')
          .collection('cc')
          .findOne({ _id: 1 } as never, { session: clientSession }),
      ).toEqual({ _id: 1 });
      expect(started).toHaveLength(1);
      expect(started[0]).toMatchObject({ afterClusterTime: { _bsontype: 'Timestamp' } });
    } finally {
      await clientSession.endSession();
    }
  });

  it('refuses an afterClusterTime ahead of the cluster time, and with linearizable', async () => {
    const future = new Timestamp({ t: 4_000_000_000, i: 1 });
    await expect(
      db().command({ find: 'c', readConcern: { level: 'majority', afterClusterTime: future } }),
    ).rejects.toMatchObject({
      code: 72,
      message: expect.stringMatching(
        /^readConcern afterClusterTime value must not be greater than the current clusterTime/,
      ),
    });
    const past = new Timestamp({ t: 1, i: 1 });
    await expect(
      db().command({ find: 'c', readConcern: { level: 'linearizable', afterClusterTime: past } }),
    ).rejects.toMatchObject({ code: 72 });
  });
});
