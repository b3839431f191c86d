// The payout worker's handler (workers/payouts/handler.ts) with a provider that records its calls:
// the key comes from the entry alone (the same whatever the attempt, fencing token or worker), the
// handler's signal reaches the provider, the receipt's id is the completion's result, and an item
// the projection did not make (a client's PAYOUT, a payload that is no payout) pays nothing.
import { describe, expect, it } from 'vitest';
import type { WorkerItem } from '../../packages/sdk/src/index.ts';
import { createPayoutHandler } from '../../workers/payouts/handler.ts';
import type { PayoutProvider, PayoutRequest } from '../../workers/payouts/provider.ts';

function recordingProvider() {
  const calls: Array<{ request: PayoutRequest; signal: AbortSignal | undefined }> = [];
  const provider: PayoutProvider = {
    async pay(request, signal) {
      calls.push({ request, signal });
      return { id: `po_${calls.length}` };
    },
  };
  return { provider, calls };
}

const payload = { entryId: '6650c0ffee:debit', requestId: 'w-1', accountId: 'acct-9', currency: 'EUR', amount: 2_500 };

function item(overrides: Partial<WorkerItem> = {}): WorkerItem {
  return {
    id: 'item-1',
    kind: 'PAYOUT',
    idempotencyKey: `payout:${payload.entryId}`,
    payload,
    version: 2,
    attempts: 1,
    ...overrides,
  } as WorkerItem;
}

describe('the payout handler', () => {
  it("pays under payout:<entryId> with the item's account, amount and currency, and returns the provider's id", async () => {
    const { provider, calls } = recordingProvider();
    const signal = new AbortController().signal;
    const result = await createPayoutHandler(provider)({ item: item(), signal });
    expect(result).toEqual({ providerId: 'po_1', key: 'payout:6650c0ffee:debit' });
    expect(calls).toEqual([
      {
        request: {
          key: 'payout:6650c0ffee:debit',
          entryId: payload.entryId,
          accountId: 'acct-9',
          amount: 2_500,
          currency: 'EUR',
        },
        signal,
      },
    ]);
  });

  it('sends the same key on every attempt, whatever the version (fencing token) or worker', async () => {
    const { provider, calls } = recordingProvider();
    const handle = createPayoutHandler(provider);
    for (const [version, attempts, lockedBy] of [
      [2, 1, 'w-a'],
      [3, 2, 'w-b'],
      [7, 4, 'w-c'],
    ] as const) {
      await handle({ item: item({ version, attempts, lockedBy }), signal: new AbortController().signal });
    }
    expect(new Set(calls.map((call) => call.request.key))).toEqual(new Set(['payout:6650c0ffee:debit']));
  });

  it('pays nothing for a PAYOUT item the projection did not make, or whose payload is not a payout', async () => {
    const { provider, calls } = recordingProvider();
    const handle = createPayoutHandler(provider);
    const signal = new AbortController().signal;
    await expect(handle({ item: item({ idempotencyKey: `client:${payload.entryId}` }), signal })).rejects.toThrow(
      /was not created by the payout projection/,
    );
    await expect(handle({ item: item({ payload: { ...payload, amount: 0 } }), signal })).rejects.toThrow(
      /is not a payout: .*amount/,
    );
    await expect(handle({ item: item({ payload: { entryId: payload.entryId } }), signal })).rejects.toThrow(
      /is not a payout: .*accountId/,
    );
    await expect(handle({ item: item({ payload: null }), signal })).rejects.toThrow(/is not a payout/);
    expect(calls).toEqual([]);
  });
});
