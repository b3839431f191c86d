// The rate limit shared by every API process: one token bucket per API key in MongoDB
// (`rate_limit_buckets`, `_id`: the key's fingerprint), so N processes admit what one would, not N
// times it. The bucket refills by the database server's clock ($$NOW), which all processes share.
//
// Cost: a process does not ask the database for every operation. When its own reserve of a key's
// tokens runs short, one conditional update (findOneAndUpdate with an update pipeline) refills the
// shared bucket, checks it holds the operation's tokens and takes them plus a small reserve
// (`reserveTokens`: 20 ms of the role's sustained rate), which the process's next operations spend
// locally. Every token admitted was taken from the shared bucket, so the processes together never
// exceed it; what a process holds unspent (at most one reserve per key, dropped after
// `reserveMaxAgeMs`) is the most the others can be short. At the default service rate (5,000/s)
// that is one database round trip per 100 operations; at a rate under 50/s, one per operation.
//
// While the database cannot be reached the process falls back on its own bucket (rateLimit.ts),
// so a runaway client is still held, per process, and counts the fallback.
import type { GraphQLError } from 'graphql';
import type { Collection, Db } from 'mongodb';
import type { Role } from '../access/roles.ts';
import type { RateLimits } from '../access/rateLimits.ts';
import type { Logger } from '../observability/logger.ts';
import { LogThrottle } from '../observability/logThrottle.ts';
import { RateLimiter, rateLimitedError } from './rateLimit.ts';
import type { GraphqlTelemetry } from './telemetry.ts';

export const RATE_LIMIT_BUCKETS_COLLECTION = 'rate_limit_buckets';

export const SharedRateLimitLimits = Object.freeze({
  /**
   * A process's local reserve, in milliseconds of the role's sustained rate: 20 ms keeps what
   * N processes may hold unspent at N × 2% of a second's budget, and at 5,000/s saves 99 round
   * trips in 100.
   */
  reserveRateMs: 20,
  /** A reserve unspent this long is dropped, so an idle process does not sit on tokens. */
  reserveMaxAgeMs: 1_000,
  /**
   * Reservations one operation waits through before it is refused: each either serves it, finds
   * the bucket short (a refusal), or was sent before it arrived (then the next one counts it).
   */
  waitRoundsMax: 8,
  /** Log lines about an unreachable bucket store, per minute. */
  fallbackLogsPerMinuteMax: 1,
});

interface BucketDoc {
  _id: string;
  /** Tokens left at `refilledAt`; negative after a batch larger than the bucket (a debt). */
  tokens: number;
  refilledAt: Date;
  /** What the last reservation granted (read back by the process that made it). */
  granted: number;
}

interface Reserve {
  tokens: number;
  takenAtMs: number;
}

/** What one reservation asked for, took, and left in the shared bucket. */
interface Reservation {
  wanted: number;
  granted: number;
  tokensLeft: number;
}

export class SharedRateLimiter {
  readonly #buckets: Collection<BucketDoc>;
  readonly #reserves = new Map<string, Reserve>();
  /** The reservation in flight per key; operations arriving meanwhile wait for it. */
  readonly #inFlight = new Map<string, Promise<Reservation | null>>();
  /** Tokens the operations waiting on a key's reservation need: the next reservation asks for them too. */
  readonly #waitingTokens = new Map<string, number>();
  readonly #fallback: RateLimiter;
  readonly #logThrottle = new LogThrottle({
    windowMs: 60_000,
    perWindowMax: SharedRateLimitLimits.fallbackLogsPerMinuteMax,
    keysMax: 1,
  });

  constructor(
    private readonly limits: RateLimits,
    db: Db,
    private readonly telemetry: Pick<GraphqlTelemetry, 'rateLimitedTotal' | 'rateLimitFallbacksTotal'>,
    private readonly logger: Logger,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    // w:1 and no journal wait: a bucket rolled back in a failover only forgets a few tokens taken.
    this.#buckets = db.collection<BucketDoc>(RATE_LIMIT_BUCKETS_COLLECTION, {
      readPreference: 'primary',
      writeConcern: { w: 1 },
    });
    this.#fallback = new RateLimiter(limits, telemetry, nowMs);
  }

  /** Tokens a process takes beyond what an operation needs, to spend locally next. */
  reserveTokens(role: Role): number {
    return Math.floor((this.limits[role].perSecond * SharedRateLimitLimits.reserveRateMs) / 1000);
  }

  /**
   * Takes `tokens` from the key's shared bucket (through this process's reserve): null when
   * allowed, else the seconds until they are due. Same rule as one process's bucket: an operation
   * worth more than the whole bucket waits for a full bucket and leaves it in debt. One
   * reservation per key is in flight at a time: operations arriving meanwhile add what they need
   * to the next one and wait for it, so a burst of N operations costs one round trip, not N.
   */
  async take(keyId: string, role: Role, tokens = 1): Promise<number | null> {
    let last: Reservation | null = null;
    for (let round = 0; round < SharedRateLimitLimits.waitRoundsMax; round++) {
      if (this.#spend(keyId, tokens)) return null;
      // The last reservation found the bucket short of what it asked for: what is left is refused.
      if (last !== null && last.granted < last.wanted) break;
      const inFlight = this.#inFlight.get(keyId);
      if (inFlight !== undefined) {
        this.#waitingTokens.set(keyId, (this.#waitingTokens.get(keyId) ?? 0) + tokens);
        try {
          last = await inFlight;
        } finally {
          this.#waitingTokens.set(keyId, (this.#waitingTokens.get(keyId) ?? tokens) - tokens);
        }
      } else {
        last = await this.#startReservation(keyId, role, tokens - this.#held(keyId));
      }
      if (last === null) return this.#fallback.take(keyId, role, tokens);
    }
    this.telemetry.rateLimitedTotal.inc({ role });
    const { perSecond, burst } = this.limits[role];
    return Math.max(1, Math.ceil((Math.min(tokens, burst) - (last?.tokensLeft ?? 0)) / perSecond));
  }

  /** Tokens of this process's unexpired reserve for the key. */
  #held(keyId: string): number {
    const reserve = this.#reserves.get(keyId);
    return reserve && this.nowMs() - reserve.takenAtMs < SharedRateLimitLimits.reserveMaxAgeMs ? reserve.tokens : 0;
  }

  /** Spends `tokens` of the reserve if it holds them. */
  #spend(keyId: string, tokens: number): boolean {
    const held = this.#held(keyId);
    if (held < tokens) return false;
    this.#reserves.get(keyId)!.tokens = held - tokens;
    return true;
  }

  /**
   * One reservation for the key: what this operation lacks, what the waiting operations asked
   * for, and the reserve. Resolves null when the store could not be reached (the caller falls back).
   */
  #startReservation(keyId: string, role: Role, need: number): Promise<Reservation | null> {
    const wanted = need + (this.#waitingTokens.get(keyId) ?? 0) + this.reserveTokens(role);
    const reservation = this.#reserve(keyId, role, need, wanted).then(
      (answer) => {
        if (answer.granted > 0)
          this.#reserves.set(keyId, { tokens: this.#held(keyId) + answer.granted, takenAtMs: this.nowMs() });
        return answer;
      },
      (error: unknown) => {
        this.telemetry.rateLimitFallbacksTotal.inc();
        const { write, suppressed } = this.#logThrottle.take('fallback');
        if (write)
          this.logger.warn(
            { err: error, suppressed },
            'rate limit: the shared bucket is unreachable; this process limits on its own bucket meanwhile',
          );
        return null;
      },
    );
    const settled = reservation.finally(() => this.#inFlight.delete(keyId));
    this.#inFlight.set(keyId, settled);
    return settled;
  }

  /** The refusal for an operation of this principal worth `tokens`, or null when it may run. */
  async check(principal: { keyId: string; role: Role } | null, tokens = 1): Promise<GraphQLError | null> {
    if (principal === null) return null; // unauthenticated: refused by the auth checker instead
    const retryAfterSeconds = await this.take(principal.keyId, principal.role, tokens);
    return retryAfterSeconds === null ? null : rateLimitedError(principal.role, retryAfterSeconds);
  }

  /**
   * One conditional update: refill by the database clock (capped at the burst); when the bucket
   * holds `need` (or is full, for an operation larger than the bucket), take at least `need` and
   * at most `want`; otherwise take nothing. Returns what it took and what is left.
   */
  async #reserve(keyId: string, role: Role, need: number, want: number): Promise<Reservation> {
    const { perSecond, burst } = this.limits[role];
    const elapsedSeconds = { $divide: [{ $subtract: ['$$NOW', { $ifNull: ['$refilledAt', '$$NOW'] }] }, 1000] };
    const doc = await this.#buckets.findOneAndUpdate(
      { _id: keyId },
      [
        {
          $set: {
            tokens: {
              $min: [burst, { $add: [{ $ifNull: ['$tokens', burst] }, { $multiply: [elapsedSeconds, perSecond] }] }],
            },
            refilledAt: '$$NOW',
          },
        },
        {
          $set: {
            granted: {
              $cond: [
                { $gte: ['$tokens', Math.min(need, burst)] },
                { $max: [need, { $min: [want, { $floor: '$tokens' }] }] },
                0,
              ],
            },
          },
        },
        { $set: { tokens: { $subtract: ['$tokens', '$granted'] } } },
      ],
      { upsert: true, returnDocument: 'after', projection: { tokens: 1, granted: 1 } },
    );
    if (doc === null) throw new Error(`rate limit bucket ${keyId}: the upsert returned no document`);
    return { wanted: want, granted: doc.granted, tokensLeft: doc.tokens };
  }
}
