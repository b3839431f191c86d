// Every bound of the fan-out: subscribers, their queues and their catch-ups. Units go last.
// (The change streams' own bounds are in src/changeStreams/limits.ts.)

export const FeedLimits = Object.freeze({
  /** Events buffered for one subscriber; beyond it the subscriber is told to resync and ended. */
  subscriberQueueMax: 1_000,
  /** Subscribers of one feed in one process; beyond it a new subscription is refused (SUBSCRIPTION_LIMIT, limit `feed`). */
  subscribersPerFeedMax: 10_000,
  /**
   * Subscriptions one WebSocket may hold, over every feed. The console holds 4 on its one socket
   * (work items, ledger entries, the open account's balances and holds; src/console/main.ts), and
   * an account it left keeps its two until their next event; an SDK client (the console is one)
   * shares one socket among its subscriptions. 100 is 25 consoles on one socket, and 1% of a feed: one socket can no longer
   * take a feed's every slot (issue 29: one socket took all 10,000).
   */
  subscriptionsPerSocketMax: 100,
  /**
   * Subscriptions one API key may hold in one process, over all its sockets: a fifth of a feed
   * (subscribersPerFeedMax / 5), so one key can never take more than a fifth of any feed and four
   * fifths stay for the others. One key usually serves a whole client (every console of a team,
   * every worker); the largest legitimate use measured is the fan-out benchmark's 1,000
   * subscribers on one service key (bench/scenarios/fanout.ts), half of this.
   */
  subscriptionsPerKeyMax: 2_000,
  /** Catch-up streams (`after:`) open at once per feed; later ones wait for a slot. */
  catchUpStreamsMax: 8,
  /** Events one catch-up may replay before it gives up and asks the client to resync. */
  catchUpEventsMax: 10_000,
});
