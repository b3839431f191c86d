// Abuse class "client mistakes answered as server faults" (issue 29, item 4). Each input below is
// the client's mistake and must be answered as one: BAD_USER_INPUT (or another client code) with a
// 4xx status over HTTP, never INTERNAL_SERVER_ERROR or a 5xx that the SDK retries as a server
// fault: a consistency token that is not one, one from the future, a work-item payload nested
// 5,000 levels deep (stack overflow in the size check's JSON.stringify) or just past what MongoDB
// stores, and the same over a WebSocket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIABLES_DEPTH_MAX } from '../../../src/server/variablesDepth.ts';
import { WorkLimits } from '../../../src/work/limits.ts';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { openRawSocket } from './rawSocket.ts';

const token = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const CREATE = `mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) { __typename } }`;

/**
 * `{"a":[{"a":[1]}]}`-like JSON text nested `levels` deep, built as text: JSON.stringify itself
 * overflows the stack on such values (which is the server-side fault being tested).
 */
function nested(levels: number): string {
  let text = '1';
  for (let i = 0; i < levels; i++) text = i % 2 === 0 ? `{"a":${text}}` : `[${text}]`;
  return text;
}

/** POSTs a body written as text, with the `service` key. */
async function postText(
  app: TestApp,
  body: string,
): Promise<{ status: number; errors?: Array<{ message: string; extensions?: { code?: string } }>; data?: any }> {
  const response = await fetch(app.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.service}` },
    body,
  });
  return { status: response.status, ...((await response.json()) as object) };
}

const createWithPayload = (key: string, payloadText: string) =>
  `{"query":${JSON.stringify(CREATE)},"variables":{"input":{"kind":"deep","idempotencyKey":"${key}","payload":${payloadText}}}}`;

describe('client mistakes are client errors', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses a @consistentAfter token that is not one: BAD_USER_INPUT, HTTP 400', async () => {
    const res = await app.gql(`query @consistentAfter(token: "garbage") { viewer { role } }`, {}, { key: 'dashboard' });
    expect({ status: res.status, code: res.errors?.[0]?.extensions?.code }).toEqual({
      status: 400,
      code: 'BAD_USER_INPUT',
    });
  });

  it('refuses a page cursor whose position is past what a number holds: BAD_USER_INPUT, not a RangeError', async () => {
    await app.gql(
      'mutation { openAccount(input: { accountId: "cur-a", currency: "EUR" }) { __typename } }',
      {},
      { key: 'service' },
    );
    const res = await app.gql(
      'query ($c: String) { account(id: "cur-a") { entries(after: $c) { items { id } } } }',
      { c: token('entry:99999999999999999999999') },
      { key: 'dashboard' },
    );
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it("closes a socket that sends one of the server's own message types as a bad request (4400), not 4500", async () => {
    for (const text of [
      '{"id":"1","type":"next","payload":{}}',
      '{"id":"1","type":"error","payload":[{"message":"x"}]}',
      '{"type":"connection_ack"}',
    ]) {
      const socket = await openRawSocket(app.wsUrl, app.keys.service);
      socket.sendText(text);
      expect({ text, code: (await socket.closed).code }).toEqual({ text, code: 4400 });
    }
  });

  it('refuses a @consistentAfter token from the future (a cluster time the deployment has not reached): BAD_USER_INPUT, HTTP 400', async () => {
    for (const future of ['ct1:4294967295.4294967295', `ct1:${Math.floor(Date.now() / 1000) + 3_600}.1`]) {
      const res = await app.gql(
        `query ($t: String!) @consistentAfter(token: $t) { account(id: "nobody") { balance } }`,
        { t: token(future) },
        { key: 'dashboard' },
      );
      expect({ future, status: res.status, code: res.errors?.[0]?.extensions?.code }).toEqual({
        future,
        status: 400,
        code: 'BAD_USER_INPUT',
      });
    }
  });

  it(`refuses a payload nested 5,000 levels, or just past ${WorkLimits.jsonDepthMax}: BAD_USER_INPUT; stores one of ${WorkLimits.jsonDepthMax}`, async () => {
    // Past what any variables may nest: refused where the body enters, before Apollo walks it.
    const deep = await postText(app, createWithPayload('deep-5000', nested(5_000)));
    expect({ status: deep.status, code: deep.errors?.[0]?.extensions?.code }).toEqual({
      status: 400,
      code: 'BAD_USER_INPUT',
    });
    expect(deep.errors?.[0]?.message).toContain(`may nest at most ${VARIABLES_DEPTH_MAX} levels`);
    // One level past what the item can store, as variables: past their bound too (2 levels above the payload).
    const pastAsVariables = await postText(app, createWithPayload('deep-past', nested(WorkLimits.jsonDepthMax + 1)));
    expect({ status: pastAsVariables.status, code: pastAsVariables.errors?.[0]?.extensions?.code }).toEqual({
      status: 400,
      code: 'BAD_USER_INPUT',
    });
    // And inline in the document (under the token ceiling): refused by the input's own rule, a field
    // error; nothing ran, so HTTP 400 too (issue 41, item 5: it was 200).
    const literal = nested(WorkLimits.jsonDepthMax + 1).replaceAll('"a"', 'a');
    const past = await app.gql(
      `mutation { createWorkItem(input: { kind: "deep", idempotencyKey: "deep-inline", payload: ${literal} }) { __typename } }`,
      {},
      { key: 'service' },
    );
    expect({ status: past.status, code: past.errors?.[0]?.extensions?.code }).toEqual({
      status: 400,
      code: 'BAD_USER_INPUT',
    });
    expect(past.errors?.[0]?.message).toContain(`nest at most ${WorkLimits.jsonDepthMax} levels`);
    const stored = await postText(app, createWithPayload('deep-ok', nested(WorkLimits.jsonDepthMax)));
    expect(stored.errors).toBeUndefined();
    expect(stored.data.createWorkItem.__typename).toBe('CreateWorkItemSuccess');
  });

  it('refuses variables nested 1,000 levels in a GET (about as deep as a URL carries): a 4xx', async () => {
    const search = new URLSearchParams({ query: 'query ($v: String) { viewer { role } }', variables: nested(1_000) });
    const response = await fetch(`${app.url}?${search}`, {
      headers: { authorization: `Bearer ${app.keys.dashboard}`, 'apollo-require-preflight': 'true' },
    });
    const body = (await response.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
    expect({ status: response.status, code: body.errors?.[0]?.extensions?.code }).toEqual({
      status: 400,
      code: 'BAD_USER_INPUT',
    });
  });

  it('refuses a payload nested 5,000 levels inline in the document before parsing it (the token ceiling): a 4xx', async () => {
    let literal = '1';
    for (let i = 0; i < 5_000; i++) literal = `{a: ${literal}}`;
    const res = await app.gql(
      `mutation { createWorkItem(input: { kind: "deep", idempotencyKey: "inline", payload: ${literal} }) { __typename } }`,
      {},
      { key: 'service' },
    );
    expect(res.status).toBe(400);
    expect(res.errors?.[0]?.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
  });

  it('answers deep payloads and deep stray variables over a WebSocket with a client error, the socket left open', async () => {
    const socket = await openRawSocket(app.wsUrl, app.keys.service);
    try {
      socket.sendText(
        `{"id":"deep-payload","type":"subscribe","payload":${createWithPayload('ws-deep', nested(5_000))}}`,
      );
      const stray = JSON.stringify('subscription { workItemStatusChanged(kinds: ["deep"]) { __typename } }');
      socket.sendText(
        `{"id":"deep-stray","type":"subscribe","payload":{"query":${stray},"variables":{"stray":${nested(5_000)}}}}`,
      );
      socket.send({ id: 'after', type: 'subscribe', payload: { query: '{ viewer { role } }' } });
      await expect
        .poll(() => socket.messages.filter((m) => m.id === 'after' && m.type === 'complete').length, {
          timeout: 10_000,
          interval: 25,
        })
        .toBe(1);
      const codes = socket.messages
        .filter((m) => m.id === 'deep-payload' || m.id === 'deep-stray')
        .flatMap(
          (m) =>
            ((m.type === 'next' ? (m.payload as { errors?: unknown[] }).errors : m.type === 'error' ? m.payload : []) ??
              []) as Array<{ extensions?: { code?: string } }>,
        )
        .map((error) => error.extensions?.code);
      expect(codes).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
    } finally {
      await socket.close();
    }
  });
});
