// @module-tag processes
// OTLP/HTTP export, end to end: `npm start`'s process with OTEL_EXPORTER_OTLP_ENDPOINT pointing at
// a receiver this test runs (a node:http server keeping every POST to /v1/traces) sends the spans
// of a request that carried a traceparent: the server span continuing it, the mutation's span and
// its MongoDB commands. And the other half: with the variable unset no SDK runs in the process
// that serves a traced request (no command monitoring, no trace ids in its log lines).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.ts';
import { tracingEnabled } from '../../src/observability/tracing.ts';
import { startAppProcess, startTestApp, type AppProcess } from '../support/app.ts';
import { testMongoUri } from '../support/mongo.ts';
import { eventually } from '../support/waiting.ts';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

/** The receiver: every JSON body posted to /v1/traces, answered 200 as a collector does. */
function startReceiver(): Promise<{ server: Server; posts: OtlpExport[]; url: string }> {
  const posts: OtlpExport[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces')
        posts.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, posts, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

const spansIn = (posts: OtlpExport[]) =>
  posts.flatMap((post) =>
    (post.resourceSpans ?? []).flatMap((rs) => (rs.scopeSpans ?? []).flatMap((ss) => ss.spans ?? [])),
  );
const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value;

describe('OTLP/HTTP export from the API process', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let api: AppProcess;

  beforeAll(async () => {
    receiver = await startReceiver();
    api = await startAppProcess({
      mongoUri: testMongoUri(),
      dbName: `test_otlp_${randomBytes(6).toString('hex')}`,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' },
    });
  });
  afterAll(async () => {
    await api?.stop();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('posts the spans of a traced request to <endpoint>/v1/traces, its MongoDB commands under the mutation', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const response = await fetch(api.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${api.keys.service}`,
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      },
      body: JSON.stringify({
        query: 'mutation Open($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }',
        variables: { input: { accountId: 'otlp-a', currency: 'EUR' } },
      }),
    });
    expect(
      ((await response.json()) as { data: { openAccount: { __typename: string } } }).data.openAccount.__typename,
    ).toBe('OpenAccountSuccess');
    // The batch processor exports within its delay (OTEL_BSP_SCHEDULE_DELAY, 5 s by default; 100 ms here).
    const spans = await eventually(() => {
      const ofTrace = spansIn(receiver.posts).filter((span) => span.traceId === traceId);
      expect(ofTrace.some((span) => attribute(span, 'db.system.name') !== undefined)).toBe(true);
      return ofTrace;
    });
    const server = spans.find((span) => span.parentSpanId === callerSpanId)!;
    expect(server.name).toBe('mutation Open');
    const field = spans.find((span) => span.name === 'mutation openAccount')!;
    expect(field.parentSpanId).toBe(server.spanId);
    expect(attribute(field, 'graphql.result.member')).toEqual({ stringValue: 'OpenAccountSuccess' });
    const commands = spans.filter((span) => attribute(span, 'db.system.name') !== undefined);
    // The admission screen's rate-limit reservation (src/server/sharedRateLimit.ts) runs before
    // the operation, under the request's span; every command of the mutation is under its field.
    const isRateLimit = (span: (typeof spans)[number]) =>
      attribute(span, 'db.collection.name')?.stringValue === 'rate_limit_buckets';
    const moves = commands.filter((span) => !isRateLimit(span));
    expect(moves.length).toBeGreaterThan(0);
    for (const command of moves) expect(command.parentSpanId).toBe(field.spanId);
    for (const command of commands.filter(isRateLimit)) expect(command.parentSpanId).toBe(server.spanId);
    const service = receiver.posts[0]!.resourceSpans![0]!.resource?.attributes?.find((a) => a.key === 'service.name')
      ?.value.stringValue;
    expect(service).toBe('precondition');
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('runs no SDK: the client is opened without command monitoring and a traced request logs no trace ids', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const app = await startTestApp({ logger: createLogger({ level: 'info', destination }), env: { SEED_DEMO: '0' } });
    try {
      expect(tracingEnabled()).toBe(false);
      expect(app.client.options.monitorCommands).toBe(false);
      const response = await fetch(app.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${app.keys.service}`,
          traceparent: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`,
        },
        body: JSON.stringify({
          query: 'mutation ($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }',
          variables: { input: { accountId: 'untraced', currency: 'EUR' } },
        }),
      });
      expect(response.status).toBe(200);
      const line = await eventually(() => {
        const found = lines.find((candidate) => candidate['mutation'] === 'openAccount');
        expect(found).toBeDefined();
        return found!;
      });
      expect(line).not.toHaveProperty('trace_id');
      expect(line).not.toHaveProperty('span_id');
    } finally {
      await app.close();
    }
  });
});
