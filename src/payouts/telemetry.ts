import type { Registry } from 'prom-client';
import { counterOn } from '../observability/metrics.ts';

// Metrics of the payout sink when it is a BullMQ queue (src/payouts/bullmqSink.ts). Registered by
// every app whatever PAYOUT_QUEUE says, so that the dashboard's panel and the alert find the
// series (at zero) on a process that uses work items.

export function createPayoutQueueTelemetry(registry: Registry) {
  return {
    jobsAddedTotal: counterOn(registry, {
      name: 'payout_queue_jobs_added_total',
      help: 'Payout jobs the projection added to the BullMQ queue, acknowledged by Redis (one per applied withdrawal; a re-add after a crash counts again)',
    }),
    addFailuresTotal: counterOn(registry, {
      name: 'payout_queue_add_failures_total',
      help: 'Payout jobs whose add to the BullMQ queue failed (Redis down or slow); the projection retries them from its stored position',
    }),
    addsSkippedTotal: counterOn(registry, {
      name: 'payout_queue_adds_skipped_total',
      help: 'Replayed withdrawals not added again: their MongoDB record says added (recorded), or a worker marked the job taken (taken)',
      labelNames: ['reason'] as const,
    }),
  };
}

export type PayoutQueueTelemetry = ReturnType<typeof createPayoutQueueTelemetry>;
