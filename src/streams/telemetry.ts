import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '../observability/metrics.ts';

// Metrics of the watchers and the payout projection, on the process registry. They are
// process-wide: several app instances in one test process add to the same series.

export const changeStreamsOpen = new Gauge({
  name: 'change_streams_open',
  help: 'Change streams this process holds open, by collection and purpose (live, catchup, projection)',
  labelNames: ['collection', 'purpose'] as const,
  registers: [metricsRegistry],
});

export const streamSubscribers = new Gauge({
  name: 'stream_subscribers',
  help: 'GraphQL subscribers attached to a feed',
  labelNames: ['feed'] as const,
  registers: [metricsRegistry],
});

export const streamEventsDeliveredTotal = new Counter({
  name: 'stream_events_delivered_total',
  help: 'Change events queued for subscribers (one per subscriber reached)',
  labelNames: ['feed'] as const,
  registers: [metricsRegistry],
});

export const streamResyncsTotal = new Counter({
  name: 'stream_resyncs_total',
  help: 'ResyncRequired notices sent to subscribers, by reason',
  labelNames: ['feed', 'reason'] as const,
  registers: [metricsRegistry],
});

export const payoutProjectionEventsTotal = new Counter({
  name: 'payout_projection_events_total',
  help: 'Withdrawal events the payout projection handled: created a payout, or found it already there (replay)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const payoutProjectionLagSeconds = new Gauge({
  name: 'payout_projection_lag_seconds',
  help: "Seconds between a withdrawal's commit (event wallTime) and the projection handling it",
  registers: [metricsRegistry],
});

export const payoutReconciliationsTotal = new Counter({
  name: 'payout_reconciliations_total',
  help: 'Reconciliations run by the payout projection (no checkpoint yet, or change-stream history lost)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

export const payoutReconciledTotal = new Counter({
  name: 'payout_reconciled_total',
  help: 'Payout items created by reconciliation (withdrawals the stream did not deliver)',
  registers: [metricsRegistry],
});

export const payoutProjectionLeaseHeld = new Gauge({
  name: 'payout_projection_lease_held',
  help: '1 while this process holds the payout projection lease',
  registers: [metricsRegistry],
});

export const changeFeedUp = new Gauge({
  name: 'change_feed_up',
  help: "1 while a live feed's shared change stream is open, 0 while it is being reopened (or stopped)",
  labelNames: ['feed'] as const,
  registers: [metricsRegistry],
});

export const changeFeedReopenFailuresTotal = new Counter({
  name: 'change_feed_reopen_failures_total',
  help: 'Failures of a live feed\'s shared change stream (each is followed by a reopen with capped backoff)',
  labelNames: ['feed'] as const,
  registers: [metricsRegistry],
});

export const payoutProjectionState = new Gauge({
  name: 'payout_projection_state',
  help: '1 for the state the payout projection is in: projecting, standby (another process holds the lease) or retrying (failing, backing off)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
});
