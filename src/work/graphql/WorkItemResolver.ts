// Thin resolvers: validate with zod, call the work service, map its result onto the contract's
// union. Rights mirror docs/design.md's roles table.
import { Arg, Ctx, Extensions, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { readOptions } from '../../graphql/consistency.ts';
import { rateLimitTokensEach, rateLimitTokensFrom } from '../../graphql/rateLimitTokens.ts';
import { DateTime } from '../../graphql/scalars.ts';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import type { WorkRequestContext } from './context.ts';
import * as zodInputs from '../inputs.ts';
import { WorkStatus } from '../model.ts';
import { ReadLimits, WorkLimits } from '../limits.ts';
import type { WorkService } from '../service.ts';
import {
  ClaimWorkItemInput,
  ClaimWorkItemsInput,
  CompleteWorkItemInput,
  CompleteWorkItemsInput,
  CreateWorkItemInput,
  HeartbeatWorkItemInput,
  HeartbeatWorkItemsInput,
  RequeueWorkItemInput,
} from './inputs.ts';
import { parseInput } from '../../graphql/parseInput.ts';
import { appError, ErrorCode } from '../../graphql/errors.ts';
import {
  ClaimWorkItemResult,
  ClaimWorkItemsResult,
  CompleteWorkItemResult,
  CompleteWorkItemsResult,
  CreateWorkItemResult,
  HeartbeatWorkItemResult,
  HeartbeatWorkItemsResult,
  RequeueWorkItemResult,
} from './results.ts';
import {
  toClaimBatchResult,
  toClaimResult,
  toCompleteResult,
  toCreateResult,
  toHeartbeatResult,
  toRequeueResult,
} from './toGraphql.ts';
import { toWorkItem, WorkGroupStats, WorkItem, WorkItemPage, WorkKindStats, WorkQueueStats } from './types.ts';

/** The app's one work service (src/app/createApp.ts), from the request's context. */
function work(ctx: WorkRequestContext): WorkService {
  return ctx.services.work;
}

@Resolver()
export class WorkItemResolver {
  @Mutation(() => CreateWorkItemResult)
  @Allow(Rights.createWork)
  async createWorkItem(
    @Arg('input', () => CreateWorkItemInput) input: CreateWorkItemInput,
    @Ctx() ctx: WorkRequestContext,
  ) {
    return toCreateResult(await work(ctx).create(parseInput(zodInputs.createWorkItemInput, input)));
  }

  @Mutation(() => ClaimWorkItemResult)
  @Allow(Rights.processWork)
  async claimWorkItem(
    @Arg('input', () => ClaimWorkItemInput) input: ClaimWorkItemInput,
    @Ctx() ctx: WorkRequestContext,
  ) {
    return toClaimResult(await work(ctx).claim(parseInput(zodInputs.claimWorkItemInput, input)));
  }

  @Mutation(() => ClaimWorkItemsResult, {
    description:
      'Up to `max` items of `kinds` at once, shared fairly between the kinds; each claimed by the same status-and-version precondition as claimWorkItem',
  })
  @Allow(Rights.processWork)
  async claimWorkItems(
    @Arg('input', () => ClaimWorkItemsInput) input: ClaimWorkItemsInput,
    @Ctx() ctx: WorkRequestContext,
  ) {
    return toClaimBatchResult(await work(ctx).claimMany(parseInput(zodInputs.claimWorkItemsInput, input)));
  }

  @Mutation(() => HeartbeatWorkItemResult)
  @Allow(Rights.processWork)
  async heartbeatWorkItem(
    @Arg('input', () => HeartbeatWorkItemInput) input: HeartbeatWorkItemInput,
    @Ctx() ctx: WorkRequestContext,
  ) {
    return toHeartbeatResult(await work(ctx).heartbeat(parseInput(zodInputs.heartbeatWorkItemInput, input)));
  }

  @Mutation(() => CompleteWorkItemResult)
  @Allow(Rights.processWork)
  async completeWorkItem(
    @Arg('input', () => CompleteWorkItemInput) input: CompleteWorkItemInput,
    @Ctx() ctx: WorkRequestContext,
  ) {
    return toCompleteResult(await work(ctx).complete(parseInput(zodInputs.completeWorkItemInput, input)));
  }

  @Mutation(() => HeartbeatWorkItemsResult, {
    description: 'Several heartbeats in one call: each item extends its own lease or is refused on its own',
  })
  @Allow(Rights.processWork)
  // One token per item: a batch costs what its heartbeats would one by one.
  @Extensions({ [rateLimitTokensFrom]: 'input.items' })
  async heartbeatWorkItems(
    @Arg('input', () => HeartbeatWorkItemsInput) input: HeartbeatWorkItemsInput,
    @Ctx() ctx: WorkRequestContext,
  ) {
    const results = await work(ctx).heartbeatMany(parseInput(zodInputs.heartbeatWorkItemsInput, input));
    return Object.assign(new HeartbeatWorkItemsResult(), { results: results.map(toHeartbeatResult) });
  }

  @Mutation(() => CompleteWorkItemsResult, {
    description:
      'Several completions in one call: each item is completeWorkItem under its own fence and key (a stale one is refused, the others apply)',
  })
  @Allow(Rights.processWork)
  @Extensions({ [rateLimitTokensFrom]: 'input.items' })
  async completeWorkItems(
    @Arg('input', () => CompleteWorkItemsInput) input: CompleteWorkItemsInput,
    @Ctx() ctx: WorkRequestContext,
  ) {
    const results = await work(ctx).completeMany(parseInput(zodInputs.completeWorkItemsInput, input));
    return Object.assign(new CompleteWorkItemsResult(), { results: results.map(toCompleteResult) });
  }

  @Mutation(() => RequeueWorkItemResult)
  @Allow(Rights.requeueWork)
  async requeueWorkItem(
    @Arg('input', () => RequeueWorkItemInput) input: RequeueWorkItemInput,
    @Ctx() ctx: WorkRequestContext,
  ) {
    return toRequeueResult(await work(ctx).requeue(parseInput(zodInputs.requeueWorkItemInput, input)));
  }

  @Query(() => WorkItem, { nullable: true })
  @Allow(Rights.query)
  async workItem(@Arg('id', () => ID) id: string, @Ctx() ctx: WorkRequestContext): Promise<WorkItem | null> {
    const doc = await work(ctx).get(parseInput(zodInputs.workItemIdQuery, { id }).id, readOptions(ctx));
    return doc === null ? null : toWorkItem(doc);
  }

  @Query(() => WorkItem, {
    nullable: true,
    description:
      'The item created with this idempotency key (as the client sent it), or a scheduled item by its whole key schedule:<name>:<period start ISO>',
  })
  @Allow(Rights.query)
  async workItemByKey(
    @Arg('idempotencyKey', () => String) idempotencyKey: string,
    @Ctx() ctx: WorkRequestContext,
  ): Promise<WorkItem | null> {
    const doc = await work(ctx).byKey(
      parseInput(zodInputs.workItemKeyQuery, { idempotencyKey }).idempotencyKey,
      readOptions(ctx),
    );
    return doc === null ? null : toWorkItem(doc);
  }

  @Query(() => WorkItem, {
    nullable: true,
    description: 'The PAYOUT item of a withdrawal entry; null until the projection has made it',
  })
  @Allow(Rights.query)
  async payoutFor(@Arg('entryId', () => ID) entryId: string, @Ctx() ctx: WorkRequestContext): Promise<WorkItem | null> {
    const doc = await work(ctx).payoutFor(parseInput(zodInputs.payoutForQuery, { entryId }).entryId, readOptions(ctx));
    return doc === null ? null : toWorkItem(doc);
  }

  @Query(() => WorkItemPage, {
    description: `Oldest first, filtered by status, kind, createdAt in [createdFrom, createdTo) and client key; at most ${WorkLimits.pageSizeMax} per page`,
  })
  @Allow(Rights.query)
  async workItems(
    @Arg('status', () => WorkStatus, { nullable: true }) status: WorkStatus | null,
    @Arg('kind', () => String, { nullable: true }) kind: string | null,
    @Arg('createdFrom', () => DateTime, { nullable: true }) createdFrom: Date | null,
    @Arg('createdTo', () => DateTime, { nullable: true }) createdTo: Date | null,
    @Arg('key', () => String, { nullable: true, description: 'A client idempotency key' }) key: string | null,
    @Arg('first', () => Int, { defaultValue: WorkLimits.pageSizeDefault }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: WorkRequestContext,
  ): Promise<WorkItemPage> {
    const query = parseInput(zodInputs.workItemsQuery, { status, kind, createdFrom, createdTo, key, first, after });
    const page = await work(ctx).list(query, readOptions(ctx));
    const items = page.items.map(toWorkItem);
    return Object.assign(new WorkItemPage(), {
      items,
      hasNextPage: page.hasNextPage,
      endCursor: items.at(-1)?.id ?? null,
      count: page.count,
    });
  }

  @Query(() => [WorkItem], {
    description: `The items changed most recently, newest first (by updatedAt); first: default 20, 1 to ${ReadLimits.recentItemsMax}`,
  })
  @Allow(Rights.query)
  async recentWorkItems(
    @Arg('first', () => Int, { defaultValue: WorkLimits.pageSizeDefault }) first: number,
    @Ctx() ctx: WorkRequestContext,
  ): Promise<WorkItem[]> {
    if (!Number.isInteger(first) || first < 1 || first > ReadLimits.recentItemsMax) {
      throw appError(
        ErrorCode.BAD_USER_INPUT,
        `first must be an integer from 1 to ${ReadLimits.recentItemsMax} (got ${first})`,
      );
    }
    return (await work(ctx).recent(first, readOptions(ctx))).map(toWorkItem);
  }

  @Query(() => WorkQueueStats)
  @Allow(Rights.query)
  // Up to kinds x 4 bounded counts: each use (each alias) takes a rate-limit token (issue 41).
  @Extensions({ [rateLimitTokensEach]: 1 })
  async workQueueStats(@Ctx() ctx: WorkRequestContext): Promise<WorkQueueStats> {
    const stats = await work(ctx).stats(readOptions(ctx));
    return Object.assign(new WorkQueueStats(), {
      counts: stats.counts,
      oldestPendingAgeSeconds: stats.oldestPendingAgeMs === null ? null : stats.oldestPendingAgeMs / 1000,
      conflictsSinceStart: stats.conflictsSinceStart,
      kinds: stats.kinds.map((k) => Object.assign(new WorkKindStats(), k)),
      groups: stats.groups.map((g) => Object.assign(new WorkGroupStats(), g)),
    });
  }
}

@Resolver(() => WorkItemPage)
export class WorkItemPageFieldsResolver {
  @FieldResolver(() => Int, { description: `Matching items, counted on the index up to ${ReadLimits.itemsCountMax}` })
  async totalCount(@Root() page: WorkItemPage): Promise<number> {
    return (await page.count()).totalCount;
  }

  @FieldResolver(() => Boolean, { description: 'True when there are more than `totalCount`' })
  async totalCountCapped(@Root() page: WorkItemPage): Promise<boolean> {
    return (await page.count()).totalCountCapped;
  }
}
