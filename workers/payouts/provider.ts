// The payout provider as the payout worker sees it: one call that pays an entry's withdrawal out,
// under a key derived from the entry alone. The key is what makes a payout happen once (W7):
// a worker killed mid-call, or whose lease is taken over while the provider is still answering,
// leaves the item to another worker, which calls again with the same key, and the provider
// answers that call with the payout it already made instead of paying twice.

export interface PayoutRequest {
  /** `payout:<entryId>`: the same on every attempt and every worker (payoutKey). */
  key: string;
  entryId: string;
  accountId: string;
  /** Minor units. */
  amount: number;
  currency: string;
}

export interface PayoutReceipt {
  /** The provider's reference for the payout. */
  id: string;
}

export interface PayoutProvider {
  pay(request: PayoutRequest, signal?: AbortSignal): Promise<PayoutReceipt>;
}

/**
 * The provider's idempotency key of an entry's payout. Never per attempt, fencing token or
 * worker: a key that changed between attempts would let a retry pay the entry a second time.
 */
export function payoutKey(entryId: string): string {
  return `payout:${entryId}`;
}

/** The provider answered, but not with a payout: its status and (the start of) its body say why. */
export class PayoutProviderError extends Error {
  override readonly name = 'PayoutProviderError';
  constructor(
    message: string,
    /** The HTTP status, or null when a 2xx answer's body was not a receipt. */
    readonly status: number | null,
    readonly body: string,
  ) {
    super(message);
  }
}

export interface HttpPayoutProviderOptions {
  /** The provider's base URL; requests go to `<url>/payouts`. */
  url: string;
  fetch?: typeof fetch;
  /** Gives up on one call after this long (default 10 000). The item's lease is what retries it. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** How much of an unexpected body an error message quotes. */
const BODY_EXCERPT_CHARS = 500;

/**
 * The provider over HTTP, as DESIGN's contract says: POST `{ key, entryId, accountId, amount,
 * currency }` as JSON to `<url>/payouts` with `Idempotency-Key: <key>`; a 2xx JSON answer with a
 * string `id` is the receipt. Anything else (a refusal such as 409 or 422 included) throws a
 * PayoutProviderError that quotes what came back.
 */
export function createHttpPayoutProvider(options: HttpPayoutProviderOptions): PayoutProvider {
  const endpoint = new URL('payouts', options.url.endsWith('/') ? options.url : `${options.url}/`).toString();
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    async pay(request, signal) {
      const body = JSON.stringify({
        key: request.key,
        entryId: request.entryId,
        accountId: request.accountId,
        amount: request.amount,
        currency: request.currency,
      });
      const timeout = AbortSignal.timeout(timeoutMs);
      const response = await fetchImpl(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': request.key },
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      const text = await response.text();
      const excerpt = text.length > BODY_EXCERPT_CHARS ? `${text.slice(0, BODY_EXCERPT_CHARS)}…` : text;
      if (response.status < 200 || response.status > 299) {
        throw new PayoutProviderError(
          `payout provider refused ${request.key}: HTTP ${response.status}: ${excerpt || '(empty body)'}`,
          response.status,
          text,
        );
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new PayoutProviderError(
          `payout provider answered ${request.key} with HTTP ${response.status} but a body that is not JSON: ${excerpt || '(empty body)'}`,
          null,
          text,
        );
      }
      const id = (parsed as { id?: unknown } | null)?.id;
      if (typeof id !== 'string' || id === '') {
        throw new PayoutProviderError(
          `payout provider answered ${request.key} with HTTP ${response.status} but no string "id": ${excerpt}`,
          null,
          text,
        );
      }
      return { id };
    },
  };
}
