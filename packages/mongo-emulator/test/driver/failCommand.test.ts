// Proves the failCommand fail point acts as on mongod with test commands: before the command
// (error, close, block) or after the write (writeConcernError), with times/skip/appName.
import { afterEach, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator({ retryWrites: false, retryReads: false });
const admin = () => fixture.client.db('admin');
const coll = () => fixture.client.db('fp').collection('c');

function failCommand(mode: unknown, data: Record<string, unknown>) {
  return admin().command({ configureFailPoint: 'failCommand', mode, data });
}

afterEach(async () => {
  await admin().command({ configureFailPoint: 'failCommand', mode: 'off' });
});

describe('failCommand', () => {
  it('fails the next n matching commands with errorCode, before they apply', async () => {
    await failCommand({ times: 2 }, { failCommands: ['insert'], errorCode: 2 });
    await expect(coll().findOne({})).resolves.toBeNull(); // not listed: untouched, times not used
    for (let i = 0; i < 2; i++) {
      await expect(coll().insertOne({ k: 'times' })).rejects.toMatchObject({
        code: 2,
        codeName: 'BadValue',
        message: "Failing command via 'failCommand' failpoint",
      });
    }
    await coll().insertOne({ k: 'times' });
    expect((await coll().find({ k: 'times' }).toArray()).length).toBe(1);
  });

  it('skips the first n matches, then fails every one', async () => {
    await failCommand({ skip: 1 }, { failCommands: ['count'], errorCode: 11600 });
    await expect(fixture.client.db('fp').command({ count: 'c' })).resolves.toMatchObject({ ok: 1 });
    await expect(fixture.client.db('fp').command({ count: 'c' })).rejects.toMatchObject({
      code: 11600,
      codeName: 'InterruptedAtShutdown',
    });
    await expect(fixture.client.db('fp').command({ count: 'c' })).rejects.toMatchObject({ code: 11600 });
  });

  it('labels a retryable error on a retryable write RetryableWriteError, unless errorLabels are given', async () => {
    await failCommand({ times: 1 }, { failCommands: ['insert'], errorCode: 91 });
    const session = fixture.client.startSession();
    try {
      const labelled = await fixture.client
        .db('fp')
        .command({ insert: 'c', documents: [{ k: 'label' }], txnNumber: 1n }, { session })
        .catch((e: unknown) => e);
      expect(labelled).toMatchObject({ code: 91, errorResponse: { errorLabels: ['RetryableWriteError'] } });
      await failCommand({ times: 1 }, { failCommands: ['insert'], errorCode: 91, errorLabels: [] });
      const unlabelled = await fixture.client
        .db('fp')
        .command({ insert: 'c', documents: [{ k: 'label' }], txnNumber: 2n }, { session })
        .catch((e: unknown) => e);
      expect(unlabelled).toMatchObject({ code: 91, errorResponse: { errorLabels: [] } });
    } finally {
      await session.endSession();
    }
  });

  it('attaches writeConcernError after the write was applied', async () => {
    await failCommand(
      { times: 1 },
      {
        failCommands: ['insert'],
        writeConcernError: { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out' },
      },
    );
    await expect(coll().insertOne({ k: 'wce' })).rejects.toMatchObject({ code: 64 });
    expect((await coll().find({ k: 'wce' }).toArray()).length).toBe(1);
  });

  it("puts the member's topologyVersion on a not-primary error or writeConcernError, not on a shutdown error (mongod's appendErrorLabelsAndTopologyVersion)", async () => {
    const { topologyVersion } = await admin().command({ hello: 1 });
    const replyOf = (error: unknown) => (error as { errorResponse: Record<string, unknown> }).errorResponse;
    for (const code of [10107, 11602, 13435, 13436, 189]) {
      await failCommand({ times: 1 }, { failCommands: ['find'], errorCode: code });
      const error = await coll()
        .findOne({})
        .catch((e: unknown) => e);
      expect(replyOf(error)).toMatchObject({ code, topologyVersion });
    }
    await failCommand(
      { times: 1 },
      { failCommands: ['insert'], writeConcernError: { code: 11602, errmsg: 'stepped down' } },
    );
    const concern = await coll()
      .insertOne({ k: 'tv' })
      .catch((e: unknown) => e);
    expect(replyOf(concern)).toMatchObject({ writeConcernError: { code: 11602 }, topologyVersion });
    for (const code of [91, 11600, 2]) {
      await failCommand({ times: 1 }, { failCommands: ['find'], errorCode: code });
      const error = await coll()
        .findOne({})
        .catch((e: unknown) => e);
      expect(replyOf(error)).toMatchObject({ code });
      expect(replyOf(error)).not.toHaveProperty('topologyVersion');
    }
  });

  it('leaves the server selectable after a not-primary error on a primary whose topology did not change', async () => {
    const client = await fixture.newClient({ retryReads: false, heartbeatFrequencyMS: 60_000 });
    const events: string[] = [];
    client.on('serverDescriptionChanged', (event) => events.push(event.newDescription.type));
    await client.db('fp').collection('selectable').findOne({});
    await failCommand({ times: 1 }, { failCommands: ['find'], errorCode: 10107 });
    await expect(client.db('fp').collection('selectable').findOne({})).rejects.toMatchObject({ code: 10107 });
    // The error's topologyVersion is the one the driver holds: stale for SDAM, so no Unknown, and the
    // next read needs no new hello (the monitor's next one is a minute away).
    await expect(client.db('fp').collection('selectable').findOne({}, { timeoutMS: 2_000 })).resolves.toBeNull();
    expect(events).not.toContain('Unknown');
  });

  it('closes the connection without applying the command', async () => {
    await failCommand({ times: 1 }, { failCommands: ['insert'], closeConnection: true });
    await expect(coll().insertOne({ k: 'closed' })).rejects.toThrow(/closed|connection/i);
    expect((await coll().find({ k: 'closed' }).toArray()).length).toBe(0);
  });

  it('blocks the connection for blockTimeMS before running the command', async () => {
    // Seen, not timed: configureFailPoint answers how often the fail point fired, so the test
    // knows the insert is held, and checks that it has not run; then it runs once released.
    const data = { failCommands: ['insert'], blockConnection: true, blockTimeMS: 3_000, appName: 'blocked' };
    await failCommand({ times: 1 }, data);
    const blocked = await fixture.newClient({ appName: 'blocked', retryWrites: false });
    let settled = false;
    const insert = blocked
      .db('fp')
      .collection('c')
      .insertOne({ k: 'blocked' })
      .finally(() => {
        settled = true;
      });
    // Re-sending the same configuration reads the count and re-arms the same single block, which
    // nothing else matches (only this client has the appName, and it sends nothing else).
    const fired = async () => Number((await failCommand({ times: 1 }, data)).count);
    await expect.poll(fired, { timeout: 10_000 }).toBe(1);
    expect(settled).toBe(false);
    expect(await coll().countDocuments({ k: 'blocked' })).toBe(0);
    await insert;
    expect(await coll().countDocuments({ k: 'blocked' })).toBe(1);
  });

  it('only fails commands from the named appName', async () => {
    await coll().insertOne({ _id: 'appName' as never, k: 'seen' });
    await failCommand({ times: 1 }, { failCommands: ['find'], errorCode: 2, appName: 'victim' });
    // Another client's find reads the document (a null or an error would both be red).
    await expect(coll().findOne({ _id: 'appName' as never })).resolves.toEqual({ _id: 'appName', k: 'seen' });
    const victim = await fixture.newClient({ appName: 'victim', retryReads: false });
    await expect(victim.db('fp').collection('c').findOne({})).rejects.toMatchObject({ code: 2 });
  });

  it("matches a connection's appName on its handshake hello already, as mongod preloads the metadata", async () => {
    await failCommand({ times: 1 }, { failCommands: ['hello', 'isMaster'], errorCode: 91, appName: 'handshake' });
    // Polling, one heartbeat a minute: the only hellos before connect() resolves are handshakes.
    const client = new MongoClient(fixture.emulator.uri, {
      appName: 'handshake',
      serverMonitoringMode: 'poll',
      heartbeatFrequencyMS: 60_000,
    });
    const failedCodes: unknown[] = [];
    client.on('serverHeartbeatFailed', (event) => failedCodes.push((event.failure as { code?: unknown }).code));
    try {
      await client.connect();
      expect(failedCodes).toEqual([91]);
    } finally {
      await client.close();
    }
  });

  it('is refused outside admin, and never fails configureFailPoint itself', async () => {
    await expect(
      fixture.client.db('fp').command({ configureFailPoint: 'failCommand', mode: 'off' }),
    ).rejects.toMatchObject({
      code: 13,
      codeName: 'Unauthorized',
    });
    await failCommand('alwaysOn', { failCommands: ['configureFailPoint', 'ping'], errorCode: 2 });
    await expect(admin().command({ ping: 1 })).rejects.toMatchObject({ code: 2 });
    const off = await admin().command({ configureFailPoint: 'failCommand', mode: 'off' });
    expect(off.count).toBe(1);
  });

  it('refuses an unknown fail point', async () => {
    await expect(admin().command({ configureFailPoint: 'noSuchFailPoint', mode: 'alwaysOn' })).rejects.toMatchObject({
      code: 2,
    });
  });
});

describe('failCommand with retryable writes', () => {
  it('applies a write retried after closeConnection exactly once', async () => {
    const client = await fixture.newClient({ retryWrites: true });
    await failCommand({ times: 1 }, { failCommands: ['insert'], closeConnection: true });
    const result = await client.db('fp').collection('retry').insertOne({ k: 'once' });
    expect(result.acknowledged).toBe(true);
    expect((await client.db('fp').collection('retry').find({ k: 'once' }).toArray()).length).toBe(1);
  });

  it('returns the first result when a write applied before a lost reply is retried', async () => {
    const client: MongoClient = await fixture.newClient({ retryWrites: true });
    const accounts = client.db('fp').collection('accounts');
    await accounts.insertOne({ _id: 'a', balance: 10 } as never);
    // The write applies, then its reply carries a retryable writeConcernError: the driver retries.
    await failCommand(
      { times: 1 },
      {
        failCommands: ['update'],
        writeConcernError: { code: 91, codeName: 'ShutdownInProgress', errmsg: 'shutting down' },
      },
    );
    const result = await accounts.updateOne({ _id: 'a' } as never, { $inc: { balance: -3 } });
    expect(result.modifiedCount).toBe(1);
    expect(await accounts.findOne({ _id: 'a' } as never)).toMatchObject({ balance: 7 });
  });
});
