// Test-only root fields, one per right, so access control can be proven for every role and kind
// of operation before (and independently of) the features. Mutations record an effect (a work
// item of kind PROBE_EFFECT, written through the app's work service like any resolver's write),
// so a test can prove a refused call changed nothing.
import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import { Ctx, Int, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Allow } from '../../src/graphql/auth/Allow.ts';
import { Rights, type Right } from '../../src/access/roles.ts';
import type { AppContext } from '../../src/app/requestContext.ts';
import { workItems } from '../../src/work/index.ts';

const PROBE_EFFECT_KIND = 'PROBE_EFFECT';

async function recordEffect(ctx: AppContext, right: Right): Promise<string> {
  const created = await ctx.services.work.create({
    kind: PROBE_EFFECT_KIND,
    payload: { right, role: ctx.role },
    idempotencyKey: `probe-${randomUUID()}`,
    maxAttempts: 1,
  });
  if (created.kind !== 'createWorkItemSuccess') throw new Error(`probe effect not recorded: ${created.kind}`);
  return right;
}

/** How many probe mutations took effect on `db`. */
export function probeEffects(db: Db): Promise<number> {
  return workItems(db).countDocuments({ kind: PROBE_EFFECT_KIND });
}

async function* ticks(): AsyncGenerator<number> {
  yield 1;
}

@Resolver()
export class AccessProbeResolver {
  @Query(() => Int)
  @Allow(Rights.query)
  probeQuery(): number {
    return 1;
  }

  @Mutation(() => String)
  @Allow(Rights.moveMoney)
  probeMoveMoney(@Ctx() ctx: AppContext): Promise<string> {
    return recordEffect(ctx, 'moveMoney');
  }

  @Mutation(() => String)
  @Allow(Rights.createWork)
  probeCreateWork(@Ctx() ctx: AppContext): Promise<string> {
    return recordEffect(ctx, 'createWork');
  }

  @Mutation(() => String)
  @Allow(Rights.processWork)
  probeProcessWork(@Ctx() ctx: AppContext): Promise<string> {
    return recordEffect(ctx, 'processWork');
  }

  @Mutation(() => String)
  @Allow(Rights.requeueWork)
  probeRequeueWork(@Ctx() ctx: AppContext): Promise<string> {
    return recordEffect(ctx, 'requeueWork');
  }

  @Subscription(() => Int, { subscribe: () => ticks(), description: 'Stands for any subscription' })
  @Allow(Rights.subscribe)
  probeSubscribe(): number {
    return 1;
  }

  @Subscription(() => Int, { subscribe: () => ticks(), description: 'Stands for workItemStatusChanged' })
  @Allow(Rights.subscribeWorkItemStatus)
  probeWorkItemStatus(): number {
    return 1;
  }
}

/** Each probe mutation, by the right it needs. */
export const PROBE_MUTATIONS = {
  moveMoney: 'mutation { probeMoveMoney }',
  createWork: 'mutation { probeCreateWork }',
  processWork: 'mutation { probeProcessWork }',
  requeueWork: 'mutation { probeRequeueWork }',
} as const;

export const PROBE_SUBSCRIPTIONS = {
  subscribe: 'subscription { probeSubscribe }',
  subscribeWorkItemStatus: 'subscription { probeWorkItemStatus }',
} as const;
