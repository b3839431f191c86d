// The engine's public API for command handlers.
export { Catalog } from './catalog.ts';
export type { AggregateOptions, Clock, CollectionInfo, WriteObserver } from './catalog.ts';
export { Collection } from './collection.ts';
export { compareValues, valuesEqual } from './compare.ts';
export { compileFilter } from './match.ts';
export type { MatchContext, Predicate } from './match.ts';
export * from './types.ts';
