// Starts the real API in this process, on a free loopback port, against the engine the app
// itself would resolve (src/db/engine.ts), in a fresh database, with one key per role the bench
// uses. Configured as production (no introspection, no landing page), logging errors only.
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/server/startServer.ts';
import type { BenchKeys } from './context.ts';

export interface BenchApp {
  server: RunningServer;
  keys: BenchKeys;
  /** Drops the bench's database, then stops the server and any engine it started. */
  stop(): Promise<void>;
}

export async function startBenchApp(env: NodeJS.ProcessEnv, runId: string): Promise<BenchApp> {
  const keys: BenchKeys = { service: token('service'), worker: token('worker'), dashboard: token('dashboard') };
  const config = loadConfig({
    ...env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    SEED_DEMO: '0',
    MONGODB_DB: `bench_${runId}`,
    API_KEYS: Object.entries(keys)
      .map(([role, key]) => `${key}=${role}`)
      .join(','),
  });
  const server = await startServer({ config });
  return {
    server,
    keys,
    async stop() {
      await server.db.dropDatabase().catch(() => undefined);
      await server.stop();
    },
  };
}

function token(role: string): string {
  return `bench-${role}-${randomBytes(16).toString('hex')}`;
}
