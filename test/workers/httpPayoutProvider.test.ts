// The payout worker's HTTP provider (workers/payouts/provider.ts) against the test provider
// (test/support/payoutProvider.ts): the contract of DESIGN ("Workers"): the JSON body and the
// Idempotency-Key header at <PAYOUT_PROVIDER_URL>/payouts, the receipt's id; a second call with
// the key answers the first payout, another payout under the key is refused, and any answer that
// is not a receipt throws an error that says what came back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHttpPayoutProvider,
  payoutKey,
  PayoutProviderError,
  type PayoutRequest,
} from '../../workers/payouts/provider.ts';
import { startTestPayoutProvider, type TestPayoutProvider } from '../support/payoutProvider.ts';

let provider: TestPayoutProvider;
/** Calls whose key ends in `-slow` are answered after 5 s (the payout is stored at once). */
const SLOW_MS = 5_000;

beforeAll(async () => {
  provider = await startTestPayoutProvider({ delayMs: (call) => (call.key.endsWith('-slow') ? SLOW_MS : 0) });
});
afterAll(async () => {
  await provider?.stop();
});

function request(entryId: string, amount = 125): PayoutRequest {
  return { key: payoutKey(entryId), entryId, accountId: 'acct-1', amount, currency: 'EUR' };
}

/** A fetch that answers `status` with `body`, whatever was asked. */
function answering(status: number, body: string): typeof fetch {
  return async () => new Response(body, { status, headers: { 'content-type': 'application/json' } });
}

describe('payoutKey', () => {
  it('is derived from the entry alone', () => {
    expect(payoutKey('65f0a1')).toBe('payout:65f0a1');
  });
});

describe('createHttpPayoutProvider', () => {
  it('POSTs the payout with its Idempotency-Key and returns the id of the answer', async () => {
    const pay = createHttpPayoutProvider({ url: provider.url });
    const receipt = await pay.pay(request('e-first'));
    expect(receipt.id).toMatch(/^po_/);
    const stored = provider.snapshot().payouts.find((payout) => payout.key === 'payout:e-first');
    expect(stored).toMatchObject({
      id: receipt.id,
      entryId: 'e-first',
      accountId: 'acct-1',
      amount: 125,
      currency: 'EUR',
      calls: 1,
    });
  });

  it('a second call with the same key and payout gets the first payout back, and nothing is paid twice', async () => {
    const pay = createHttpPayoutProvider({ url: `${provider.url}/` });
    const before = provider.snapshot();
    const first = await pay.pay(request('e-twice'));
    const second = await pay.pay(request('e-twice'));
    expect(second.id).toBe(first.id);
    const after = provider.snapshot();
    expect(after.paid - before.paid).toBe(1);
    expect(after.duplicates - before.duplicates).toBe(1);
    expect(provider.payoutsByEntry().get('e-twice')).toHaveLength(1);
  });

  it('the same key for another amount is refused, and the refusal is an error naming the status and the reason', async () => {
    const pay = createHttpPayoutProvider({ url: provider.url });
    await pay.pay(request('e-reused', 100));
    const refused = await pay.pay(request('e-reused', 101)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PayoutProviderError);
    expect((refused as PayoutProviderError).status).toBe(422);
    expect((refused as Error).message).toMatch(/payout:e-reused.*HTTP 422.*another payout \(amount differ\)/);
    expect(
      provider
        .payoutsByEntry()
        .get('e-reused')!
        .map((payout) => payout.amount),
    ).toEqual([100]);
    expect(provider.snapshot().refusals).toBeGreaterThanOrEqual(1);
  });

  it('throws on an answer that is not a receipt, quoting what came back', async () => {
    const cases: Array<[number, string, RegExp]> = [
      [409, '{"error":"in progress"}', /HTTP 409: \{"error":"in progress"\}/],
      [500, '', /HTTP 500: \(empty body\)/],
      [200, '<html>ok</html>', /HTTP 200 but a body that is not JSON: <html>ok<\/html>/],
      [201, '{"status":"paid"}', /HTTP 201 but no string "id": \{"status":"paid"\}/],
      [200, '{"id":42}', /no string "id": \{"id":42\}/],
      [200, 'null', /no string "id": null/],
    ];
    for (const [status, body, message] of cases) {
      const pay = createHttpPayoutProvider({ url: 'http://provider.invalid', fetch: answering(status, body) });
      await expect(pay.pay(request('e-odd')), `${status} ${body}`).rejects.toThrow(message);
    }
  });

  it('sends exactly the contract: the five fields as JSON to <url>/payouts, the key in the header', async () => {
    let seen: { url: string; init: RequestInit } | undefined;
    const pay = createHttpPayoutProvider({
      url: 'http://provider.invalid/v1',
      fetch: async (url, init) => {
        seen = { url: String(url), init: init! };
        return new Response('{"id":"po_1"}', { status: 200 });
      },
    });
    await pay.pay({ ...request('e-shape'), extra: 'not sent' } as PayoutRequest);
    expect(seen!.url).toBe('http://provider.invalid/v1/payouts');
    expect(seen!.init.method).toBe('POST');
    expect(seen!.init.headers).toMatchObject({
      'content-type': 'application/json',
      'idempotency-key': 'payout:e-shape',
    });
    expect(JSON.parse(String(seen!.init.body))).toEqual({
      key: 'payout:e-shape',
      entryId: 'e-shape',
      accountId: 'acct-1',
      amount: 125,
      currency: 'EUR',
    });
  });

  it('gives up when the caller aborts (a lost lease) or after timeoutMs, the payout staying stored under its key', async () => {
    const pay = createHttpPayoutProvider({ url: provider.url });
    const controller = new AbortController();
    const aborted = pay.pay(request('e-abort-slow'), controller.signal).catch((error: unknown) => error);
    await expect.poll(() => provider.payoutsByEntry().has('e-abort-slow')).toBe(true);
    controller.abort(new Error('lease lost'));
    expect(String(await aborted)).toMatch(/lease lost/);

    const impatient = createHttpPayoutProvider({ url: provider.url, timeoutMs: 200 });
    await expect(impatient.pay(request('e-timeout-slow'))).rejects.toThrow(/timeout/i);
    expect(provider.payoutsByEntry().get('e-timeout-slow')).toHaveLength(1);
  });
});
