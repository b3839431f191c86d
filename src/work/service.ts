import type { Db, ObjectId } from 'mongodb';
import { acrossElections } from '../db/elections.ts';
import type { ReadOptions } from '../db/readOptions.ts';
import { claimWorkItem } from './claim.ts';
import { claimWorkItems } from './claimBatch.ts';
import { completeWorkItem, completeWorkItems } from './complete.ts';
import type { WorkDeps } from './workDeps.ts';
import { createPayoutWorkItem, createPayoutWorkItems, createWorkItem, type PayoutInput } from './createItem.ts';
import { heartbeatWorkItem, heartbeatWorkItems } from './heartbeat.ts';
import { entriesWithPayout } from './payoutItems.ts';
import type {
  ClaimWorkItemInput,
  ClaimWorkItemsInput,
  CompleteWorkItemInput,
  CompleteWorkItemsInput,
  CreateWorkItemInput,
  HeartbeatWorkItemInput,
  HeartbeatWorkItemsInput,
  RequeueWorkItemInput,
  ScheduleWorkInput,
  UnscheduleWorkInput,
} from './inputs.ts';
import { workItems } from './model.ts';
import { cachedLimits, kindLimits } from './kindLimits.ts';
import { groupLimits, groupPlaces } from './groupLimits.ts';
import { schedules } from './scheduleModel.ts';
import { listSchedules, nextFireTimes, scheduleWork, unscheduleWork } from './schedules.ts';
import { fireDueSchedules, ScheduleFirer, type FireClock, type ScheduleFirerOptions } from './scheduleFirer.ts';
import { WorkLimits } from './limits.ts';
import { preconditions } from './preconditions.ts';
import {
  getWorkItem,
  listWorkItems,
  payoutFor,
  recentWorkItems,
  workItemByKey,
  workQueueStats,
  type WorkItemPageQuery,
} from './queries.ts';
import { requeueWorkItem } from './requeue.ts';
import { auditWork } from './workAudit.ts';
import type { WorkTelemetry } from './telemetry.ts';

export interface WorkServiceOptions {
  db: Db;
  telemetry: WorkTelemetry;
  retryBackoffBaseMs?: number;
}

/**
 * The only writer of the work-items collection (the payout projection calls `createPayout`). Its
 * meta-tests build their mutant on an altered Db (test/work/support/readThenWrite.ts), so the
 * service takes no replaceable part.
 */
export function createWorkService(options: WorkServiceOptions) {
  const ctx: WorkDeps = {
    collection: workItems(options.db),
    kindLimits: kindLimits(options.db),
    limitedKinds: cachedLimits(kindLimits(options.db), WorkLimits.kindLimitsRefreshMs),
    groupPlaces: groupPlaces(options.db),
    groupLimits: groupLimits(options.db),
    groupLimitedKinds: cachedLimits(groupLimits(options.db), WorkLimits.kindLimitsRefreshMs),
    schedules: schedules(options.db),
    client: options.db.client,
    preconditions,
    telemetry: options.telemetry,
    retryBackoffBaseMs: options.retryBackoffBaseMs ?? WorkLimits.retryBackoffBaseMs,
    fairness: rotation(),
    groupTurns: new Map(),
  };
  let statsInFlight: ReturnType<typeof workQueueStats> | null = null;
  return Object.freeze({
    create: (input: CreateWorkItemInput) => createWorkItem(ctx, input),
    createPayout: (payout: PayoutInput) => createPayoutWorkItem(ctx, payout),
    createPayouts: (payouts: PayoutInput[]) => createPayoutWorkItems(ctx, payouts),
    entriesWithPayout: (entryIds: readonly string[]) => entriesWithPayout(ctx, entryIds),
    claim: (input: ClaimWorkItemInput) => claimWorkItem(ctx, input),
    claimMany: (input: ClaimWorkItemsInput) => claimWorkItems(ctx, input),
    // Rerun through elections (src/db/elections.ts): a heartbeat changes nothing a rerun could
    // find changed, and a completion is keyed, so the rerun of one that applied is its replay.
    // Claims and requeues rerun inside (claimWrite.ts, requeue.ts): each writes its call's id, by
    // which a rerun finds its own applied write instead of claiming another item or losing a race.
    heartbeat: (input: HeartbeatWorkItemInput) => acrossElections(() => heartbeatWorkItem(ctx, input)),
    complete: (input: CompleteWorkItemInput) => acrossElections(() => completeWorkItem(ctx, input)),
    // Batches rerun each item on its own (complete.ts, heartbeat.ts): one item's election is not another's rerun.
    heartbeatMany: (input: HeartbeatWorkItemsInput) => heartbeatWorkItems(ctx, input),
    completeMany: (input: CompleteWorkItemsInput) => completeWorkItems(ctx, input),
    requeue: (input: RequeueWorkItemInput) => requeueWorkItem(ctx, input),
    get: (id: ObjectId, options?: ReadOptions) => getWorkItem(ctx, id, options),
    byKey: (idempotencyKey: string, options?: ReadOptions) => workItemByKey(ctx, idempotencyKey, options),
    payoutFor: (entryId: string, options?: ReadOptions) => payoutFor(ctx, entryId, options),
    list: (query: WorkItemPageQuery, options?: ReadOptions) => listWorkItems(ctx, query, options),
    stats: (options?: ReadOptions) => {
      // A read after one's own write (a session) must not join a count that began before it.
      if (options?.session !== undefined) return workQueueStats(ctx, options);
      // Calls in flight at once share one set of counts (30 aliases of it are one read, issue 41).
      return (statsInFlight ??= workQueueStats(ctx, options).finally(() => (statsInFlight = null)));
    },
    recent: (first: number, options?: ReadOptions) => recentWorkItems(ctx, first, options),
    audit: (since: Date) => auditWork(ctx, since),
    schedule: (input: ScheduleWorkInput) => scheduleWork(ctx, input),
    unschedule: (input: UnscheduleWorkInput) => unscheduleWork(ctx, input),
    schedules: (first: number, options?: ReadOptions) => listSchedules(ctx, first, options),
    nextFireTimes,
    /** The firing step alone, at a given database-clock instant (the firer's pass; tests drive it too). */
    fireDue: (clock: FireClock) => fireDueSchedules(ctx, clock),
    /** The firer loop under its lease; `start` once per process, `stop` on shutdown. */
    scheduleFirer: (firer: Omit<ScheduleFirerOptions, 'db' | 'work'>) =>
      new ScheduleFirer({ ...firer, db: options.db, work: ctx }),
  });
}

/** A turning counter: the first kind of each batch claim (W6). */
function rotation(): WorkDeps['fairness'] {
  let turn = 0;
  return { next: (kindCount) => (kindCount <= 1 ? 0 : turn++ % kindCount) };
}

export type WorkService = ReturnType<typeof createWorkService>;
