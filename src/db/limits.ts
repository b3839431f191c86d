// Limits of the database layer, the unit last.
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
});
