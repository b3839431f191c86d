// The bounds of every change stream this app holds (the live feeds' and the payout projection's). Units go last.

export const ChangeStreamLimits = Object.freeze({
  /** How long one getMore waits for events; also bounds how long closing a stream takes. */
  awaitTimeMs: 500,
  /** A failed stream (feed or projection) reopens after 100 ms, doubling to at most 5 s (up to half of each delay random), and never gives up. */
  reopenBackoffBaseMs: 100,
  reopenBackoffMaxMs: 5_000,
});
