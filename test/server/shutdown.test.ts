// Proves the one shutdown path: stop() closes open WebSockets, stops answering HTTP, closes the
// Mongo client it opened, stops the engine it started, and may be called twice.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { startServer } from '../../src/server/startServer.ts';

describe('stop()', () => {
  it('closes sockets, HTTP, Mongo and the embedded engine, idempotently', async () => {
    const token = 'shutdown-test-admin-key';
    const server = await startServer({
      config: loadConfig({ MONGO_ENGINE: 'emulator', PORT: '0', HOST: '127.0.0.1', API_KEYS: `${token}=admin` }),
      logger: createLogger({ level: 'silent' }),
    });
    expect(server.engine.kind).toBe('emulator');
    const socket = new WebSocket(server.wsUrl, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.on('open', resolve));

    await Promise.all([server.stop(), server.stop()]);

    expect(await closed).toBe(1001); // going away
    await expect(fetch(new URL('/healthz', server.url))).rejects.toThrow();
    await expect(server.db.command({ ping: 1 })).rejects.toThrow(/closed|must be connected/i);
  });
});
