import type { Collection, MongoClient } from 'mongodb';
import type { KindLimitDoc } from './kindLimits.ts';
import type { WorkItemDoc } from './model.ts';
import type { GroupPlaceDoc } from './groupLimits.ts';
import type { ScheduleDoc } from './scheduleModel.ts';
import type { Preconditions } from './preconditions.ts';
import type { WorkTelemetry } from './telemetry.ts';

/** What every work operation needs; built once by `createWorkService`. */
export interface WorkDeps {
  collection: Collection<WorkItemDoc>;
  /** W5: one document per limited kind (kindLimits.ts). */
  kindLimits: Collection<KindLimitDoc>;
  /** The limited kinds and their limits (kindLimits.ts `limitsOf`, refreshed at most every `kindLimitsRefreshMs`). */
  limitedKinds(): Promise<ReadonlyMap<string, number>>;
  /** W9: one document per (kind, group) with running items of a group-limited kind (groupLimits.ts). */
  groupPlaces: Collection<GroupPlaceDoc>;
  /** W9: one document per group-limited kind, its limit (WORK_GROUP_LIMITS). */
  groupLimits: Collection<KindLimitDoc>;
  /** The kinds with a per-group limit (WORK_GROUP_LIMITS), refreshed like `limitedKinds`. */
  groupLimitedKinds(): Promise<ReadonlyMap<string, number>>;
  /** Flow 8: one document per schedule (scheduleModel.ts). */
  schedules: Collection<ScheduleDoc>;
  /** For the transactions of limited kinds (claim with its place, heartbeat with its place's lease). */
  client: MongoClient;
  preconditions: Preconditions;
  telemetry: WorkTelemetry;
  retryBackoffBaseMs: number;
  /** Which kind a batch claim deals first (W6): turns from call to call. */
  fairness: { next(kindCount: number): number };
  /** W9: per kind, the group a batch claim dealt last; the next claim starts after it. */
  groupTurns: Map<string, string | null>;
}
