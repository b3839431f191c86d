// The payout feature's public module: the projection that turns every withdrawal into exactly one
// PAYOUT work item (P1), its lease, its start-up task and its limits.
export { PROJECTION_LEASES_COLLECTION, projectionLeases, type LeaseDoc } from './lease.ts';
export { createPayoutLeaseReader, type PayoutLeaseReader } from './leaseState.ts';
export { PayoutQueueLimits, ProjectionLimits } from './limits.ts';
export {
  createPayoutProjection,
  PAYOUT_LEASE_NAME,
  PayoutProjection,
  type PayoutProjectionDeps,
  type PayoutProjectionOptions,
  type ProjectionStatus,
} from './PayoutProjection.ts';
export type { Payout, PayoutPayload, PayoutWriter } from './payoutWriter.ts';
export {
  PAYOUT_SINK_KINDS,
  workItemsSink,
  type PayoutSink,
  type PayoutSinkKind,
  type SinkDependencyHealth,
} from './sink.ts';
export {
  createBullmqPayoutSink,
  PAYOUT_JOB_NAME,
  payoutJobOptions,
  takenMarksKey,
  type PayoutJobData,
} from './bullmqSink.ts';
export { PAYOUT_JOBS_COLLECTION, payoutJobId, payoutJobs, payoutRecordKey, type PayoutJobDoc } from './payoutJobs.ts';
export { createPayoutQueueTelemetry, type PayoutQueueTelemetry } from './telemetry.ts';
export { PAYOUT_PROJECTION_TASK, payoutProjectionTask } from './startup.ts';
