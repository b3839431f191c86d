import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { BoundedLabels } from '../observability/boundedLabels.ts';
import { counterOn, histogramOn } from '../observability/metrics.ts';
import { createLeaseJobTelemetry, type LeaseJobTelemetry } from '../db/leaseJob.ts';
import { WorkLimits } from './limits.ts';
import type { WorkItemDoc, WorkStatus } from './model.ts';
import type { WorkOperation } from './results.ts';

// Metrics and logs of the work service. Races must be visible: every lost race is counted by
// operation and kind, every transition by its edge, and every claim and completion is logged
// with what was read and what was written (the correlated trace that found seed case 000). The
// kind label is bounded (WorkLimits.metricKindLabelsMax, then `_other`): kinds are client input.

export interface WorkTelemetry {
  conflict(operation: WorkOperation, itemKind: string): void;
  transition(from: WorkStatus | null, to: WorkStatus): void;
  claimDuration(seconds: number, outcome: string): void;
  /** A claim handed an item to a worker (work_started_total), by kind. */
  started(itemKind: string): void;
  /** A lease holder's completion went through, DONE or FAILED (work_completed_total), by kind. */
  completed(itemKind: string): void;
  /** A claim or completion: `readStatus` is the status the write left (or found), `writeStatus` the one it wrote. */
  trace(event: WorkTrace): void;
  conflictsSinceStart(): Promise<number>;
  /** The schedule firer's lease job (src/db/leaseJob.ts). */
  leaseJobs: LeaseJobTelemetry;
}

export interface WorkTrace {
  operation: WorkOperation;
  outcome: string;
  workItemId: string;
  workerId: string | null;
  readStatus: WorkStatus | null;
  writeStatus: WorkStatus | null;
  version: number | null;
}

const CLAIM_DURATION_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export function createWorkTelemetry(registry: Registry, logger: Logger): WorkTelemetry {
  const conflicts = counterOn(registry, {
    name: 'claim_conflict_total',
    help: 'Conditional work-item writes that lost a race (ConflictLost), by operation and item kind.',
    labelNames: ['operation', 'kind'] as const,
  });
  const transitions = counterOn(registry, {
    name: 'work_item_transitions_total',
    help: 'Work-item status transitions applied, by edge of the transition table (from="none" on creation).',
    labelNames: ['from', 'to'] as const,
  });
  const claimSeconds = histogramOn(registry, {
    name: 'work_item_claim_duration_seconds',
    help: 'Latency of claimWorkItem in the service, by outcome; its _count is the number of claims.',
    labelNames: ['outcome'] as const,
    buckets: CLAIM_DURATION_BUCKETS_S,
  });
  // Seed 000's second detection method: an item run twice shows as more starts than completions.
  const started = counterOn(registry, {
    name: 'work_started_total',
    help: 'Work items handed to a worker by a claim (a reclaim after lease expiry counts again), by kind.',
    labelNames: ['kind'] as const,
  });
  const completed = counterOn(registry, {
    name: 'work_completed_total',
    help: 'Completions by the lease holder that went through (DONE or FAILED), by kind.',
    labelNames: ['kind'] as const,
  });
  const log = logger.child({ component: 'work' });
  // Kinds are client input: one bounded set of label values for every metric labelled by kind.
  const kinds = new BoundedLabels(WorkLimits.metricKindLabelsMax, ['PAYOUT']);
  return {
    conflict: (operation, itemKind) => conflicts.inc({ operation, kind: kinds.of(itemKind) }),
    transition: (from, to) => transitions.inc({ from: from ?? 'none', to }),
    claimDuration: (seconds, outcome) => claimSeconds.observe({ outcome }, seconds),
    started: (itemKind) => started.inc({ kind: kinds.of(itemKind) }),
    completed: (itemKind) => completed.inc({ kind: kinds.of(itemKind) }),
    trace: (event) => log.info(event, `work item ${event.operation}: ${event.outcome}`),
    async conflictsSinceStart() {
      const { values } = await conflicts.get();
      return values.reduce((sum, v) => sum + v.value, 0);
    },
    leaseJobs: createLeaseJobTelemetry(registry),
  };
}

/** The trace of a write that went through: the status it left and the one it wrote. */
export function appliedTrace(operation: WorkOperation, item: WorkItemDoc, workerId: string | null): WorkTrace {
  return {
    operation,
    outcome: 'applied',
    workItemId: item._id.toHexString(),
    workerId,
    readStatus: item.previousStatus,
    writeStatus: item.status,
    version: item.version,
  };
}
