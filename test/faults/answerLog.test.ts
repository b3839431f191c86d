// R5's witness, itself tested: the answer log the fault run's checker and the soak read
// (test/support/answerLog.ts) counts the error codes of every answer by operation, over HTTP and
// over graphql-ws, and r5Violations turns each INTERNAL_SERVER_ERROR and each UNAVAILABLE without
// its 503 and Retry-After into a violation. A probe field throws the driver's own error of a member
// that is no longer primary (answered UNAVAILABLE on both transports), another a plain bug
// (answered INTERNAL_SERVER_ERROR): were a failover ever mapped back to an internal error, on
// either transport, the checker would fail the run.
import { createServer, type Server } from 'node:http';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { MongoServerError } from 'mongodb';
import { Query, Resolver } from 'type-graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rights } from '../../src/access/roles.ts';
import { buildAppSchema } from '../../src/app/schema.ts';
import { Allow } from '../../src/graphql/auth/Allow.ts';
import { answerLog, r5Violations, type AnswerLog } from '../support/answerLog.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

@Resolver()
class R5ProbeResolver {
  @Query(() => Number)
  @Allow(Rights.query)
  probeFailover(): number {
    // What the driver throws when the member it wrote to stepped down under it (10107, NotWritablePrimary).
    throw new MongoServerError({ message: 'not primary', errmsg: 'not primary', code: 10107 });
  }

  @Query(() => Number)
  @Allow(Rights.query)
  probeBug(): number {
    throw new Error('a bug in a resolver');
  }
}

let app: TestApp;
beforeAll(async () => {
  const schema = await buildAppSchema({ extraResolvers: [R5ProbeResolver] });
  app = await startTestApp({ schema, env: { SEED_DEMO: '0' } });
});
afterAll(async () => {
  await app?.close();
});

/** A query over HTTP through the log's fetch, as the SDK sends one. */
async function overHttp(log: AnswerLog, url: string, query: string): Promise<number> {
  const response = await log.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.ops}` },
    body: JSON.stringify({ query }),
    signal: AbortSignal.timeout(10_000),
  });
  return response.status;
}

/** A query over graphql-ws on a socket of the log's WebSocket class, until the server completes it or answers an error. */
function overWs(client: WsClient, query: string): Promise<void> {
  return new Promise((resolve) => {
    client.subscribe({ query }, { next: () => undefined, error: () => resolve(), complete: () => resolve() });
  });
}

describe("the fault run's R5 checker (test/support/answerLog.ts)", () => {
  it('counts codes by operation on both transports, passes UNAVAILABLE and fails the run on INTERNAL_SERVER_ERROR', async () => {
    const log = answerLog();
    const ws = createWsClient({
      url: app.wsUrl,
      webSocketImpl: log.WebSocket,
      connectionParams: { authorization: `Bearer ${app.keys.ops}` },
      lazy: true,
      retryAttempts: 0,
    });
    try {
      expect(await overHttp(log, app.url, 'query ProbeFailover { probeFailover }')).toBe(503);
      await overWs(ws, 'query ProbeFailover { probeFailover }');
      await overHttp(log, app.url, 'query ProbeBug { probeBug }');
      await overWs(ws, 'query ProbeBug { probeBug }');
      // Refused before it runs: graphql-ws's `error` message, read as well.
      await overWs(ws, 'query ProbeRefused { noSuchField }');
    } finally {
      await ws.dispose();
    }
    expect(log.codes.get('ProbeFailover')).toEqual(new Map([['UNAVAILABLE', 2]]));
    expect(log.codes.get('ProbeBug')).toEqual(new Map([['INTERNAL_SERVER_ERROR', 2]]));
    expect([...(log.codes.get('ProbeRefused')?.keys() ?? [])]).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(log.timeline.map((e) => `${e.operation} ${e.code}`).sort()).toEqual([
      'ProbeBug INTERNAL_SERVER_ERROR',
      'ProbeBug INTERNAL_SERVER_ERROR',
      'ProbeFailover UNAVAILABLE',
      'ProbeFailover UNAVAILABLE',
      'ProbeRefused GRAPHQL_VALIDATION_FAILED',
    ]);
    expect(log.badUnavailable).toEqual([]);
    expect(r5Violations(log)).toEqual(['R5: 2 INTERNAL_SERVER_ERROR answers to ProbeBug (first: a bug in a resolver)']);
  });

  it('fails the run on an UNAVAILABLE answered without HTTP 503 and Retry-After', async () => {
    // A server that codes the error but not the status: what the app would answer without unavailablePlugin.
    const bare: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          data: null,
          errors: [{ message: 'no primary', path: ['probeFailover'], extensions: { code: 'UNAVAILABLE' } }],
        }),
      );
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    try {
      const log = answerLog();
      const { port } = bare.address() as { port: number };
      await overHttp(log, `http://127.0.0.1:${port}/graphql`, 'query ProbeFailover { probeFailover }');
      expect(r5Violations(log)).toEqual(['R5: ProbeFailover: UNAVAILABLE with status 200, retry-after null']);
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  });
});
