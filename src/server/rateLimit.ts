// A rate limit per API key: one token bucket per key, sized by the key's role. Each operation
// (each one of a batch, each one over graphql-ws) takes a token before it executes (a field that
// carries many items, submitMoves' moves, one per item: src/graphql/rateLimitTokens.ts), as the
// last step of the admission screen (admission.ts); an empty
// bucket answers the GraphQL error RATE_LIMITED with `retryAfterSeconds` in its extensions (and
// HTTP 429 with Retry-After). Buckets are per configured key, so their number is bounded by
// API_KEYS. This is the bucket of one process: the app shares one bucket per key between all its
// processes in MongoDB (sharedRateLimit.ts), and falls back on this one while the database is
// unreachable.
import { GraphQLError } from 'graphql';
import type { Role } from '../access/roles.ts';
import { ErrorCode } from '../graphql/errors.ts';
import type { GraphqlTelemetry } from './telemetry.ts';
import type { RateLimits } from '../access/rateLimits.ts';

export type { BucketSize, RateLimits } from '../access/rateLimits.ts';

interface Bucket {
  tokens: number;
  refilledAtMs: number;
}

export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    private readonly limits: RateLimits,
    private readonly telemetry: Pick<GraphqlTelemetry, 'rateLimitedTotal'>,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /**
   * Takes `tokens` from the key's bucket: null when allowed, else the seconds until they are due.
   * An operation worth more than the whole bucket (a batch of moves past the burst) waits for a
   * full bucket and leaves it in debt, so the sustained rate still counts every token.
   */
  take(keyId: string, role: Role, tokens = 1): number | null {
    const { perSecond, burst } = this.limits[role];
    const now = this.nowMs();
    const bucket = this.#buckets.get(keyId) ?? { tokens: burst, refilledAtMs: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.refilledAtMs) / 1000) * perSecond);
    bucket.refilledAtMs = now;
    this.#buckets.set(keyId, bucket);
    const needed = Math.min(tokens, burst);
    if (bucket.tokens >= needed) {
      bucket.tokens -= tokens;
      return null;
    }
    this.telemetry.rateLimitedTotal.inc({ role });
    return Math.max(1, Math.ceil((needed - bucket.tokens) / perSecond));
  }

  /** The refusal for an operation of this principal worth `tokens` (src/graphql/rateLimitTokens.ts), or null when it may run. */
  check(principal: { keyId: string; role: Role } | null, tokens = 1): GraphQLError | null {
    if (principal === null) return null; // unauthenticated: refused by the auth checker instead
    const retryAfterSeconds = this.take(principal.keyId, principal.role, tokens);
    return retryAfterSeconds === null ? null : rateLimitedError(principal.role, retryAfterSeconds);
  }
}

/** The one refusal of the rate limit, whichever bucket refused: RATE_LIMITED, HTTP 429 and Retry-After. */
export function rateLimitedError(role: Role, retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(`Rate limit of the ${role} role exceeded; retry after ${retryAfterSeconds} s.`, {
    extensions: {
      code: ErrorCode.RATE_LIMITED,
      retryAfterSeconds,
      http: { status: 429, headers: new Map([['retry-after', String(retryAfterSeconds)]]) },
    },
  });
}
