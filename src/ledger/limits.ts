// Every bound of the ledger in one place. Units go last in the names.

/** Passes of the apply/reject/read loop for one account before the drive gives up for now. */
export const decisionAttemptsMax = 8;
/** Internal drives of one request (same key) before the caller hears OutcomeUnknown. */
export const driveAttemptsMax = 3;
/** Pause before the next internal drive; multiplied by the attempt number. */
export const driveBackoffMs = 50;
/** How long a fresh claim belongs to its first caller before a replay may complete it. */
export const requestLeaseMs = 5_000;
/** Decisions one account must take per second at most: the whole payout peak on one account. */
export const accountDecisionsPerSecondMax = 200;
/**
 * Trace records kept on an account. The trace tells "applied, reply lost" from "never applied",
 * and its length fences late drivers: a request is decided only while its account is fewer than
 * this many decisions past the request's claim, so the length is how far back a lost reply is
 * recovered without an operator. A request its first caller abandoned is completed at the
 * earliest by a replay once the lease runs out; by then a peak account has taken
 * rate × lease decisions, hence the product. Shorter, a prompt replay on a busy account would
 * find its record gone (OutcomeUnknown for good). Longer, every decision pays for it: it
 * rewrites the trace, and mongod logs a `$push` with `$slice` as the whole array in the oplog.
 * Calmer accounts reach further back (1,000 decisions are 16 minutes at one per second).
 */
export const accountTraceLengthMax = (accountDecisionsPerSecondMax * requestLeaseMs) / 1_000;
/** How long a replay waits for an overlapping first attempt before RequestInProgress. */
export const replayWaitMs = 2_000;
/** Pause between two looks at a pending request while a replay waits. */
export const replayPollIntervalMs = 20;
/** Pending requests the start-up sweep completes in one run. */
export const sweepBatchMax = 1_000;
/** Largest page any list query returns. */
export const pageSizeMax = 100;
/** Page size when the caller names none. */
export const pageSizeDefault = 20;
/** Longest account id or request id accepted. */
export const idLengthMax = 128;
/** Longest page cursor accepted (an encoded account id fits easily). */
export const cursorLengthMax = 256;
