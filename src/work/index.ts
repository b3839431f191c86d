export { createWorkService, type WorkService, type WorkServiceOptions } from './service.ts';
export { createWorkTelemetry, type WorkTelemetry } from './telemetry.ts';
export {
  ensureWorkItemIndexes,
  workItems,
  WorkStatus,
  CompletionOutcome,
  TRANSITIONS,
  isAllowedTransition,
} from './model.ts';
export type { WorkItemDoc, TransitionRecord } from './model.ts';
export * from './inputs.ts';
export type * from './results.ts';
export { workItemFeedSpec, type WorkItemFeeds, type WorkItemStatusEvent } from './events.ts';
export { KeyNamespace, namespacedKey } from './model.ts';
