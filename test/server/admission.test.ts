// One admission screen (src/server/admission.ts) for both transports: the same documents sent over
// HTTP and over graphql-ws to a production server (trusted documents off, as the abuse campaign of
// issue 29 ran it) are refused alike: introspection, a misspelled field and a misspelled enum value
// without a suggestion, and the depth and alias limits. A client frame graphql-ws does not take
// closes the socket as the protocol says for an invalid message (4400), not as a server fault.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../support/app.ts';

const HOPS = ['entries', 'items', 'account'] as const;

/** `{ account { entries { items { account { … } } } } }`, `levels` deep counting `account` itself. */
function deepAccount(levels: number): string {
  const hops = Array.from({ length: levels - 2 }, (_, i) => HOPS[i % HOPS.length] as string);
  return `{ account(id: "nobody") { ${hops.reduceRight((inner, hop) => `${hop} { ${inner} }`, '__typename')} } }`;
}

function aliases(count: number): string {
  return `{ ${Array.from({ length: count }, (_, i) => `a${i}: health { engine }`).join(' ')} }`;
}

const REFUSED: ReadonlyArray<readonly [name: string, document: string, message: RegExp]> = [
  ['introspection', '{ __schema { mutationType { fields { name } } } }', /introspection is not allowed/i],
  ['a misspelled field', '{ acount { id } }', /^Cannot query field "acount" on type "Query"\.$/],
  [
    'a misspelled enum value',
    '{ workItems(status: PENDINGG) { totalCount } }',
    /^Value "PENDINGG" does not exist in "WorkItemStatus" enum\.$/,
  ],
  ['an over-deep document', deepAccount(11), /depth limit/i],
  ['an over-aliased document', aliases(31), /aliases limit/i],
];

interface Refusal {
  message: string;
  code: unknown;
}

/** One operation over graphql-ws: its result, or the errors of its `error` message. */
function overSocket(
  app: TestApp,
  document: string,
): Promise<{ data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }> {
  const socket = app.ws('service');
  return new Promise<{ data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>(
    (resolve, reject) => {
      let result:
        | { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }
        | undefined;
      socket.client.subscribe(
        { query: document },
        {
          next: (value) => (result = value as typeof result),
          error: (error) => (Array.isArray(error) ? resolve({ errors: error }) : reject(error)),
          complete: () => (result ? resolve(result) : reject(new Error('completed without a result'))),
        },
      );
    },
  ).finally(() => socket.close());
}

const refusalsOf = (
  errors: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> | undefined,
): Refusal[] => (errors ?? []).map((error) => ({ message: error.message, code: error.extensions?.['code'] }));

describe('one admission screen, in production', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { NODE_ENV: 'production', TRUSTED_DOCUMENTS: 'off' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each(REFUSED)(
    'refuses %s alike over HTTP and graphql-ws, without a suggestion',
    async (_name, document, message) => {
      const overHttp = await app.gql(document, {}, { key: 'service' });
      const overWs = await overSocket(app, document);

      expect(overHttp.data ?? undefined).toBeUndefined();
      const httpRefusals = refusalsOf(overHttp.errors);
      expect(httpRefusals.length).toBeGreaterThan(0);
      expect(httpRefusals[0]!.message).toMatch(message);
      expect(JSON.stringify(httpRefusals)).not.toMatch(/Did you mean/);
      expect(refusalsOf(overWs.errors)).toEqual(httpRefusals);
      expect(overWs.data ?? undefined).toBeUndefined();
    },
  );

  it('still answers a valid operation over both', async () => {
    const overWs = await overSocket(app, '{ viewer { role } }');
    expect(overWs).toEqual({ data: { viewer: { role: 'service' } } });
    expect((await app.gql('{ viewer { role } }', {}, { key: 'service' })).data).toEqual({
      viewer: { role: 'service' },
    });
  });

  it.each([
    ['a next frame without an id', { type: 'next' }],
    ['a well-formed next frame', { type: 'next', id: '1', payload: { data: null } }],
    ['a connection_ack frame', { type: 'connection_ack' }],
  ])('closes a socket that sends %s with 4400, not 4500', async (_name, frame) => {
    const closed = await new Promise<{ code: number; reason: string }>((resolve, reject) => {
      const socket = new WebSocket(app.wsUrl, 'graphql-transport-ws');
      socket.on('open', () =>
        socket.send(
          JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${app.keys.service}` } }),
        ),
      );
      socket.on('message', (data) => {
        if (JSON.parse(String(data)).type === 'connection_ack') socket.send(JSON.stringify(frame));
      });
      socket.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
      socket.on('error', reject);
    });
    expect(closed).toEqual({ code: 4400, reason: 'Invalid message received' });
  });
});

describe('one admission screen, in development', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { NODE_ENV: 'development' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('suggests over both transports alike outside production, so the masking above is production only', async () => {
    const overHttp = await app.gql('{ acount { id } }', {}, { key: 'service' });
    const overWs = await overSocket(app, '{ acount { id } }');
    expect(overHttp.errors?.[0]?.message).toMatch(/Did you mean "account"/);
    expect(refusalsOf(overWs.errors)).toEqual(refusalsOf(overHttp.errors));
  });
});
