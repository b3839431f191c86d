// Every bound of the work items. Units go last.

export const WorkLimits = Object.freeze({
  /** Transitions kept per item; older ones fall off the front. */
  historyLengthMax: 64,
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
  /** A page of `workItems` when `first` is not given. */
  pageSizeDefault: 20,
  /** Two concurrent upserts of one key may both miss and one then hits the unique index: once more. */
  upsertAttemptsMax: 2,
  /** The longest kind name (an identifier; createWorkItem refuses longer ones). */
  kindLengthMax: 64,
  payloadMaxBytes: 64 * 1024,
  resultMaxBytes: 64 * 1024,
});

/** The dashboard reads (`workItems`, `workQueueStats`). */
export const ReadLimits = Object.freeze({
  /** `totalCount` of `workItems` stops counting here (`totalCountCapped` says so). */
  itemsCountMax: 10_000,
  /** One stats count per (kind, status) stops here: the cost of a call is bounded, however long the queue. */
  statsCountMax: 10_000,
  /** Distinct kinds reported by the stats; more than this is a misuse of `kind`. */
  statsKindsMax: 100,
});
