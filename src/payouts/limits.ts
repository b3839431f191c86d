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
