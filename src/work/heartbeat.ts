import type { ClientSession } from 'mongodb';
import type { WorkDeps } from './workDeps.ts';
import type { WorkItemDoc } from './model.ts';
import { extendPlace } from './kindLimits.ts';
import { extendGroupPlace } from './groupLimits.ts';
import { inTransaction } from './claimWrite.ts';
import type { HeartbeatWorkItemInput, HeartbeatWorkItemsInput } from './inputs.ts';
import { acrossElections } from '../db/elections.ts';
import * as pipelines from './pipelines.ts';
import { refused } from './conditionalWrite.ts';
import type { HeartbeatResult } from './results.ts';

/**
 * Extends the lease of the holder at its version. A worker whose lease was taken over presents
 * an old version (the fencing token) and matches nothing.
 */
export async function heartbeatWorkItem(ctx: WorkDeps, input: HeartbeatWorkItemInput): Promise<HeartbeatResult> {
  const extend = (session?: ClientSession) =>
    ctx.collection.findOneAndUpdate(
      ctx.preconditions.heldBy(input.id, input.workerId, input.version),
      pipelines.heartbeat(),
      {
        returnDocument: 'after',
        ...(session ? { session } : {}),
      },
    );
  const [limited, groupLimited] = await Promise.all([ctx.limitedKinds(), ctx.groupLimitedKinds()]);
  let item: WorkItemDoc | null;
  if (limited.size === 0 && groupLimited.size === 0) item = await extend();
  else {
    // W5: the item's place in its kind's limit is extended with its lease, in one transaction, so a
    // live item never holds an expired place that another claim could take.
    const session = ctx.client.startSession();
    try {
      item = await inTransaction(session, async () => {
        const extended = await extend(session);
        if (extended !== null && limited.has(extended.kind)) await extendPlace(ctx.kindLimits, extended, session);
        // W9: and its group's place likewise.
        if (extended?.group !== undefined && groupLimited.has(extended.kind))
          await extendGroupPlace(ctx.groupPlaces, extended, extended.group, session);
        return extended;
      });
    } finally {
      await session.endSession();
    }
  }
  if (item === null) return refused(ctx, 'heartbeat', input.id, input.workerId, { version: input.version });
  return { kind: 'heartbeatSuccess', item };
}

/**
 * A batch of heartbeats: each item is the single heartbeat, side by side, each rerun through
 * elections on its own (a heartbeat changes nothing a rerun could find changed). One item's
 * refusal (its lease taken over) is its own answer and leaves the others' leases extended.
 */
export async function heartbeatWorkItems(ctx: WorkDeps, input: HeartbeatWorkItemsInput): Promise<HeartbeatResult[]> {
  return Promise.all(input.items.map((item) => acrossElections(() => heartbeatWorkItem(ctx, item))));
}
