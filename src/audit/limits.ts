// Every bound and period of the ledger audit. Units go last.

export const AuditLimits = Object.freeze({
  /** How long the audit lease lasts unless renewed; a crashed holder is replaced after at most this. */
  leaseDurationMs: 30_000,
  /** How often every process looks at the lease (and, holding it, whether a run is due). */
  tickIntervalMs: 2_000,
  /** Accounts changed since the last run are checked this often. */
  incrementalPeriodMs: 60_000,
  /** Every account, transfer and withdrawal is checked this often. */
  fullPeriodMs: 60 * 60_000,
  /**
   * Entries younger than this (by the database clock, against their `createdAt` stamp) wait for
   * the next run: a move in flight, or a payout the projection has not made yet, is no mismatch.
   * The projection's lease (15 s) plus its stream's reopen backoff stays well under it.
   */
  settleMs: 60_000,
  /** An incremental run starts this far before the previous run's end: entries stamped before
   *  they committed (the payout catch-up's margin, for the same reason). */
  incrementalMarginMs: 5 * 60_000,
  /** A request pending longer than this is undecided past its lease (G5: lease plus 10 s, with room). */
  pendingRequestMaxMs: 5 * 60_000,
  /** Accounts (and entries) read per page. */
  pageSizeMax: 500,
  /** An account whose balance and journal disagree is read again after this, once. */
  recheckDelayMs: 1_000,
  /** Mismatches kept in a run's record; the count is always exact. */
  mismatchesStoredMax: 1_000,
  /** Runs kept in the results collection. */
  runsKeptMax: 100,
});
