// Page cursors are client input: one the client made up is refused as BAD_USER_INPUT, never
// answered INTERNAL_SERVER_ERROR (issue 29.4: `entry:99999999999999999999999` was a RangeError
// when the position was turned into the stored Long). Every cursor goes through the one codec,
// src/lib/cursor.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor, encodeJsonCursor } from '../../src/lib/cursor.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

describe('made-up page cursors', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    const opened = await app.gql(
      'mutation { openAccount(input: { accountId: "cursor-a", currency: "EUR" }) { __typename } }',
    );
    expect(opened.errors).toBeUndefined();
  });
  afterAll(async () => {
    await app?.close();
  });

  const entriesAfter = (after: string) =>
    app.gql('query ($after: String) { account(id: "cursor-a") { entries(after: $after) { items { id } } } }', {
      after,
    });
  const listAfter = (after: string) =>
    app.gql('query ($after: String) { ledgerEntries(after: $after) { items { id } } }', { after });

  it.each([
    ['a version past 2^53', encodeCursor('entry:99999999999999999999999')],
    ['a version of 17 digits', encodeCursor('entry:12345678901234567')],
    ['a cursor of another list', encodeCursor('account:cursor-a')],
    ['no base64url at all', '%%%'],
  ])('refuses %s on an account page as BAD_USER_INPUT', async (_name, cursor) => {
    const res = await entriesAfter(cursor);
    expect(res.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });

  it('takes a cursor it issued', async () => {
    const res = await entriesAfter(encodeCursor('entry:1'));
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ account: { entries: { items: [] } } });
  });

  it.each([
    ['a time no Date can hold', encodeJsonCursor({ t: 8.7e15, id: 'x' })],
    ['a time past 2^53', encodeJsonCursor({ t: 2 ** 60, id: 'x' })],
    ['not JSON', encodeCursor('{')],
  ])('refuses %s on the journal list as BAD_USER_INPUT', async (_name, cursor) => {
    const res = await listAfter(cursor);
    expect(res.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });
});
