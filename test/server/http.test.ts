// GraphQL over HTTP without Express (src/server/http.ts): what the body parser and the
// integration did for /graphql is still done, and every refusal is a JSON GraphQL error with a
// code, never an HTML page: a body over the limit (413, nothing executes), malformed JSON (400),
// a compressed body (415), a content type that is not JSON (415, as CSRF prevention wants); GET queries and
// batched POSTs still run, every answer says `cache-control: no-store`, and the rest of the paths
// stay Express's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const BODY_LIMIT_BYTES = 2_048;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { HTTP_BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES) } });
});
afterAll(async () => {
  await app?.close();
});

async function post(body: string, headers: Record<string, string> = {}) {
  const response = await fetch(app.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.admin}`, ...headers },
    body,
  });
  return { status: response.status, type: response.headers.get('content-type'), json: (await response.json()) as any };
}

describe('GraphQL over HTTP', () => {
  it('answers a POST, a GET and a batch as before', async () => {
    expect((await post(JSON.stringify({ query: '{ __typename }' }))).json).toMatchObject({
      data: { __typename: 'Query' },
    });
    const get = await fetch(`${app.url}?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { authorization: `Bearer ${app.keys.admin}`, 'apollo-require-preflight': 'true' },
    });
    expect(get.status).toBe(200);
    expect(await get.json()).toMatchObject({ data: { __typename: 'Query' } });
    const batch = await post(JSON.stringify([{ query: '{ __typename }' }, { query: '{ health { engine } }' }]));
    expect(batch.json).toHaveLength(2);
  });

  it('marks every GraphQL answer `cache-control: no-store`: a query, a mutation, an error, each of a batch', async () => {
    const answers = [
      JSON.stringify({ query: '{ __typename }' }),
      JSON.stringify({ query: '{ account(id: "no-store") { id } }' }),
      JSON.stringify({
        query: 'mutation { openAccount(input: { accountId: "no-store", currency: "EUR" }) { __typename } }',
      }),
      JSON.stringify({ query: '{ nope }' }),
      JSON.stringify([{ query: '{ __typename }' }, { query: '{ health { engine } }' }]),
    ];
    for (const body of answers) {
      const response = await fetch(app.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.admin}` },
        body,
      });
      expect(response.headers.get('cache-control'), body).toBe('no-store');
      await response.arrayBuffer();
    }
  });

  it('refuses a body over the limit with 413 and runs nothing of it', async () => {
    const padding = 'x'.repeat(BODY_LIMIT_BYTES);
    const refused = await post(
      JSON.stringify({
        query: `mutation { openAccount(input: { accountId: "too-big", currency: "EUR" }) { __typename } } # ${padding}`,
      }),
    );
    expect(refused.status).toBe(413);
    expect(refused.type).toMatch(/^application\/json/);
    expect(refused.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const after = await app.gql('{ account(id: "too-big") { id } }');
    expect(after.data.account).toBeNull();
  });

  it('refuses malformed JSON with 400 and a GraphQL error body', async () => {
    const refused = await post('{"query": "{ __typename }"');
    expect(refused.status).toBe(400);
    expect(refused.json.errors[0]).toMatchObject({
      message: expect.stringMatching(/^The request body is not valid JSON\. Call the API with POST/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('refuses a compressed body with 415', async () => {
    const refused = await post(JSON.stringify({ query: '{ __typename }' }), { 'content-encoding': 'gzip' });
    expect(refused.status).toBe(415);
    expect(refused.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('refuses a body that is not sent as JSON (a simple request, CSRF prevention) with 415 and how to call', async () => {
    const refused = await post(JSON.stringify({ query: '{ __typename }' }), { 'content-type': 'text/plain' });
    expect(refused.status).toBe(415);
    expect(refused.json.errors[0].message).toMatch(
      /^The request body must be JSON, sent with content-type: application\/json \(this request had content-type text\/plain\)\. Call the API/,
    );
  });

  it('leaves the other paths to Express', async () => {
    expect((await fetch(new URL('/healthz', app.url))).status).toBe(200);
    expect((await fetch(new URL('/nowhere', app.url))).status).toBe(404);
  });
});
