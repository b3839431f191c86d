import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { jsonDepthExceeds } from '../lib/jsonDepth.ts';
import { CompletionOutcome, WorkStatus } from './model.ts';
import { ScheduleLimits, WorkLimits } from './limits.ts';
import { CatchUp } from './scheduleModel.ts';

// The inputs of the work service, validated at the edge (resolvers) with zod; the service takes
// the parsed output and trusts it.

const objectId = z
  .string()
  .regex(/^[0-9a-fA-F]{24}$/, 'must be a 24-character hex ObjectId')
  .transform((hex) => ObjectId.createFromHexString(hex));

/** Kinds become metric labels and index keys: short, plain identifiers only. */
const itemKind = z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'must be an identifier of at most 64 characters');
const workerId = z.string().min(1).max(200);
/** A tenant or merchant within a kind (W9): an index key and a stats label, so a plain identifier too. */
const itemGroup = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/,
    'must be 1 to 128 letters, digits or _.:@- starting with a letter or digit',
  );
const version = z.number().int().min(1);

/** JSON within a depth and a size; the depth first, walked iteratively: stringify recurses per level. */
function jsonOfAtMost(bytesMax: number) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      if (jsonDepthExceeds(value, WorkLimits.jsonDepthMax)) {
        ctx.addIssue({
          code: 'custom',
          message: `must nest at most ${WorkLimits.jsonDepthMax} levels (MongoDB stores documents nested at most 100)`,
        });
      } else if (Buffer.byteLength(JSON.stringify(value ?? null)) > bytesMax) {
        ctx.addIssue({ code: 'custom', message: `must serialize to at most ${bytesMax} bytes of JSON` });
      }
    })
    .optional(); // absent means null
}

export const createWorkItemInput = z.object({
  kind: itemKind,
  payload: jsonOfAtMost(WorkLimits.payloadMaxBytes),
  idempotencyKey: z.string().min(1).max(200),
  maxAttempts: z.number().int().min(1).max(WorkLimits.maxAttemptsMax).default(WorkLimits.maxAttemptsDefault),
  /** Checked against the API's clock only for sanity (a year ahead at most); due-ness is the database's. */
  runAt: z
    .date()
    .refine((at) => at.getTime() - Date.now() <= WorkLimits.runAtAheadMaxMs, {
      message: `must be at most ${WorkLimits.runAtAheadMaxMs / 86_400_000} days ahead`,
    })
    .nullable()
    .optional()
    .transform((at) => at ?? null),
  priority: z
    .number()
    .int()
    .min(WorkLimits.priorityMin)
    .max(WorkLimits.priorityMax)
    .nullable()
    .optional()
    .transform((p) => p ?? 0),
  group: itemGroup
    .nullable()
    .optional()
    .transform((g) => g ?? null),
});
/** `runAt`, `priority` and `group` may be left out by in-process callers (the defaults: at once, 0, no group). */
export type CreateWorkItemInput = Omit<z.output<typeof createWorkItemInput>, 'runAt' | 'priority' | 'group'> & {
  runAt?: Date | null;
  priority?: number;
  group?: string | null;
};

export const claimWorkItemInput = z.object({
  workerId,
  id: objectId.optional(),
  expectedVersion: version.optional(),
  kinds: z.array(itemKind).max(WorkLimits.kindsPerClaimMax).optional(),
  leaseSeconds: z.number().int().min(1).max(WorkLimits.leaseMaxSeconds).default(WorkLimits.leaseDefaultSeconds),
});
export type ClaimWorkItemInput = z.output<typeof claimWorkItemInput>;

export const claimWorkItemsInput = z.object({
  kinds: z.array(itemKind).min(1).max(WorkLimits.kindsPerClaimMax),
  workerId,
  max: z.number().int().min(1).max(WorkLimits.claimBatchMax),
  leaseSeconds: z.number().int().min(1).max(WorkLimits.leaseMaxSeconds).default(WorkLimits.leaseDefaultSeconds),
});
export type ClaimWorkItemsInput = z.output<typeof claimWorkItemsInput>;

export const heartbeatWorkItemInput = z.object({ id: objectId, workerId, version });
export type HeartbeatWorkItemInput = z.output<typeof heartbeatWorkItemInput>;

export const completeWorkItemInput = z.object({
  id: objectId,
  workerId,
  version,
  outcome: z.enum([CompletionOutcome.DONE, CompletionOutcome.FAILED]),
  result: jsonOfAtMost(WorkLimits.resultMaxBytes),
});
export type CompleteWorkItemInput = z.output<typeof completeWorkItemInput>;

export const requeueWorkItemInput = z.object({ id: objectId, version });
export type RequeueWorkItemInput = z.output<typeof requeueWorkItemInput>;

export const workItemIdQuery = z.object({ id: objectId });

export const workItemsQuery = z
  .object({
    status: z.enum(Object.values(WorkStatus)).optional(),
    kind: itemKind.optional(),
    createdFrom: z.date().optional(),
    createdTo: z.date().optional(),
    key: z.string().min(1).max(200).optional(),
    first: z.number().int().min(1).max(WorkLimits.pageSizeMax),
    after: objectId.optional(),
  })
  .refine((q) => q.createdFrom === undefined || q.createdTo === undefined || q.createdFrom < q.createdTo, {
    message: 'createdFrom must be before createdTo',
    path: ['createdTo'],
  });

export const workItemKeyQuery = z.object({ idempotencyKey: z.string().min(1).max(200) });

export const payoutForQuery = z.object({ entryId: z.string().min(1).max(512) });

/** A schedule's name is its key and part of its items' keys (`schedule:<name>:<period>`). */
const scheduleName = z
  .string()
  .regex(
    new RegExp(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,${ScheduleLimits.nameLengthMax - 1}}$`),
    `must be 1 to ${ScheduleLimits.nameLengthMax} letters, digits or _.- starting with a letter or digit`,
  );

/** The cron and zone are checked by the service (an InvalidSchedule answer, not a GraphQL error). */
export const scheduleWorkInput = z.object({
  name: scheduleName,
  kind: itemKind,
  cron: z.string().min(1).max(ScheduleLimits.cronLengthMax),
  timeZone: z
    .string()
    .min(1)
    .max(64)
    .nullable()
    .optional()
    .transform((zone) => zone ?? 'UTC'),
  payload: jsonOfAtMost(WorkLimits.payloadMaxBytes),
  catchUp: z
    .enum([CatchUp.LATEST, CatchUp.ALL, CatchUp.NONE])
    .nullable()
    .optional()
    .transform((c) => c ?? CatchUp.LATEST),
});
export type ScheduleWorkInput = z.output<typeof scheduleWorkInput>;

export const unscheduleWorkInput = z.object({ name: scheduleName });
export type UnscheduleWorkInput = z.output<typeof unscheduleWorkInput>;

/** A batch of completions: each item is the single completion's input, under its own fence (W3, W4). */
export const completeWorkItemsInput = z.object({
  items: z.array(completeWorkItemInput).min(1).max(WorkLimits.completeBatchMax),
});
export type CompleteWorkItemsInput = z.output<typeof completeWorkItemsInput>;

/** A batch of heartbeats: each item is the single heartbeat's input. */
export const heartbeatWorkItemsInput = z.object({
  items: z.array(heartbeatWorkItemInput).min(1).max(WorkLimits.heartbeatBatchMax),
});
export type HeartbeatWorkItemsInput = z.output<typeof heartbeatWorkItemsInput>;
