import type { Collection } from 'mongodb';
import type { WorkItemDoc } from './model.ts';
import type { Preconditions } from './preconditions.ts';
import type { WorkTelemetry } from './telemetry.ts';

/** What every work operation needs; built once by `createWorkService`. */
export interface WorkDeps {
  collection: Collection<WorkItemDoc>;
  preconditions: Preconditions;
  telemetry: WorkTelemetry;
  retryBackoffBaseMs: number;
  /** Which kind a batch claim deals first (W6): turns from call to call. */
  fairness: { next(kindCount: number): number };
}
