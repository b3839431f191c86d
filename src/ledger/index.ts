export { createLedgerService, type LedgerService, type LedgerServiceOptions } from './service.ts';
export { createLedgerTelemetry, type LedgerTelemetry } from './telemetry.ts';
export { accountPreconditions, type AccountPreconditions, type DecisionTarget } from './preconditions.ts';
export { collectionNames, ensureLedgerIndexes } from './model.ts';
export type { AccountDoc, EntryDoc, RequestDoc } from './model.ts';
export * from './inputs.ts';
export type * from './results.ts';
export type { Page } from './queries.ts';
