// Proves the official driver discovers the emulator as the writable primary of a one-node
// replica set at wire version 21, with sessions enabled and logical time on every reply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient, type TopologyDescription } from 'mongodb';
import { startEmulator, type RunningEmulator } from '../../src/index.ts';

let emulator: RunningEmulator;
let client: MongoClient;
let topology: TopologyDescription | undefined;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, replSetName: 'rs0' });
  client = new MongoClient(emulator.uri, { heartbeatFrequencyMS: 500, appName: 'handshake-test' });
  client.on('topologyDescriptionChanged', (event) => {
    topology = event.newDescription;
  });
  await client.connect();
});

afterAll(async () => {
  await client?.close();
  await emulator?.stop();
});

describe('handshake', () => {
  it('is discovered as the RSPrimary of its replica set', () => {
    const servers = [...topology!.servers.values()];
    expect(topology!.type).toBe('ReplicaSetWithPrimary');
    expect(servers).toHaveLength(1);
    expect(servers[0]!.type).toBe('RSPrimary');
    expect(servers[0]!.setName).toBe('rs0');
    expect(servers[0]!.maxWireVersion).toBe(21);
    expect(servers[0]!.logicalSessionTimeoutMinutes).toBe(30);
  });

  it('answers hello as mongod 7.0 does for a one-node primary', async () => {
    const hello = await client.db('admin').command({ hello: 1 });
    expect(hello).toMatchObject({
      ok: 1,
      isWritablePrimary: true,
      secondary: false,
      setName: 'rs0',
      hosts: [`127.0.0.1:${emulator.port}`],
      primary: `127.0.0.1:${emulator.port}`,
      me: `127.0.0.1:${emulator.port}`,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      minWireVersion: 0,
      maxWireVersion: 21,
      readOnly: false,
    });
    expect(hello.topologyVersion.processId).toBeDefined();
    expect(typeof hello.connectionId).toBe('number');
    expect(hello.ismaster).toBeUndefined();
  });

  it('answers the legacy isMaster spellings with ismaster and helloOk when asked', async () => {
    for (const name of ['isMaster', 'ismaster']) {
      const reply = await client.db('admin').command({ [name]: 1, helloOk: true });
      expect(reply).toMatchObject({ ok: 1, ismaster: true, helloOk: true });
    }
  });

  it('puts $clusterTime and operationTime on every reply', async () => {
    const reply = await client.db('admin').command({ ping: 1 });
    expect(reply.ok).toBe(1);
    expect(reply.$clusterTime.clusterTime._bsontype).toBe('Timestamp');
    expect(reply.$clusterTime.signature.hash.buffer.length).toBe(20);
    expect(reply.operationTime._bsontype).toBe('Timestamp');
  });

  it('keeps the streaming monitor alive across several awaited heartbeats', async () => {
    const succeeded: boolean[] = [];
    const onBeat = (event: { awaited: boolean }) => succeeded.push(event.awaited);
    client.on('serverHeartbeatSucceeded', onBeat);
    await expect.poll(() => succeeded.filter(Boolean).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    client.off('serverHeartbeatSucceeded', onBeat);
    expect((await client.db('admin').command({ ping: 1 })).ok).toBe(1);
  });

  it('answers an unknown command with CommandNotFound as mongod does', async () => {
    await expect(client.db('admin').command({ noSuchThing: 1 })).rejects.toMatchObject({
      code: 59,
      codeName: 'CommandNotFound',
      message: "no such command: 'noSuchThing'",
    });
  });

  it('treats command names case-sensitively', async () => {
    await expect(client.db('admin').command({ PING: 1 })).rejects.toMatchObject({ code: 59 });
  });

  it('reports buildInfo as 7.0', async () => {
    const info = await client.db('admin').command({ buildInfo: 1 });
    expect(info.version).toMatch(/^7\.0\./);
    expect(info.versionArray.slice(0, 2)).toEqual([7, 0]);
  });

  it('stop() closes open connections and resolves', async () => {
    const other = await startEmulator({ port: 0 });
    const otherClient = new MongoClient(other.uri, { serverSelectionTimeoutMS: 500 });
    await otherClient.connect();
    await other.stop();
    await expect(otherClient.db('admin').command({ ping: 1 })).rejects.toThrow();
    await otherClient.close();
  });
});
