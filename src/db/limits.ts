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

/** Bounds of the database layer's reads and start-up. */
export const DbLimits = Object.freeze({
  /**
   * How long a read that names a consistency token waits on the member the driver chose
   * (secondaryPreferred) for that member to apply the token's time, before it asks the primary,
   * which always has it. A healthy set's lag is tens of milliseconds (bench:failover: p99 36 ms
   * under majority load), so 1 s is far beyond it: a member still behind after it is lagging, and
   * a caller should get its answer from a member that has the write rather than wait on it.
   */
  consistentReadWaitMs: 1_000,
  /**
   * How long a start-up task may keep failing because the set has no primary (a step-down, a
   * killed primary) before the process gives up: three of mongod's default election timeouts
   * (10 s each), enough for an election and a retried one. A process started during a failover
   * then waits for the new primary instead of exiting.
   */
  startupElectionWaitMs: 30_000,
  /** The pause between two tries of a start-up task during an election: a heartbeat or two. */
  startupRetryPauseMs: 250,
  /**
   * How long a call keeps rerunning a write that met a step-down (elections.ts): the budget a money
   * move has (src/ledger/limits.ts, moveRetryBudgetMs), so every mutation answers within about the
   * same time, and two or three elections in a row of a set at the tests' 1 s election timeout.
   */
  electionRetryBudgetMs: 10_000,
  /** First pause between two such reruns, doubling up to the largest (full jitter). */
  electionRetryPauseBaseMs: 10,
  electionRetryPauseMaxMs: 200,
});
