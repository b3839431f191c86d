// Proves the SDK's same-key retry makes an undecided answer harmless end to end. The server's
// commits fail (mongod's failCommand closes their connection, so nothing is applied) until its own
// bounded retries give up and the API answers OutcomeUnknown; the fault then clears and the SDK
// asks again with the key it made: the move applies once. A commit that applied but whose reply
// carried a writeConcernError is settled by the server itself (its rerun meets its own key). Runs
// on an emulator of its own, because fail points are global to an engine.
import { startEmulator, type RunningEmulator } from '@precondition/mongo-emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type FetchLike, type PreconditionClient } from '../../packages/sdk/src/index.ts';
import { failCommand } from '../support/failPoints.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { recordingFetch, UUID_V4 } from './support/fetches.ts';

const writeConcernError = {
  code: 64,
  codeName: 'WriteConcernFailed',
  errmsg: 'waiting for replication timed out',
  errInfo: { wtimeout: true },
};

let emulator: RunningEmulator;
let app: TestApp;
let admin: PreconditionClient;
let turnOff: (() => Promise<void>) | null = null;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, replSetName: 'rs0' });
  app = await startTestApp({ mongoUri: emulator.uri });
  admin = createClient({ url: app.url, apiKey: app.keys.admin });
});
afterEach(async () => {
  await turnOff?.();
  turnOff = null;
});
afterAll(async () => {
  await app?.close();
  await emulator?.stop();
});

const entriesOf = (requestId: string) => app.db.collection('ledger_entries').countDocuments({ requestId });

describe('a lost reply', () => {
  it('retries an OutcomeUnknown with the same key until the move is decided: applied once', async () => {
    await admin.openAccount({ accountId: 'sdk-lost', currency: 'EUR' });
    await admin.deposit({ accountId: 'sdk-lost', amount: 100 });
    turnOff = await failCommand(app.client, app.client.options.appName!, 'alwaysOn', {
      failCommands: ['commitTransaction'],
      closeConnection: true,
    });
    // The first answer (OutcomeUnknown) is what clears the fault, so the retry is what applies the move.
    const answers: string[] = [];
    const { fetch, bodies } = recordingFetch([], async () => {
      await turnOff?.();
    });
    const watching: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      const text = await response.text();
      answers.push((JSON.parse(text) as { data: { withdraw: { __typename: string } } }).data.withdraw.__typename);
      return new Response(text, { status: response.status });
    };
    const client = createClient({ url: app.url, apiKey: app.keys.admin, fetch: watching, retry: { baseDelayMs: 1 } });

    const result = await client.withdraw({ accountId: 'sdk-lost', amount: 40 });

    expect(answers).toEqual(['OutcomeUnknown', 'WithdrawSuccess']);
    expect(result).toMatchObject({ __typename: 'WithdrawSuccess', account: { balance: 60 } });
    expect(result.$meta.attempts).toBe(2);
    expect(result.$meta.idempotencyKey).toMatch(UUID_V4);
    expect(bodies.map((body) => (body.variables as { input: { requestId: string } }).input.requestId)).toEqual([
      result.$meta.idempotencyKey,
      result.$meta.idempotencyKey,
    ]);
    expect(await admin.account('sdk-lost')).toMatchObject({ balance: 60 });
    expect(await entriesOf(result.$meta.idempotencyKey!)).toBe(1);
  });

  it('needs no retry when the commit applied but its reply carried a writeConcernError: the server settles it', async () => {
    await admin.openAccount({ accountId: 'sdk-wce', currency: 'EUR' });
    await admin.deposit({ accountId: 'sdk-wce', amount: 100 });
    turnOff = await failCommand(
      app.client,
      app.client.options.appName!,
      { times: 1 },
      { failCommands: ['commitTransaction'], writeConcernError },
    );
    const result = await admin.withdraw({ accountId: 'sdk-wce', amount: 40 });
    expect(result).toMatchObject({ __typename: 'WithdrawSuccess', account: { balance: 60 } });
    expect(result.$meta.attempts).toBe(1);
    expect(await entriesOf(result.$meta.idempotencyKey!)).toBe(1);
  });

  it('is retried with the same key when the HTTP reply itself is lost after the server applied the transfer', async () => {
    await admin.openAccount({ accountId: 'sdk-from', currency: 'EUR' });
    await admin.openAccount({ accountId: 'sdk-to', currency: 'EUR' });
    await admin.deposit({ accountId: 'sdk-from', amount: 100 });
    let sent = 0;
    const losesFirstReply: FetchLike = async (url, init) => {
      const response = await globalThis.fetch(url, init);
      if (++sent === 1) throw new TypeError('fetch failed: socket hang up');
      return response;
    };
    const client = createClient({
      url: app.url,
      apiKey: app.keys.admin,
      fetch: losesFirstReply,
      retry: { baseDelayMs: 1 },
    });

    const result = await client.transfer({ fromAccountId: 'sdk-from', toAccountId: 'sdk-to', amount: 30 });

    expect(result).toMatchObject({
      __typename: 'DuplicateReplayed',
      original: { __typename: 'TransferSuccess', from: { balance: 70 }, to: { balance: 30 } },
    });
    expect(result.$meta.attempts).toBe(2);
    expect(await admin.account('sdk-from')).toMatchObject({ balance: 70 });
    expect(await admin.account('sdk-to')).toMatchObject({ balance: 30 });
    expect(await entriesOf(result.$meta.idempotencyKey!)).toBe(2);
  });
});
