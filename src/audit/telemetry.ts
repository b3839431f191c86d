import type { Registry } from 'prom-client';
import { createLeaseJobTelemetry } from '../db/leaseJob.ts';
import { counterOn, gaugeOn, histogramOn } from '../observability/metrics.ts';
import type { AuditScope, MismatchKind } from './model.ts';

// The ledger audit's metrics. The run counter and duration count this process's runs; the gauges
// show the latest complete run of each scope as the database holds it, refreshed by every process,
// so whichever process Prometheus scrapes reports the same figures.

export function createAuditTelemetry(registry: Registry) {
  const runsTotal = counterOn(registry, {
    name: 'ledger_audit_runs_total',
    help: 'Ledger audit runs by this process, by scope (incremental, full) and outcome (complete, abandoned: the lease was lost, failed)',
    labelNames: ['scope', 'outcome'] as const,
  });
  const mismatches = gaugeOn(registry, {
    name: 'ledger_audit_mismatches',
    help: 'Mismatches the latest complete ledger audit run of each scope found, by kind',
    labelNames: ['scope', 'kind'] as const,
  });
  const lastCompleteRunTimestampSeconds = gaugeOn(registry, {
    name: 'ledger_audit_last_complete_run_timestamp_seconds',
    help: 'When the latest complete ledger audit run of each scope finished (Unix seconds, database clock)',
    labelNames: ['scope'] as const,
  });
  const runDurationSeconds = histogramOn(registry, {
    name: 'ledger_audit_run_duration_seconds',
    help: 'How long complete ledger audit runs of this process took, by scope',
    labelNames: ['scope'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900],
  });
  return {
    /** The audit loop's lease metrics (src/db/leaseJob.ts). */
    leaseJobs: createLeaseJobTelemetry(registry),
    runsTotal,
    runDurationSeconds,
    showLatestRun(
      scope: AuditScope,
      finishedAt: Date,
      counts: Partial<Record<MismatchKind, number>>,
      kinds: readonly MismatchKind[],
    ): void {
      lastCompleteRunTimestampSeconds.set({ scope }, finishedAt.getTime() / 1000);
      for (const kind of kinds) mismatches.set({ scope, kind }, counts[kind] ?? 0);
    },
  };
}

export type AuditTelemetry = ReturnType<typeof createAuditTelemetry>;
