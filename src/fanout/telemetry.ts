import type { Registry } from 'prom-client';
import { counterOn, gaugeOn } from '../observability/metrics.ts';
import { createLeaseJobTelemetry } from '../db/leaseJob.ts';

// Metrics of the watchers and the payout projection, registered on the registry src/app/createApp.ts hands
// over (the app's own, served at its GET /metrics); the feeds and the projection share one set.

export function createStreamsTelemetry(registry: Registry) {
  return {
    /** The payout projection's lease metrics (src/db/leaseJob.ts). */
    leaseJobs: createLeaseJobTelemetry(registry),
    changeStreamsOpen: gaugeOn(registry, {
      name: 'change_streams_open',
      help: 'Change streams this process holds open, by collection and purpose (live, catchup, projection)',
      labelNames: ['collection', 'purpose'] as const,
    }),
    streamSubscribers: gaugeOn(registry, {
      name: 'stream_subscribers',
      help: 'GraphQL subscribers attached to a feed',
      labelNames: ['feed'] as const,
    }),
    subscriptionsRefusedTotal: counterOn(registry, {
      name: 'subscriptions_refused_total',
      help: 'Subscriptions refused SUBSCRIPTION_LIMIT, by feed and by the bound reached (feed, socket or key)',
      labelNames: ['feed', 'limit'] as const,
    }),
    streamEventsDeliveredTotal: counterOn(registry, {
      name: 'stream_events_delivered_total',
      help: 'Change events queued for subscribers (one per subscriber reached)',
      labelNames: ['feed'] as const,
    }),
    streamResyncsTotal: counterOn(registry, {
      name: 'stream_resyncs_total',
      help: 'ResyncRequired notices sent to subscribers, by reason',
      labelNames: ['feed', 'reason'] as const,
    }),
    payoutProjectionEventsTotal: counterOn(registry, {
      name: 'payout_projection_events_total',
      help: 'Withdrawal events the payout projection handled: created a payout, or found it already there (replay)',
      labelNames: ['outcome'] as const,
    }),
    payoutProjectionLagSeconds: gaugeOn(registry, {
      name: 'payout_projection_lag_seconds',
      help: "Seconds between a withdrawal's commit (event wallTime) and the projection handling it",
    }),
    payoutReconciliationsTotal: counterOn(registry, {
      name: 'payout_reconciliations_total',
      help: 'Reconciliations run by the payout projection (no checkpoint yet, or change-stream history lost)',
      labelNames: ['reason'] as const,
    }),
    payoutReconciledTotal: counterOn(registry, {
      name: 'payout_reconciled_total',
      help: 'Payout items created by reconciliation (withdrawals the stream did not deliver)',
    }),
    payoutProjectionLeaseHeld: gaugeOn(registry, {
      name: 'payout_projection_lease_held',
      help: '1 while this process holds the payout projection lease',
    }),
    changeFeedUp: gaugeOn(registry, {
      name: 'change_feed_up',
      help: "1 while a live feed's shared change stream is open, 0 while it is being reopened (or stopped)",
      labelNames: ['feed'] as const,
    }),
    changeFeedReopenFailuresTotal: counterOn(registry, {
      name: 'change_feed_reopen_failures_total',
      help: "Failures of a live feed's shared change stream (each is followed by a reopen with capped backoff)",
      labelNames: ['feed'] as const,
    }),
    payoutProjectionState: gaugeOn(registry, {
      name: 'payout_projection_state',
      help: '1 for the state the payout projection is in: projecting, standby (another process holds the lease) or retrying (failing, backing off)',
      labelNames: ['state'] as const,
    }),
    payoutCatchUpScannedTotal: counterOn(registry, {
      name: 'payout_catch_up_scanned_total',
      help: 'Withdrawal entries the payout catch-up walked (checked against their payout)',
    }),
    payoutCatchUpPausesTotal: counterOn(registry, {
      name: 'payout_catch_up_pauses_total',
      help: 'Pauses a long payout catch-up took after a slice of pages (it resumes on its own)',
    }),
    payoutCatchUpResumedTotal: counterOn(registry, {
      name: 'payout_catch_up_resumed_total',
      help: "Catch-ups resumed from a previous holder's saved progress (after a crash or a lost lease)",
    }),
  };
}

export type StreamsTelemetry = ReturnType<typeof createStreamsTelemetry>;
