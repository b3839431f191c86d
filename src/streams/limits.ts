// Every bound of the change-stream watchers and the payout projection. Units go last.

export const FeedLimits = Object.freeze({
  /** Events buffered for one subscriber; beyond it the subscriber is told to resync and ended. */
  subscriberQueueMax: 1_000,
  /** Subscribers of one feed in one process; beyond it a new subscription is refused (SUBSCRIPTION_LIMIT, limit `feed`). */
  subscribersPerFeedMax: 10_000,
  /**
   * Subscriptions one WebSocket may hold, over every feed. The console holds 3 on its one socket
   * (work items, ledger entries, the open account's balances; src/console/console.js), 4 for a
   * moment while it switches accounts; an SDK client also shares one socket among its
   * subscriptions. 100 is 25 consoles on one socket, and 1% of a feed: one socket can no longer
   * take a feed's every slot (issue 29: one socket took all 10,000).
   */
  subscriptionsPerSocketMax: 100,
  /**
   * Subscriptions one API key may hold in one process, over all its sockets: a fifth of a feed
   * (subscribersPerFeedMax / 5), so one key can never take more than a fifth of any feed and four
   * fifths stay for the others. One key usually serves a whole client (every console of a team,
   * every worker); the largest legitimate use measured is the fan-out benchmark's 1,000
   * subscribers on one service key (bench/scenarios/fanout.ts), half of this.
   */
  subscriptionsPerKeyMax: 2_000,
  /** Catch-up streams (`after:`) open at once per feed; later ones wait for a slot. */
  catchUpStreamsMax: 8,
  /** Events one catch-up may replay before it gives up and asks the client to resync. */
  catchUpEventsMax: 10_000,
  /** How long one getMore waits for events; also bounds how long closing a stream takes. */
  awaitTimeMs: 500,
  /** A failed stream (feed or projection) reopens after 100 ms, doubling to at most 5 s (up to half of each delay random), and never gives up. */
  reopenBackoffBaseMs: 100,
  reopenBackoffMaxMs: 5_000,
});

export const ProjectionLimits = Object.freeze({
  /** How long a lease lasts unless renewed; a crashed holder is replaced after at most this. */
  leaseDurationMs: 15_000,
  /** How often the holder renews (and stores its position while idle). */
  leaseRenewIntervalMs: 5_000,
  /** How often a standby process tries to take the lease. */
  leaseAcquireIntervalMs: 1_000,
  /** Consecutive stream failures before the holder releases the lease to another process. */
  streamFailuresMax: 8,
  /** Withdrawals read per page while catching up (one `$in` lookup of their payouts per page). */
  catchUpBatchMax: 500,
  /**
   * How far before its watermark a catch-up starts: the longest a withdrawal entry can take from
   * its `createdAt` stamp (the API process's clock) to its commit, plus the clock skew between API
   * processes. A move is one transaction, which mongod aborts after 60 s
   * (transactionLifetimeLimitSeconds); 4 more minutes cover skew. The cost is a walk over at most
   * 5 minutes of withdrawals more.
   */
  catchUpMarginMs: 5 * 60_000,
  /**
   * Pages a catch-up walks before it pauses (and logs and counts the pause), so that a long walk
   * after a large loss shares the database with live traffic. It then resumes: nothing is dropped.
   */
  catchUpPagesPerSliceMax: 200,
  /** How long a catch-up pauses after each slice of pages. */
  catchUpPauseMs: 50,
  /**
   * How long the holder lets withdrawals gather after writing the payouts of a batch that was not
   * full, before it reads the stream again. Without it, one caller's withdrawals at a time (c=1,
   * ~3 ms each) each cost the projection a getMore, a payout write and a token store, three
   * commands that the single-threaded engine runs before that caller's next withdrawal. 20 ms
   * gathers ~6 of them into one batch (under half a command each), and adds at most 20 ms to a
   * payout's lag, which nothing waits on (payouts are worked by queue, P1 is about exactly-once).
   */
  batchGatherMs: 20,
});

/** Exponential backoff for the n-th consecutive failure (n ≥ 1), capped. */
export function backoffMs(failure: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, failure - 1));
}
