// @module-tag failpoints
// Proves the fail-point probe skips only where a real server refuses configureFailPoint, says
// why, and never skips on the engines that must accept (the emulator, the memory server).
import { MongoClient, MongoServerError, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failCommand, failPointsRefusal, skipIfFailPointsRefused, type AdminCommands } from '../support/failPoints.ts';
import { connectTestDb, testMongoEngine, testMongoUri, type TestDb, useOwnEngine } from '../support/mongo.ts';

// Its fail points on an engine of its own, never waiting on another file's (test/support/mongo.ts).
useOwnEngine();

/** A server that answers configureFailPoint with `error`, as one without test commands does. */
function refusing(error: Error): AdminCommands {
  return { db: () => ({ command: async (_command: Document) => Promise.reject(error) }) };
}

const notFound = new MongoServerError({
  ok: 0,
  code: 59,
  codeName: 'CommandNotFound',
  errmsg: "no such command: 'configureFailPoint'",
});

describe('fail-point probe', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('fail_point_probe');
  });
  afterAll(async () => {
    await test?.close();
  });

  it('finds fail points on the engine under test, and lets a fail-point test run', async (context) => {
    await skipIfFailPointsRefused(context, test.client);
    if (testMongoEngine().kind !== 'uri') expect(await failPointsRefusal(test.client)).toBeUndefined();
  });

  it('gives the reason to skip when a server at MONGODB_URI refuses them', async () => {
    expect(await failPointsRefusal(refusing(notFound), 'uri')).toMatch(
      /refuses configureFailPoint \(CommandNotFound: no such command/,
    );
    const unauthorized = new MongoServerError({
      ok: 0,
      code: 13,
      codeName: 'Unauthorized',
      errmsg: 'not authorized on admin',
    });
    expect(await failPointsRefusal(refusing(unauthorized), 'uri')).toContain('Unauthorized');
  });

  it('never skips on the emulator or the memory server: a refusal there fails the test', async () => {
    await expect(failPointsRefusal(refusing(notFound), 'emulator')).rejects.toBe(notFound);
    await expect(failPointsRefusal(refusing(notFound), 'memory-server')).rejects.toBe(notFound);
  });

  it('fails on any other error instead of skipping', async () => {
    const network = new Error('connection reset');
    await expect(failPointsRefusal(refusing(network), 'uri')).rejects.toBe(network);
    const badValue = new MongoServerError({ ok: 0, code: 2, codeName: 'BadValue', errmsg: 'bad mode' });
    await expect(failPointsRefusal(refusing(badValue), 'uri')).rejects.toBe(badValue);
  });
});

// failCommand is one fail point per server: a second configureFailPoint replaces the first. Files
// run in parallel on the shared engine, so the helper holds the engine's fail-point lock while a
// fault is set: another file's fault waits for it to be turned off instead of replacing it.
describe('fail points of files running at the same time', () => {
  const clients: MongoClient[] = [];
  const named = async (appName: string) => {
    const client = new MongoClient(testMongoUri(), { appName, retryReads: false });
    clients.push(client);
    await client.connect();
    return client;
  };
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });

  it("never replace each other: the second waits until the first is off, and each fails only its own client's commands", async (context) => {
    const first = await named('failPointsFirst');
    await skipIfFailPointsRefused(context, first);
    const second = await named('failPointsSecond');
    const ping = (client: MongoClient) =>
      client
        .db('admin')
        .command({ ping: 1 })
        .then(
          () => 'ok',
          (error: Error) => `failed: ${error.message}`,
        );
    // Two holders stand for two files (two worker processes); within one holder a fault may be set again.
    const offFirst = await failCommand(
      first,
      'failPointsFirst',
      'alwaysOn',
      { failCommands: ['ping'], errorCode: 8 },
      { holder: 'first file' },
    );
    const offFirstAgain = await failCommand(
      first,
      'failPointsFirst',
      'alwaysOn',
      { failCommands: ['ping'], errorCode: 8 },
      { holder: 'first file' },
    );
    let secondSet = false;
    const settingSecond = failCommand(
      second,
      'failPointsSecond',
      'alwaysOn',
      { failCommands: ['ping'], errorCode: 8 },
      { holder: 'second file' },
    ).then((off) => {
      secondSet = true;
      return off;
    });
    try {
      // The second file asks while the first one's fault is on: it waits, the first fault stays.
      for (let i = 0; i < 5; i += 1) {
        expect(await ping(first)).toMatch(/^failed/);
        expect(await ping(second)).toBe('ok');
      }
      expect(secondSet).toBe(false);
    } finally {
      await offFirstAgain();
      await offFirst();
    }
    const offSecond = await settingSecond;
    try {
      expect(await ping(first)).toBe('ok');
      expect(await ping(second)).toMatch(/^failed/);
    } finally {
      await offSecond();
    }
    expect(await ping(second)).toBe('ok');
  });
});
