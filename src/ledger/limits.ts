import { invariant } from '../lib/assert.ts';

// Every bound of the ledger in one place. Units go last in the names.

/**
 * Attempts of one move's transaction (same key) before the caller hears a transient answer
 * (RequestInProgress or OutcomeUnknown) and retries later with the same key.
 */
export const moveAttemptsMax = 100;
/**
 * Wall time one call spends on its move, waiting for its account's turn included: a crashed
 * process's open transaction holds an account until the survivors end it (R3, under 5 s:
 * src/db/limits.ts), and the caller should hear back even if that takes longer.
 */
export const moveRetryBudgetMs = 10_000;
/** First pause between two attempts; doubles each attempt up to `moveBackoffMaxMs`, with full jitter. */
export const moveBackoffBaseMs = 1;
/**
 * Largest pause between two attempts. Short: the transaction that holds the account needs a few
 * milliseconds, and an account nobody writes while all its contenders sleep is wasted.
 */
export const moveBackoffMaxMs = 16;
/** Largest page any list query returns. */
export const pageSizeMax = 100;
/** Page size when the caller names none. */
export const pageSizeDefault = 20;
/** Longest account id or request id accepted. */
export const idLengthMax = 128;
/** Longest page cursor accepted (an encoded account id fits easily). */
export const cursorLengthMax = 256;
/** Accounts one balance subscription may follow (a console page of accounts, not a crawl). */
export const accountsPerSubscriptionMax = 100;

/** The dashboard reads (`ledgerEntries`, `ledgerTotals`, `ledgerRequest`). */
export const DashboardLimits = Object.freeze({
  /** Largest page of `ledgerEntries`. */
  entriesPageMax: 100,
  entriesPageDefault: 20,
  /** `totalCount` stops counting here (`totalCountCapped` then says so): a count is an index walk. */
  entriesCountMax: 10_000,
  /**
   * Documents one read of `ledgerTotals` takes (a slice of the journal or of the accounts): the
   * most one of its commands costs the engine, and an embedded engine's event loop, at a time
   * (issue 41). About a millisecond of work each; a range of N entries takes N / 1,000 slices.
   */
  totalsSliceMax: 500,
  /** Slices of all `ledgerTotals` of one process read at once; the rest wait their turn, first come first served. */
  totalsSlicesConcurrentMax: 2,
});

/**
 * Most moves one group commit takes from an account's queue into one transaction. Above about a
 * hundred, the per-move saving is already under one command in a hundred (six commands a group),
 * while a bigger group only makes the moves behind it wait longer for the turn. It also caps what
 * one transaction holds in the server's memory and in one `applyOps` oplog entry.
 */
export const groupMovesMax = 100;

/**
 * Group transactions of one process in flight at once (on disjoint accounts, moveDispatch.ts):
 * while they commit, the moves that arrive gather for the next ones. One leaves the database idle
 * while each group's majority commit travels; more split the waiting moves into smaller groups.
 * Measured with `npm run bench` (docs/benchmarks.md).
 */
export const groupsInFlightMax = 2;

/**
 * Upper bound of what one move writes, in bytes of BSON (request, journal entries, their keys),
 * from the lengths of its ids. A request holds its key (`ledger:` + requestId) once, its requestId
 * once and each entry id (key + `:debit`) once more in its outcome; each entry holds its own id and
 * the requestId again; account ids appear in the params (twice at most) and in each entry (account
 * and counterparty). So 8 times the requestId, 6 times the account ids, plus 1,024 bytes for field
 * names, hashes, longs and dates (a withdrawal with 30-character ids writes 1,465 bytes of oplog in
 * all: docs/ledger.md). `test/ledger/groupCommit.test.ts` checks the bound on the longest ids.
 */
export function moveBytesMax(requestIdLength: number, accountIdsLength: number, annotationBytes = 0): number {
  return 1_024 + 8 * (requestIdLength + 'ledger:'.length + ':credit'.length) + 6 * accountIdsLength + annotationBytes;
}

/**
 * What a move's `reference` and `metadata` add (`moveBytesMax`'s last argument), from their UTF-8
 * bytes: the metadata once (it is stored on the request only), the reference three times (the
 * request and each entry), plus their field names.
 */
export function annotationBytes(referenceBytes: number, metadataBytes: number): number {
  return (referenceBytes === 0 ? 0 : 3 * (referenceBytes + 16)) + (metadataBytes === 0 ? 0 : metadataBytes + 16);
}

/**
 * Most bytes one group commit or batch writes in one transaction: 1 MiB, a sixteenth of the 16 MiB
 * a transaction's `applyOps` oplog entry may hold, so the bound stays far from the server's limit
 * whatever the ids. At the longest ids (128 characters) a move is bounded by 3,696 bytes, so the
 * largest batch (`submitMovesMax`) fits in about 361 KiB.
 */
export const groupBytesMax = 1_048_576;

/**
 * Most moves one `submitMoves` may carry. The batch is one transaction (an atomic batch must be),
 * so it must fit in one group (`groupMovesMax`, `groupBytesMax`); a hundred already brings the cost
 * per move to a twentieth of a lone move's (docs/scaling.md), and a bigger request would also hold
 * up to twice as many accounts' turns, and so other callers, for longer.
 */
export const submitMovesMax = 100;

// The longest reference is 128 characters of up to 4 UTF-8 bytes each.
const annotationBytesMax = annotationBytes(4 * 128, 4_096);
invariant(
  submitMovesMax <= groupMovesMax &&
    submitMovesMax * moveBytesMax(idLengthMax, 2 * idLengthMax, annotationBytesMax) <= groupBytesMax,
  'the largest submitMoves must fit in one group commit',
);

/** Holds (holds.ts, holdSweeper.ts). */
export const HoldLimits = Object.freeze({
  /**
   * Longest a hold may stay pending: 30 days, the longest card authorization window networks
   * allow (Stripe's extended authorizations), in seconds.
   */
  expiresInSecondsMax: 30 * 24 * 3_600,
  /**
   * The sweeper's lease. H3 promises release within the lease plus 10 s: a holder that died is
   * replaced after at most one lease, and the next holder sweeps on its first tick (below 10 s).
   */
  sweeperLeaseMs: 10_000,
  /** An idle sweeper's tick: well inside the 10 s of H3, and one indexed query per tick. */
  sweepIntervalMs: 1_000,
  /**
   * Holds one pass expires (one transaction each) before renewing the lease: at about 2 ms a
   * hold, a full pass takes well under a second, far inside the 10 s lease. Full passes follow each
   * other at once, so a backlog drains without a cap.
   */
  sweepBatchMax: 200,
});

/** The ledger's life cycle (lifecycle.ts, DESIGN flow 7). */
export const LifecycleLimits = Object.freeze({
  /** Longest `reference` of a move: an invoice number or a bank transaction id fits. */
  referenceLengthMax: 128,
  /**
   * Largest `metadata` of a move, in bytes of JSON: small enough that a move with it stays far
   * inside a group's byte budget (`moveBytesMax` counts it once: it is stored once, on the request).
   */
  metadataBytesMax: 4_096,
  /** Deepest `metadata`: the object itself is one level. */
  metadataDepthMax: 8,
});
