// Every bound of the payout projection. Units go last.

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

/**
 * The BullMQ payout sink's bounds (PAYOUT_QUEUE=bullmq; docs/payout-queue.md). The job options are
 * set on every add, so a queue shared with other producers keeps them per job.
 */
export const PayoutQueueLimits = Object.freeze({
  /** An add not acknowledged within this fails (and is retried from the stored position); Redis answers in about a millisecond. */
  addTimeoutMs: 5_000,
  /** A Redis ping slower than this shows Redis as down on /readyz. */
  pingTimeoutMs: 1_000,
  /** ioredis gives up one connection attempt after this (it keeps reconnecting). */
  connectTimeoutMs: 2_000,
  /** BullMQ's attempts per payout job: the provider call is retried this many times in all, under one key per entry. */
  jobAttempts: 8,
  /** First retry delay of BullMQ's exponential backoff (1 s, 2 s, 4 s … about 2 minutes over 8 attempts). */
  jobBackoffMs: 1_000,
  /** Completed jobs kept for inspection: one day or 10,000 jobs, whichever is less. Nothing relies on them (the MongoDB record is the key). */
  completedKeepSeconds: 24 * 3600,
  completedKeepCount: 10_000,
});
