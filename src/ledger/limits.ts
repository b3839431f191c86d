// Every bound of the ledger in one place. Units go last in the names.

/** Trace records kept on an account; replays older than this many decisions cannot be traced. */
export const accountTraceLengthMax = 1000;
/** Passes of the apply/reject/read loop for one account before the drive gives up for now. */
export const decisionAttemptsMax = 8;
/** Internal drives of one request (same key) before the caller hears OutcomeUnknown. */
export const driveAttemptsMax = 3;
/** Pause before the next internal drive; multiplied by the attempt number. */
export const driveBackoffMs = 50;
/** How long a fresh claim belongs to its first caller before a replay may complete it. */
export const requestLeaseMs = 5_000;
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
