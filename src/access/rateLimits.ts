// The size of each role's token bucket, apart from the limiter (rateLimit.ts), so config.ts can
// parse RATE_LIMITS without reaching graphql.
import type { Role } from './roles.ts';

export interface BucketSize {
  /** Tokens added per second: the sustained rate. */
  perSecond: number;
  /** Bucket capacity: the largest burst. */
  burst: number;
}

export type RateLimits = Readonly<Record<Role, BucketSize>>;
