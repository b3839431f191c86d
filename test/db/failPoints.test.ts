// Proves the fail-point probe skips only where a real server refuses configureFailPoint, says
// why, and never skips on the engines that must accept (the emulator, the memory server).
import { MongoServerError, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failPointsRefusal, skipIfFailPointsRefused, type AdminCommands } from '../support/failPoints.ts';
import { connectTestDb, testMongoEngine, type TestDb } from '../support/mongo.ts';

/** A server that answers configureFailPoint with `error`, as one without test commands does. */
function refusing(error: Error): AdminCommands {
  return { db: () => ({ command: async (_command: Document) => Promise.reject(error) }) };
}

const notFound = new MongoServerError({ ok: 0, code: 59, codeName: 'CommandNotFound', errmsg: "no such command: 'configureFailPoint'" });

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
    expect(await failPointsRefusal(refusing(notFound), 'uri')).toMatch(/refuses configureFailPoint \(CommandNotFound: no such command/);
    const unauthorized = new MongoServerError({ ok: 0, code: 13, codeName: 'Unauthorized', errmsg: 'not authorized on admin' });
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
