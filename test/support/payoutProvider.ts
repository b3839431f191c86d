// A payout provider for tests, over real HTTP (node:http on a random port), that keeps payouts by
// their Idempotency-Key as a real provider does: a second call with the same key and the same
// payout answers the first payout (same id) without paying again; the same key with another
// entry, account, amount or currency is refused (422). It counts what it saw, so a test can say
// how many calls were answered by key, and it can hold answers back (`delayMs`) so that a
// worker's lease runs out while the provider has already paid.
//
//   const provider = await startTestPayoutProvider({ delayMs: (call) => (call.attempt === 1 ? 3_000 : 0) });
//   ... PAYOUT_PROVIDER_URL = provider.url ...
//   provider.snapshot().payouts; await provider.stop();
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as pause } from 'node:timers/promises';

/** A payout as the provider stored it, under its key. */
export interface StoredPayout {
  id: string;
  key: string;
  entryId: string;
  accountId: string;
  amount: number;
  currency: string;
  /** When the provider paid it (this process's clock). */
  paidAt: number;
  /** Calls with this key: 1 for the one that paid, more for those answered by key. */
  calls: number;
}

/** One call as the delay function sees it. */
export interface ProviderCall {
  key: string;
  entryId: string;
  /** The call's rank among calls with this key: 1 for the first. */
  attempt: number;
  /** What the provider answers (before any delay). */
  outcome: 'paid' | 'duplicate' | 'refused' | 'invalid';
}

export interface TestPayoutProviderOptions {
  /** How long to hold back the answer to a call, decided per call (default: none). The payout is stored before the wait. */
  delayMs?: (call: ProviderCall) => number;
  /** Told of each payout as it is stored (before any delay): a bench times the payout from here. */
  onPayout?: (payout: StoredPayout) => void;
}

export interface ProviderSnapshot {
  /** Every POST /payouts, whatever its answer. */
  calls: number;
  /** Calls that paid (one per stored payout). */
  paid: number;
  /** Calls answered with an existing payout by their key (same body). */
  duplicates: number;
  /** Calls refused: the key was first used for another payout (422). */
  refusals: number;
  /** Calls that were not a valid payout request (400). */
  invalid: number;
  /** Calls whose answer was held back. */
  delayed: number;
  payouts: StoredPayout[];
  /** Calls whose answer is being held back now (the payout already stored): a worker is mid-call on each. */
  held: Array<{ key: string; entryId: string; heldMs: number }>;
}

export interface TestPayoutProvider {
  /** The base URL (PAYOUT_PROVIDER_URL): requests go to `<url>/payouts`. */
  url: string;
  snapshot(): ProviderSnapshot;
  /** Payouts per entry id (a correct worker makes exactly one per entry, whatever its key). */
  payoutsByEntry(): Map<string, StoredPayout[]>;
  stop(): Promise<void>;
}

const FIELDS = ['key', 'entryId', 'accountId', 'amount', 'currency'] as const;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.destroyed || response.writableEnded) return;
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The request's payout, or why it is not one. */
function parsePayout(
  body: string,
  header: string | undefined,
): { ok: true; payout: Omit<StoredPayout, 'id' | 'paidAt' | 'calls'> } | { ok: false; error: string } {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { ok: false, error: 'body is not JSON' };
  }
  if (parsed === null || typeof parsed !== 'object') return { ok: false, error: 'body is not an object' };
  const { key, entryId, accountId, amount, currency } = parsed;
  if (
    typeof key !== 'string' ||
    typeof entryId !== 'string' ||
    typeof accountId !== 'string' ||
    typeof currency !== 'string'
  ) {
    return { ok: false, error: 'key, entryId, accountId and currency must be strings' };
  }
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0)
    return { ok: false, error: 'amount must be a positive integer (minor units)' };
  if (header === undefined) return { ok: false, error: 'missing Idempotency-Key header' };
  if (header !== key)
    return { ok: false, error: `Idempotency-Key header ${header} differs from the body's key ${key}` };
  return { ok: true, payout: { key, entryId, accountId, amount, currency } };
}

export async function startTestPayoutProvider(options: TestPayoutProviderOptions = {}): Promise<TestPayoutProvider> {
  const byKey = new Map<string, StoredPayout>();
  const callsByKey = new Map<string, number>();
  const counts = { calls: 0, paid: 0, duplicates: 0, refusals: 0, invalid: 0, delayed: 0 };
  const pending = new AbortController();
  // Every held answer listens on it: as many as calls in flight.
  setMaxListeners(0, pending.signal);
  const held = new Set<{ key: string; entryId: string; since: number }>();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST' || new URL(request.url ?? '/', 'http://x').pathname !== '/payouts') {
      send(response, 404, { error: `no route ${request.method} ${request.url}` });
      return;
    }
    counts.calls++;
    const header = request.headers['idempotency-key'];
    const parsed = parsePayout(await readBody(request), Array.isArray(header) ? header[0] : header);
    // Decided and stored at once, before any delay: the provider has paid even if its answer
    // never reaches the caller, as a real provider's would.
    let status: number;
    let answer: unknown;
    let call: ProviderCall;
    if (!parsed.ok) {
      counts.invalid++;
      status = 400;
      answer = { error: parsed.error };
      call = { key: '', entryId: '', attempt: 1, outcome: 'invalid' };
    } else {
      const { payout } = parsed;
      const attempt = (callsByKey.get(payout.key) ?? 0) + 1;
      callsByKey.set(payout.key, attempt);
      const stored = byKey.get(payout.key);
      if (!stored) {
        const created: StoredPayout = {
          ...payout,
          id: `po_${randomBytes(8).toString('hex')}`,
          paidAt: Date.now(),
          calls: 1,
        };
        byKey.set(payout.key, created);
        counts.paid++;
        options.onPayout?.({ ...created });
        status = 201;
        answer = { id: created.id, status: 'paid' };
        call = { key: payout.key, entryId: payout.entryId, attempt, outcome: 'paid' };
      } else {
        stored.calls++;
        const differs = FIELDS.filter((field) => stored[field] !== payout[field]);
        if (differs.length === 0) {
          counts.duplicates++;
          status = 200;
          answer = { id: stored.id, status: 'paid', replayed: true };
          call = { key: payout.key, entryId: payout.entryId, attempt, outcome: 'duplicate' };
        } else {
          counts.refusals++;
          status = 422;
          answer = {
            error: `Idempotency-Key ${payout.key} was first used for another payout (${differs.join(', ')} differ)`,
            id: null,
          };
          call = { key: payout.key, entryId: payout.entryId, attempt, outcome: 'refused' };
        }
      }
    }
    const delay = options.delayMs?.(call) ?? 0;
    if (delay > 0) {
      counts.delayed++;
      const holding = { key: call.key, entryId: call.entryId, since: Date.now() };
      held.add(holding);
      try {
        await pause(delay, undefined, { signal: pending.signal }).catch(() => undefined);
      } finally {
        held.delete(holding);
      }
    }
    send(response, status, answer);
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    snapshot: () => ({
      ...counts,
      payouts: [...byKey.values()].map((payout) => ({ ...payout })),
      held: [...held].map(({ key, entryId, since }) => ({ key, entryId, heldMs: Date.now() - since })),
    }),
    payoutsByEntry() {
      const grouped = new Map<string, StoredPayout[]>();
      for (const payout of byKey.values())
        grouped.set(payout.entryId, [...(grouped.get(payout.entryId) ?? []), { ...payout }]);
      return grouped;
    },
    async stop() {
      // Held answers are let go, then every connection is closed.
      pending.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
