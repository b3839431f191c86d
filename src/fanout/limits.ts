// Every bound of the fan-out: subscribers, their queues and their catch-ups. Units go last.
// (The change streams' own bounds are in src/changeStreams/limits.ts.)

export const FeedLimits = Object.freeze({
  /** Events buffered for one subscriber; beyond it the subscriber is told to resync and ended. */
  subscriberQueueMax: 1_000,
  /** Subscribers of one feed in one process; beyond it a new subscription is refused. */
  subscribersPerFeedMax: 10_000,
  /** Catch-up streams (`after:`) open at once per feed; later ones wait for a slot. */
  catchUpStreamsMax: 8,
  /** Events one catch-up may replay before it gives up and asks the client to resync. */
  catchUpEventsMax: 10_000,
});
