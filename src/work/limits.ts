// Every bound of the work items. Units go last.

export const WorkLimits = Object.freeze({
  /** Transitions kept per item; older ones fall off the front. */
  historyLengthMax: 64,
  /** A work item's `maxAttempts` (claims before it is dead-lettered): when not given, and the most it may ask for. */
  maxAttemptsDefault: 5,
  maxAttemptsMax: 100,
  leaseDefaultSeconds: 30,
  leaseMaxSeconds: 3_600,
  /** Retry backoff: base * 2^(attempts-1), capped. */
  retryBackoffBaseMs: 1_000,
  retryBackoffMaxMs: 5 * 60_000,
  /** Kinds one claim may name, and one status subscription may filter on. */
  kindsPerClaimMax: 32,
  /** Stalled items out of attempts one claim may dead-letter on its way to a claimable one. */
  deadLettersPerClaimMax: 16,
  pageSizeMax: 100,
  /** `priority` of an item: a small symmetric range is all that ordering needs, and it stays an int32. */
  priorityMin: -1_000,
  priorityMax: 1_000,
  /** How far ahead `runAt` may be: a year; further is a scheduler's job, not a queue's. */
  runAtAheadMaxMs: 366 * 24 * 3_600_000,
  /**
   * Items one `claimWorkItems` may take: each is its own conditional write, so this bounds the
   * work of one call (16 writes); a worker's `concurrency` above it just claims in several calls.
   */
  claimBatchMax: 16,
  /**
   * Rounds of one `claimWorkItems`: a round reads candidates, then claims each by its status and
   * version; candidates lost to other claimers are replaced by a fresh read, at most twice more.
   */
  claimBatchRoundsMax: 3,
  /**
   * Items one `completeWorkItems` (or `heartbeatWorkItems`) may name: each is its own fenced write,
   * sent side by side, so this bounds the work of one call as `claimBatchMax` does a claim's. A
   * worker holds at most its concurrency plus one claim batch ahead (`claimBatchMax`), so 64
   * covers a worker of concurrency 48 in one call; a bigger one splits its batch. Results are up
   * to `resultMaxBytes` each, so a full batch of the largest results would pass the HTTP body
   * limit (1 MiB by default): the SDK also splits a batch by its bytes.
   */
  completeBatchMax: 64,
  heartbeatBatchMax: 64,
  /**
   * How stale an API process's list of limited kinds may be (W5): limits are set at start-up, so a
   * second is plenty, and a claim then needs no extra read (the limit itself is read by the write).
   */
  kindLimitsRefreshMs: 1_000,
  /**
   * Attempts of one claim's (or heartbeat's) transaction of a limited kind when its writes
   * conflict with another's: each conflict means another claim moved on, so a few dozen at
   * ~2 ms apart are plenty; past them the caller gets the error (an INTERNAL_SERVER_ERROR).
   */
  placeAttemptsMax: 30,
  placeRetryPauseMs: 2,
  /** A page of `workItems` when `first` is not given. */
  pageSizeDefault: 20,
  /** Two concurrent upserts of one key may both miss and one then hits the unique index: once more. */
  upsertAttemptsMax: 2,
  /** The longest kind name (an identifier; createWorkItem refuses longer ones). */
  kindLengthMax: 64,
  /**
   * Kinds one process labels its work metrics with (`work_started_total{kind}` and the others), the
   * first seen besides PAYOUT; later kinds count under `_other`. Kinds are client input: unbounded,
   * each made-up kind was a new series on /metrics (issue 41). Far above the kinds a deployment runs.
   */
  metricKindLabelsMax: 50,
  payloadMaxBytes: 64 * 1024,
  resultMaxBytes: 64 * 1024,
  /**
   * Levels a payload or a result may nest (`{}` is one level). MongoDB documents 100 levels as the
   * most it stores, the document itself counted ("Nested Depth for BSON Documents" in the manual's
   * Limits and Thresholds; SERVER-26703 made an insert nested 101 levels fail). Recent mongod
   * accepts more (src/mongo/bson/bson_depth.h: kDefaultMaxAllowableDepth = 200, less
   * kExtraSystemDepthLevels = 20 kept for the oplog's wrapping), so the documented 100 holds on
   * every server. A payload is stored two levels down, in the item and again in its
   * `createOutcome`/`completionOutcome` (pipelines.ts): 100 - 2 = 98. Checked before any
   * recursive walk of the value.
   */
  jsonDepthMax: 100 - 2,
});

/** The dashboard reads (`workItems`, `workQueueStats`). */
export const ReadLimits = Object.freeze({
  /** `totalCount` of `workItems` stops counting here (`totalCountCapped` says so). */
  itemsCountMax: 10_000,
  /** One stats count per (kind, status) stops here: the cost of a call is bounded, however long the queue. */
  statsCountMax: 10_000,
  /** Distinct kinds reported by the stats; more than this is a misuse of `kind`. */
  statsKindsMax: 100,
  /** Groups reported per kind by the stats (W9); the busiest tenants are what a console shows. */
  statsGroupsMax: 100,
  /** `recentWorkItems`: a screenful of rows, the console's table on open (it keeps 200 live ones). */
  recentItemsMax: 50,
  /** Items one work audit reads (newest changed first): a window's worth at the seed's 900 payouts/s is ~1 s, so a bounded sample, said so by `capped`. */
  auditItemsMax: 10_000,
});

/** Schedules (flow 8, W8) and their firer. */
export const ScheduleLimits = Object.freeze({
  nameLengthMax: 128,
  cronLengthMax: 200,
  /** `catchUp: ALL` fires at most this many of the periods missed while no process ran (the latest ones). */
  catchUpAllMax: 100,
  /** Periods one schedule fires in one pass; a longer backlog continues in the next pass, at once. */
  periodsPerPassMax: 100,
  /** Schedules one pass reads; more due ones are read by the next pass, at once. */
  schedulesPerPassMax: 100,
  /** `schedules`: at most this many, by name. */
  listMax: 500,
  /** Next fire times shown per schedule. */
  nextFireTimesMax: 10,
  /** The firer's lease (database clock); a holder that dies is taken over within it plus a tick. */
  firerLeaseMs: 5_000,
  /** How often the firer looks for due periods (and renews its lease). */
  firerTickMs: 500,
  /**
   * Every API process records a tick of the firer's loop (every `firerTickMs`, lease holder or
   * not). A process starting that finds no tick of any process for longer than this knows none
   * ran since the last one: the periods before its first tick were missed while no process ran,
   * and follow their schedule's catchUp. A holder that dies while others live leaves no such gap
   * (they tick on), and a process that ticked before has run since, stalled or not: their periods
   * are only late, fired, never skipped. Six ticks, as process liveness allows 2.5 s for five.
   */
  outageAfterMs: 3_000,
});
