// Every bound of the database layer's own background work, in one place. Units go last.

/**
 * R3 (docs/ledger.md, "A process killed mid-transaction"): the open transactions of a killed API
 * process stop holding their documents within `orphanEndBoundMs`, with the server left at
 * transactionLifetimeLimitSeconds 60. Each process renews a liveness lease every
 * `heartbeatIntervalMs`; it lapses `leaseMs` after the last renewal; every process looks for
 * idle transactions of lapsed processes every `sweepIntervalMs` and kills their sessions. So a
 * killed process's transactions end at most leaseMs + sweepIntervalMs + one sweep's round trips
 * after its death: 2,500 + 1,000 + well under 500 ms = under 4 s, inside the 5 s bound with room
 * for a busy event loop.
 */
export const ProcessLivenessLimits = Object.freeze({
  /** The contract: kill → the orphan's writes released. */
  orphanEndBoundMs: 5_000,
  /**
   * A lease outlives five missed heartbeats: a live process whose event loop stalls longer than
   * that has its open transactions ended (they abort, their moves retry under the same key; no
   * money is moved twice), which is the price of noticing a dead one within the bound.
   */
  leaseMs: 2_500,
  heartbeatIntervalMs: 500,
  sweepIntervalMs: 1_000,
  /**
   * A lapsed process's lease document is deleted by the server's TTL monitor this long after it
   * lapsed (it runs every 60 s): long after the server's own 60 s limit has ended whatever the
   * process left open, so no orphan outlives the document that names it.
   */
  lapsedLeaseKeepSeconds: 3_600,
  /** Sessions one sweep kills at most (one killSessions command); the next sweep takes the rest. */
  sessionsPerSweepMax: 1_000,
});
