// Proves keys stay out of the logs: a server logging at trace level, exercised with valid,
// unknown and malformed keys over HTTP and WebSocket, never writes a token; and a header logged
// whole by mistake is redacted.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.ts';
import { buildAppSchema } from '../../src/app/schema.ts';
import { AccessProbeResolver, PROBE_MUTATIONS } from '../support/accessProbe.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { tryWsConnection } from '../support/ws.ts';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, destination };
}

describe('logs', () => {
  const output = capture();
  const unknownKey = 'unknown-key-0123456789abcdef';
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      schema: await buildAppSchema({ extraResolvers: [AccessProbeResolver] }),
      logger: createLogger({ level: 'trace', destination: output.destination }),
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('never contain a key, whatever the outcome of the call', async () => {
    for (const role of ['dashboard', 'service', 'worker'] as const) {
      await app.gql('{ probeQuery }', {}, { key: role });
      await app.gql(PROBE_MUTATIONS.moveMoney, {}, { key: role });
      await tryWsConnection(app.wsUrl, { authorization: `Bearer ${app.keys[role]}` });
    }
    await app.gql('{ probeQuery }', {}, { key: unknownKey });
    await app.gql('{ probeQuery }', {}, { authorization: `Token ${unknownKey}` });
    await tryWsConnection(app.wsUrl, { authorization: `Bearer ${unknownKey}` });
    await app.gql('{ broken ', {}, { key: 'admin' });

    const text = output.lines.join('');
    expect(output.lines.length).toBeGreaterThan(10); // the server did log these calls
    expect(text).toContain('websocket refused');
    for (const token of [...Object.values(app.keys), unknownKey]) expect(text).not.toContain(token);
  });

  it('redact an authorization header or key list logged whole', () => {
    const own = capture();
    const logger = createLogger({ level: 'info', destination: own.destination });
    logger.info({ req: { headers: { authorization: 'Bearer secret-one' } }, apiKeys: ['secret-two'] }, 'oops');
    logger.info({ connectionParams: { authorization: 'Bearer secret-three' } }, 'oops');
    const text = own.lines.join('');
    expect(text).toContain('[redacted]');
    expect(text).not.toMatch(/secret-(one|two|three)/);
  });
});
