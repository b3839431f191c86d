// Proves engine resolution: the override and MONGODB_URI win; without them a mongod binary is
// used only when one can be had, and an offline download probe gives up within its timeout and
// falls back to the emulator, saying why.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DryMongoBinary } from 'mongodb-memory-server';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { chooseEngine, emulatorDbpath, resolveEngine, type EngineConfig } from '../../src/db/engine.ts';

const URI = 'mongodb://db.example:27017/?replicaSet=rs0';

function engineConfig(overrides: Partial<EngineConfig> = {}): EngineConfig {
  return {
    mongodbUri: undefined,
    mongoEngine: undefined,
    mongodSystemBinary: undefined,
    mongodDownloadUrl: undefined,
    limits: { mongodDownloadProbeTimeoutMs: 300 },
    ...overrides,
  };
}

async function listening(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

// A cached binary on this machine would rightly win over the download probe.
const cachedMongod = await DryMongoBinary.locateBinary(await DryMongoBinary.generateOptions()).catch(() => undefined);

describe('chooseEngine', () => {
  it('obeys MONGO_ENGINE over everything else', async () => {
    expect(await chooseEngine(engineConfig({ mongoEngine: 'emulator', mongodbUri: URI }))).toEqual({
      kind: 'emulator',
      reason: 'MONGO_ENGINE=emulator',
    });
  });

  it('uses MONGODB_URI when set', async () => {
    expect(await chooseEngine(engineConfig({ mongodbUri: URI }))).toEqual({
      kind: 'uri',
      reason: 'MONGODB_URI is set',
    });
  });

  it('uses mongod from MONGOMS_SYSTEM_BINARY when the file exists', async () => {
    expect(await chooseEngine(engineConfig({ mongodSystemBinary: process.execPath }))).toEqual({
      kind: 'memory-server',
      reason: `no MONGODB_URI; MONGOMS_SYSTEM_BINARY=${process.execPath}`,
    });
  });

  it('falls back to the emulator when MONGOMS_SYSTEM_BINARY does not exist', async () => {
    const choice = await chooseEngine(engineConfig({ mongodSystemBinary: '/nonexistent/mongod' }));
    expect(choice.kind).toBe('emulator');
    expect(choice.reason).toContain('MONGOMS_SYSTEM_BINARY=/nonexistent/mongod does not exist');
  });

  it('gives up on a download host that does not answer within the probe timeout', async () => {
    const blackHole = createTcpServer(() => undefined); // accepts, never answers
    const port = await listening(blackHole);
    try {
      // No clock in the test: the reason says the probe's timeout signal ended it (TimeoutError,
      // not a refused connection), and a probe that never gave up would fail on the test's timeout.
      const choice = await chooseEngine(engineConfig({ mongodDownloadUrl: `http://127.0.0.1:${port}` }));
      if (cachedMongod) {
        expect(choice.kind).toBe('memory-server');
      } else {
        expect(choice.kind).toBe('emulator');
        expect(choice.reason).toContain(`127.0.0.1:${port} unreachable within 300ms: TimeoutError`);
      }
    } finally {
      blackHole.close();
    }
  });

  it('chooses mongodb-memory-server when the download host answers', async () => {
    const mirror = createHttpServer((_req, res) => res.end());
    const port = await listening(mirror);
    try {
      const choice = await chooseEngine(engineConfig({ mongodDownloadUrl: `http://127.0.0.1:${port}` }));
      expect(choice.kind).toBe('memory-server');
      if (!cachedMongod)
        expect(choice.reason).toBe(`no MONGODB_URI; no cached mongod, downloading from 127.0.0.1:${port}`);
    } finally {
      mirror.close();
    }
  });
});

describe('resolveEngine', () => {
  it('starts the emulator as a replica set the driver accepts, and stops it', async () => {
    const engine = await resolveEngine(engineConfig({ mongoEngine: 'emulator' }));
    const client = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 2_000 });
    try {
      const hello = await client.db('admin').command({ hello: 1 });
      expect(hello['setName']).toBe('rs0');
      expect(hello['isWritablePrimary']).toBe(true);
    } finally {
      await client.close();
      await engine.stop();
    }
    const after = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 300 });
    await expect(after.db('admin').command({ ping: 1 })).rejects.toThrow();
    await after.close();
  });

  it("keeps the embedded default's data in DATA_DIR/db across a restart (npm start), and the tests' in memory", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'precondition-data-'));
    // No mongod can be had: the emulator is the automatic choice, as on an offline machine.
    const config = engineConfig({ mongodSystemBinary: '/nonexistent/mongod', dataDir, nodeEnv: 'development' });
    try {
      const first = await resolveEngine(config);
      expect(first.kind).toBe('emulator');
      expect(first.reason).toContain(`its data is kept in ${join(dataDir, 'db')}`);
      const client = new MongoClient(first.uri);
      await client.db('kept').collection<{ _id: string }>('money').insertOne({ _id: 'tour-alice' });
      await client.close();
      await first.stop();
      const second = await resolveEngine(config);
      const again = new MongoClient(second.uri);
      try {
        expect(await again.db('kept').collection('money').findOne({})).toEqual({ _id: 'tour-alice' });
      } finally {
        await again.close();
        await second.stop();
      }
      // The test suite's engine (NODE_ENV=test) and an explicit MONGO_ENGINE stay in memory.
      expect(emulatorDbpath({ ...config, nodeEnv: 'test' })).toBeUndefined();
      expect(emulatorDbpath({ ...config, mongoEngine: 'emulator' })).toBeUndefined();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('starts nothing for a URI', async () => {
    const engine = await resolveEngine(engineConfig({ mongodbUri: URI }));
    expect(engine).toMatchObject({ kind: 'uri', uri: URI });
    await engine.stop();
  });
});
