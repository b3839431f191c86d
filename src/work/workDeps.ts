import type { Collection, MongoClient } from 'mongodb';
import type { KindLimitDoc } from './kindLimits.ts';
import type { WorkItemDoc } from './model.ts';
import type { Preconditions } from './preconditions.ts';
import type { WorkTelemetry } from './telemetry.ts';

/** What every work operation needs; built once by `createWorkService`. */
export interface WorkDeps {
  collection: Collection<WorkItemDoc>;
  /** W5: one document per limited kind (kindLimits.ts). */
  kindLimits: Collection<KindLimitDoc>;
  /** The limited kinds and their limits (kindLimits.ts `limitsOf`, refreshed at most every `kindLimitsRefreshMs`). */
  limitedKinds(): Promise<ReadonlyMap<string, number>>;
  /** For the transactions of limited kinds (claim with its place, heartbeat with its place's lease). */
  client: MongoClient;
  preconditions: Preconditions;
  telemetry: WorkTelemetry;
  retryBackoffBaseMs: number;
  /** Which kind a batch claim deals first (W6): turns from call to call. */
  fairness: { next(kindCount: number): number };
}
