import { randomUUID } from 'node:crypto';
import { MongoBulkWriteError } from 'mongodb';
import { acrossElections } from '../db/elections.ts';
import { duplicateKeyWrites, isDuplicateKey } from '../db/mongoErrors.ts';
import { activeTraceparent } from '../observability/tracing.ts';
import type { WorkDeps } from './workDeps.ts';
import type { CreateWorkItemInput } from './inputs.ts';
import { KeyNamespace, WorkStatus, namespacedKey, type WorkItemDoc } from './model.ts';
import { WorkLimits } from './limits.ts';
import { createIfMissing, type NewItem } from './pipelines.ts';
import type { CreateResult } from './results.ts';
import { sameJson } from './sameJson.ts';

// Creation is an upsert on the unique, namespaced idempotency key: a retry, a replay of the
// projection or a concurrent twin finds the item already there and changes nothing.

export async function upsertWorkItem(ctx: WorkDeps, item: NewItem): Promise<{ created: boolean; item: WorkItemDoc }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const reply = await ctx.collection.findOneAndUpdate(
        { idempotencyKey: item.idempotencyKey },
        createIfMissing(item),
        {
          upsert: true,
          returnDocument: 'after',
          includeResultMetadata: true,
        },
      );
      if (reply.value === null) throw new Error(`upsert of work item ${item.idempotencyKey} returned no document`);
      const created = reply.lastErrorObject?.upserted !== undefined;
      if (created) ctx.telemetry.transition(null, WorkStatus.PENDING);
      return { created, item: reply.value };
    } catch (error) {
      if (!isDuplicateKey(error) || attempt >= WorkLimits.upsertAttemptsMax) throw error;
    }
  }
}

export async function createWorkItem(ctx: WorkDeps, input: CreateWorkItemInput): Promise<CreateResult> {
  const wanted: NewItem = {
    idempotencyKey: namespacedKey(KeyNamespace.CLIENT, input.idempotencyKey),
    kind: input.kind,
    payload: input.payload ?? null,
    maxAttempts: input.maxAttempts,
    priority: input.priority ?? 0,
    runAt: input.runAt ?? null,
    ...(input.group ? { group: input.group } : {}),
    keepsCreateOutcome: true,
    traceparent: activeTraceparent(),
    creationId: randomUUID(),
  };
  // The upsert is rerun under the same key through elections; a rerun that finds the item its own
  // first try created (the reply was lost) answers that creation, not a replay.
  const { created, item } = await acrossElections(() => upsertWorkItem(ctx, wanted));
  if (created) return { kind: 'createWorkItemSuccess', item };
  if (item.creationId === wanted.creationId) {
    ctx.telemetry.transition(null, WorkStatus.PENDING);
    return {
      kind: 'createWorkItemSuccess',
      item: item.createOutcome ? { ...item.createOutcome, _id: item._id } : item,
    };
  }
  const replay = { requestId: input.idempotencyKey, firstSeenAt: item.createdAt };
  // Items created before priority and runAt existed have neither: they compare as the defaults.
  const itemPriority = item.priority ?? 0;
  const itemRunAt = item.runAt?.getTime() ?? null;
  const differing =
    item.kind !== wanted.kind
      ? 'kind'
      : item.maxAttempts !== wanted.maxAttempts
        ? 'maxAttempts'
        : itemPriority !== wanted.priority
          ? 'priority'
          : itemRunAt !== (wanted.runAt?.getTime() ?? null)
            ? 'runAt'
            : (item.group ?? null) !== (wanted.group ?? null)
              ? 'group'
              : !sameJson(item.payload, wanted.payload)
                ? 'payload'
                : null;
  if (differing !== null) {
    const field = differing;
    const first =
      field === 'payload'
        ? 'another payload'
        : field === 'priority'
          ? `priority ${itemPriority}`
          : field === 'runAt'
            ? `runAt ${item.runAt?.toISOString() ?? 'null'}`
            : field === 'group'
              ? `group ${item.group ?? 'null'}`
              : `${field} ${String(item[field])}`;
    const detail = `idempotencyKey ${input.idempotencyKey} was first used with ${first}: use a new key for a new item`;
    return { kind: 'idempotencyKeyReused', ...replay, field, detail };
  }
  // The outcome as first decided; an item created before snapshots were kept answers as it is now.
  return {
    kind: 'duplicateReplayed',
    ...replay,
    original: {
      kind: 'createWorkItemSuccess',
      item: item.createOutcome ? { ...item.createOutcome, _id: item._id } : item,
    },
  };
}

/** One withdrawal's payout; `traceparent` is the withdrawal's trace (stored on its entry), when it was traced. */
export interface PayoutInput {
  entryId: string;
  payload: unknown;
  traceparent?: string | undefined;
}

/** The PAYOUT item of one withdrawal, keyed by its journal entry. */
function payoutItem(payout: PayoutInput): NewItem {
  return {
    idempotencyKey: namespacedKey(KeyNamespace.PAYOUT, payout.entryId),
    kind: 'PAYOUT',
    payload: payout.payload,
    maxAttempts: WorkLimits.maxAttemptsDefault,
    priority: 0,
    runAt: null,
    keepsCreateOutcome: false,
    traceparent: payout.traceparent,
  };
}

/**
 * The payout projection's entry point: exactly one PAYOUT item per applied withdrawal, however
 * often the change event is replayed. Returns whether this call created it.
 */
export async function createPayoutWorkItem(
  ctx: WorkDeps,
  payout: PayoutInput,
): Promise<{ created: boolean; item: WorkItemDoc }> {
  return upsertWorkItem(ctx, payoutItem(payout));
}

/**
 * Many payouts in one command (the projection's batch of events): the same upsert per item, sent
 * as one unordered bulk write. An item whose upsert met a concurrent twin on the unique key is
 * retried alone, as `upsertWorkItem` does. Returns how many this call created.
 */
export async function createPayoutWorkItems(ctx: WorkDeps, payouts: PayoutInput[]): Promise<{ created: number }> {
  if (payouts.length === 0) return { created: 0 };
  const items = payouts.map(payoutItem);
  const operations = items.map((item) => ({
    updateOne: { filter: { idempotencyKey: item.idempotencyKey }, update: createIfMissing(item), upsert: true },
  }));
  let upserted: number;
  let retry: NewItem[] = [];
  try {
    upserted = (await ctx.collection.bulkWrite(operations, { ordered: false })).upsertedCount;
  } catch (error) {
    const duplicates = duplicateKeyWrites(error);
    if (duplicates === null || !(error instanceof MongoBulkWriteError)) throw error;
    upserted = error.result.upsertedCount;
    retry = duplicates.map((index) => items[index]!);
  }
  for (let i = 0; i < upserted; i++) ctx.telemetry.transition(null, WorkStatus.PENDING);
  let created = upserted;
  for (const item of retry) if ((await upsertWorkItem(ctx, item)).created) created += 1;
  return { created };
}
