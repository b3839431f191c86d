export { createLedgerService, type LedgerService, type LedgerServiceOptions } from './service.ts';
export { createLedgerTelemetry, type LedgerTelemetry } from './telemetry.ts';
export {
  accountPreconditions,
  applyDelta,
  availableCovers,
  type AccountPreconditions,
  type AccountRead,
  type AccountState,
  type DecisionTarget,
} from './accountFilters.ts';
export { requestKey, requestRules, type RequestRules } from './requestKeys.ts';
export type { MoveAttempt } from './journal.ts';
export { collectionNames, ensureLedgerIndexes } from './model.ts';
export type { AccountDoc, EntryDoc, RequestDoc } from './model.ts';
export * from './inputs.ts';
export type * from './results.ts';
export type { Page } from './queries.ts';
export { holdFeedSpec, type HoldChangedEvent } from './events.ts';
export {
  accountBalanceFeedSpec,
  ledgerEntryFeedSpec,
  type AccountBalanceChangedEvent,
  type LedgerEntryAddedEvent,
  type LedgerFeeds,
} from './events.ts';
export { fromLong, toLong } from './money.ts';
export { groupPolicy, type GroupPolicy } from './groupDecision.ts';
export { holdsCollectionName, HoldStatus, type HoldDoc } from './holdModel.ts';
export type { HoldRules } from './holdRules.ts';
export { lifecycleRules, type LifecycleRules } from './lifecycleRules.ts';
export { AccountStatus, EntryIndex } from './model.ts';
