export { DuplicateReplayed, ReplayableOutcome, registerReplayableOutcome } from './DuplicateReplayed.ts';
export { IdempotencyKeyReused } from './IdempotencyKeyReused.ts';
