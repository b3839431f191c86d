// Engine resolution, in one place, for the server and the test suite alike:
//   MONGO_ENGINE (uri | memory-server | emulator) if set; else MONGODB_URI if set; else
//   mongodb-memory-server's one-node replica set of real mongod when a binary can be had
//   (MONGOMS_SYSTEM_BINARY, its cache, or a download host that answers within the probe
//   timeout); else the project's emulator. The caller logs the one line saying which and why.
//   The emulator chosen that way (the embedded default of `npm start`) keeps its data under
//   DATA_DIR/db, durable as mongod's (its --dbpath); the tests' engines (NODE_ENV=test, or an
//   explicit MONGO_ENGINE) stay in memory.
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import type { Config, MongoEngineKind } from '../config.ts';

export interface EngineInfo {
  kind: MongoEngineKind;
  /** Why this engine was chosen, in words. */
  reason: string;
}

export interface ResolvedEngine extends EngineInfo {
  uri: string;
  /** Stops an engine this process started; a no-op for `uri`. */
  stop(): Promise<void>;
}

export type EngineConfig = Pick<Config, 'mongodbUri' | 'mongoEngine' | 'mongodSystemBinary' | 'mongodDownloadUrl'> & {
  limits: Pick<Config['limits'], 'mongodDownloadProbeTimeoutMs'>;
} & Partial<Pick<Config, 'dataDir' | 'nodeEnv'>>;

const REPLICA_SET_NAME = 'rs0';
const DEFAULT_DOWNLOAD_MIRROR = 'https://fastdl.mongodb.org';

export async function resolveEngine(config: EngineConfig): Promise<ResolvedEngine> {
  const choice = await chooseEngine(config);
  switch (choice.kind) {
    case 'uri':
      return { ...choice, uri: config.mongodbUri as string, stop: async () => undefined };
    case 'memory-server':
      return { ...choice, ...(await startMemoryServer()) };
    case 'emulator': {
      const dbpath = emulatorDbpath(config);
      const started = await startEmbeddedEmulator(dbpath);
      return {
        ...choice,
        reason: dbpath ? `${choice.reason}; its data is kept in ${dbpath} (rm -rf it to start clean)` : choice.reason,
        ...started,
      };
    }
  }
}

/** Decides which engine to use, without starting it. */
export async function chooseEngine(config: EngineConfig): Promise<EngineInfo> {
  if (config.mongoEngine) {
    return { kind: config.mongoEngine, reason: `MONGO_ENGINE=${config.mongoEngine}` };
  }
  if (config.mongodbUri) return { kind: 'uri', reason: 'MONGODB_URI is set' };
  const mongod = await findMongod(config);
  if (mongod.available) {
    return { kind: 'memory-server', reason: `no MONGODB_URI; ${mongod.detail}` };
  }
  const dbpath = emulatorDbpath(config);
  return {
    kind: 'emulator',
    reason: dbpath
      ? `no MONGODB_URI and no mongod binary (${mongod.detail}); using the emulator, a development engine, not a production database`
      : `no MONGODB_URI and no mongod binary (${mongod.detail}); using the in-memory emulator, a test engine, not a database`,
  };
}

/**
 * Where the embedded emulator keeps its data: DATA_DIR/db when it is the automatic choice of a
 * non-test run (npm start); undefined (in memory) for the tests and an explicit MONGO_ENGINE.
 * A subdirectory, since DATA_DIR also holds the admin key and the emulator refuses files it did not write.
 */
export function emulatorDbpath(config: EngineConfig): string | undefined {
  if (config.mongoEngine || config.mongodbUri || config.nodeEnv === 'test' || !config.dataDir) return undefined;
  return join(config.dataDir, 'db');
}

type MongodAvailability = { available: boolean; detail: string };

async function findMongod(config: EngineConfig): Promise<MongodAvailability> {
  const systemBinary = config.mongodSystemBinary;
  if (systemBinary) {
    return existsSync(systemBinary)
      ? { available: true, detail: `MONGOMS_SYSTEM_BINARY=${systemBinary}` }
      : { available: false, detail: `MONGOMS_SYSTEM_BINARY=${systemBinary} does not exist` };
  }
  const { DryMongoBinary } = await import('mongodb-memory-server');
  const cached = await DryMongoBinary.locateBinary(await DryMongoBinary.generateOptions()).catch(() => undefined);
  if (cached) return { available: true, detail: `mongod cached at ${cached}` };
  return probeDownloadHost(
    config.mongodDownloadUrl ?? DEFAULT_DOWNLOAD_MIRROR,
    config.limits.mongodDownloadProbeTimeoutMs,
  );
}

/** A HEAD request with a short timeout, so an offline machine learns it within seconds. */
async function probeDownloadHost(url: string, timeoutMs: number): Promise<MongodAvailability> {
  const host = new URL(url).host;
  try {
    await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
    return { available: true, detail: `no cached mongod, downloading from ${host}` };
  } catch (error) {
    const cause =
      error instanceof Error ? ((error.cause as { code?: string } | undefined)?.code ?? error.name) : 'error';
    return { available: false, detail: `none cached, ${host} unreachable within ${timeoutMs}ms: ${cause}` };
  }
}

async function startMemoryServer(): Promise<{ uri: string; stop(): Promise<void> }> {
  const { MongoMemoryReplSet } = await import('mongodb-memory-server');
  // enableTestCommands lets tests use fail points, as on the emulator.
  const replSet = await MongoMemoryReplSet.create({
    replSet: { name: REPLICA_SET_NAME, count: 1, args: ['--setParameter', 'enableTestCommands=1'] },
  });
  return { uri: replSet.getUri(), stop: async () => void (await replSet.stop()) };
}

async function startEmbeddedEmulator(dbpath: string | undefined): Promise<{ uri: string; stop(): Promise<void> }> {
  const { startEmulator } = await import('@precondition/mongo-emulator');
  const emulator = await startEmulator({ port: 0, replSetName: REPLICA_SET_NAME, ...(dbpath ? { dbpath } : {}) });
  return { uri: emulator.uri, stop: () => emulator.stop() };
}
