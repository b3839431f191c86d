import { afterAll, beforeAll } from 'vitest';
import { Long, MongoClient, type Document, type MongoClientOptions } from 'mongodb';
import { startEmulator, type RunningEmulator } from '../../src/index.ts';

export interface EmulatorFixture {
  emulator: RunningEmulator;
  client: MongoClient;
  /** A further client on the same emulator; closed with the fixture. */
  newClient(options?: MongoClientOptions): Promise<MongoClient>;
}

/**
 * Starts an emulator of this test file's own (port 0) with one connected client before the
 * tests and stops both after, so files never share state or leave processes behind.
 */
export function useEmulator(options: MongoClientOptions = {}): EmulatorFixture {
  const extraClients: MongoClient[] = [];
  const fixture = {} as EmulatorFixture;
  beforeAll(async () => {
    fixture.emulator = await startEmulator({ port: 0, replSetName: 'rs0' });
    fixture.newClient = async (clientOptions = {}) => {
      const client = new MongoClient(fixture.emulator.uri, { heartbeatFrequencyMS: 500, ...clientOptions });
      extraClients.push(client);
      await client.connect();
      return client;
    };
    fixture.client = await fixture.newClient(options);
  });
  afterAll(async () => {
    await Promise.all(extraClients.map((client) => client.close()));
    await fixture.emulator?.stop();
  });
  return fixture;
}

/**
 * A raw command reply's cursor id as an int64, ready to send back. The driver hands a reply's
 * int64 back as a JS number when it is a safe integer (promoteLongs), and a number goes out as a
 * double, which getMore refuses as mongod does ("BSON field 'getMore.getMore' is the wrong type"):
 * one random id in 1,024 is that small, so a test sending `reply.cursor.id` back fails that often.
 */
export function cursorIdOf(reply: Document): Long {
  return Long.fromValue((reply['cursor'] as { id: Long | number | bigint }).id as Long | number);
}
