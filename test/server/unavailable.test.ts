// @module-tag failpoints
// R5 at the transports: an operation that meets a deployment that cannot answer now (a member
// going away, not the primary, no primary to select, a dropped connection), once the driver's one
// retry has failed too, is answered UNAVAILABLE: over HTTP with 503 and Retry-After, over
// graphql-ws with the same code; never INTERNAL_SERVER_ERROR. An error that is no failover's stays
// an internal one. The errors are the driver's own, from real commands: a probe field reads through
// a client of its own, which mongod's failCommand fails (for that client only, so the app's
// background work is left alone), or which points at a port where no member listens.
import { MongoClient, Timestamp } from 'mongodb';
import { Arg, Query, Resolver } from 'type-graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Rights } from '../../src/access/roles.ts';
import { buildAppSchema } from '../../src/app/schema.ts';
import { Allow } from '../../src/graphql/auth/Allow.ts';
import { encodeConsistencyToken } from '../../src/graphql/consistency.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { failCommand, skipIfFailPointsRefused } from '../support/failPoints.ts';
import { testMongoUri, useOwnEngine } from '../support/mongo.ts';

// Its fail points on an engine of its own, never waiting on another file's (test/support/mongo.ts).
useOwnEngine();

const PROBE_APP_NAME = 'unavailable-probe';
/** The probe's clients: one on the test engine (its reads failed by failCommand), one on a port where nothing listens. */
const probes: { engine?: MongoClient; nowhere?: MongoClient } = {};

@Resolver()
class UnavailableProbeResolver {
  @Query(() => Number)
  @Allow(Rights.query)
  async probeRead(@Arg('nowhere', () => Boolean, { defaultValue: false }) nowhere: boolean): Promise<number> {
    const client = nowhere ? probes.nowhere! : probes.engine!;
    return client.db('unavailable_probe').collection('things').countDocuments({});
  }
}

/** mongod's codes of a member that is going, or is not (or no longer) the primary (error_codes.yml), and a dropped connection. */
const FAILOVERS = [
  ['ShutdownInProgress', { errorCode: 91 }],
  ['InterruptedDueToReplStateChange', { errorCode: 11602 }],
  ['NotWritablePrimary', { errorCode: 10107 }],
  ['PrimarySteppedDown', { errorCode: 189 }],
  ['a closed connection', { closeConnection: true }],
] as const;

let app: TestApp;
let turnOff: (() => Promise<void>) | null = null;
beforeAll(async () => {
  // Short selection and heartbeats: a member marked unknown by the fault is seen again at once.
  probes.engine = await new MongoClient(testMongoUri(), {
    appName: PROBE_APP_NAME,
    serverSelectionTimeoutMS: 500,
    heartbeatFrequencyMS: 500,
  }).connect();
  probes.nowhere = new MongoClient('mongodb://127.0.0.1:1/?directConnection=true', { serverSelectionTimeoutMS: 300 });
  const schema = await buildAppSchema({ extraResolvers: [UnavailableProbeResolver] });
  app = await startTestApp({ schema, env: { SEED_DEMO: '0', NODE_ENV: 'production' } });
});
afterEach(async () => {
  await turnOff?.();
  turnOff = null;
});
afterAll(async () => {
  await app?.close();
  await probes.engine?.close();
  await probes.nowhere?.close();
});

async function post(query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(app.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.ops}` },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as {
      data?: unknown;
      errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
    },
  };
}

const UNAVAILABLE = { code: 'UNAVAILABLE', retryAfterSeconds: 1 };

describe('over HTTP', () => {
  it.for(FAILOVERS)(
    'answers a read that met %s (and its retry) as UNAVAILABLE, 503 with Retry-After',
    async ([, fault], context) => {
      await skipIfFailPointsRefused(context, app.client);
      turnOff = await failCommand(app.client, PROBE_APP_NAME, 'alwaysOn', { failCommands: ['aggregate'], ...fault });
      const answer = await post('{ probeRead }');
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toBe('1');
      expect(answer.body.errors).toEqual([expect.objectContaining({ path: ['probeRead'], extensions: UNAVAILABLE })]);
      expect(answer.body.errors![0]!.message).toMatch(/send the same request again/);
    },
  );

  it('answers a read with no member to select as UNAVAILABLE, 503 with Retry-After', async () => {
    const answer = await post('{ probeRead(nowhere: true) }');
    expect(answer).toMatchObject({
      status: 503,
      retryAfter: '1',
      body: { errors: [expect.objectContaining({ extensions: UNAVAILABLE })] },
    });
  });

  it('keeps an error that is no failover an internal one: no 503, no Retry-After', async (context) => {
    await skipIfFailPointsRefused(context, app.client);
    // 8, UnknownError: nothing says that a retry would help.
    turnOff = await failCommand(app.client, PROBE_APP_NAME, 'alwaysOn', { failCommands: ['aggregate'], errorCode: 8 });
    const answer = await post('{ probeRead }');
    // A field's error beside the (null) data: the status of a GraphQL answer, as any internal fault's.
    expect(answer).toMatchObject({
      status: 200,
      retryAfter: null,
      body: {
        errors: [
          expect.objectContaining({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }),
        ],
      },
    });
  });

  it('answers a consistency token it could not check (the deployment had no primary) as UNAVAILABLE, 503', async (context) => {
    await skipIfFailPointsRefused(context, app.client);
    // Ahead of what this process has seen, so the server pings the deployment to check it.
    const ahead = encodeConsistencyToken(new Timestamp({ t: Math.floor(Date.now() / 1000) + 3_600, i: 1 }));
    turnOff = await failCommand(
      app.client,
      app.client.options.appName!,
      { times: 2 },
      { failCommands: ['ping'], errorCode: 91 },
    );
    const answer = await post('query ($token: String!) @consistentAfter(token: $token) { viewer { role } }', {
      token: ahead,
    });
    expect(answer).toMatchObject({
      status: 503,
      retryAfter: '1',
      body: { errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAVAILABLE' }) })] },
    });
  });
});

describe('over graphql-ws', () => {
  it.for(FAILOVERS)(
    'answers a read that met %s with the same code, and the socket goes on',
    async ([, fault], context) => {
      await skipIfFailPointsRefused(context, app.client);
      const ws = app.ws('ops');
      turnOff = await failCommand(app.client, PROBE_APP_NAME, 'alwaysOn', { failCommands: ['aggregate'], ...fault });
      const failed = await ws.execute('{ probeRead }');
      expect(failed.errors).toEqual([expect.objectContaining({ path: ['probeRead'], extensions: UNAVAILABLE })]);
      await turnOff();
      turnOff = null;
      expect((await ws.execute('{ viewer { role } }')).data).toEqual({ viewer: { role: 'ops' } });
    },
  );
});
