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

export const payoutCatchUpScannedTotal = new Counter({
  name: 'payout_catch_up_scanned_total',
  help: 'Withdrawal entries the payout catch-up walked (checked against their payout)',
  registers: [metricsRegistry],
});

export const payoutCatchUpPausesTotal = new Counter({
  name: 'payout_catch_up_pauses_total',
  help: 'Pauses a long payout catch-up took after a slice of pages (it resumes on its own)',
  registers: [metricsRegistry],
});

export const payoutCatchUpResumedTotal = new Counter({
  name: 'payout_catch_up_resumed_total',
  help: "Catch-ups resumed from a previous holder's saved progress (after a crash or a lost lease)",
  registers: [metricsRegistry],
});
