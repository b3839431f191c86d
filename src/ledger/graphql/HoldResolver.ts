// Thin resolvers of the hold mutations and reads: validate with zod, call the ledger service, map
// its result onto the contract's union. Rights as DESIGN's roles table (service, admin).
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import { inputMistakeError, parseInput } from '../../graphql/parseInput.ts';
import * as zodInputs from '../inputs.ts';
import { pageSizeMax } from '../limits.ts';
import type { HoldStatusName } from '../results.ts';
import type { LedgerRequestContext } from './context.ts';
import { toAuthorizeHoldResult, toCaptureHoldResult, toVoidHoldResult } from './holdToGraphql.ts';
import { AuthorizeHoldResult, CaptureHoldResult, VoidHoldResult } from './holdResults.ts';
import { Hold, HoldPage, HoldStatus, toHold } from './holdTypes.ts';
import { AuthorizeHoldInput, CaptureHoldInput, VoidHoldInput } from './inputs.ts';

@Resolver()
export class HoldResolver {
  @Mutation(() => AuthorizeHoldResult, {
    description: 'Reserves an amount of the available balance until captured, voided or expired',
  })
  @Allow(Rights.moveMoney)
  async authorizeHold(
    @Arg('input', () => AuthorizeHoldInput) input: AuthorizeHoldInput,
    @Ctx() ctx: LedgerRequestContext,
  ) {
    return toAuthorizeHoldResult(
      await ctx.services.ledger.authorizeHold(parseInput(zodInputs.authorizeHoldInput, input)),
    );
  }

  @Mutation(() => CaptureHoldResult, {
    description: 'Captures all or part of a pending hold (once); the rest is released in the same transaction',
  })
  @Allow(Rights.moveMoney)
  async captureHold(@Arg('input', () => CaptureHoldInput) input: CaptureHoldInput, @Ctx() ctx: LedgerRequestContext) {
    const result = await ctx.services.ledger.captureHold(parseInput(zodInputs.captureHoldInput, input));
    if (result.kind === 'inputMistake') throw inputMistakeError(result);
    return toCaptureHoldResult(result);
  }

  @Mutation(() => VoidHoldResult, { description: 'Releases a pending hold' })
  @Allow(Rights.moveMoney)
  async voidHold(@Arg('input', () => VoidHoldInput) input: VoidHoldInput, @Ctx() ctx: LedgerRequestContext) {
    return toVoidHoldResult(await ctx.services.ledger.voidHold(parseInput(zodInputs.voidHoldInput, input)));
  }

  @Query(() => Hold, { nullable: true })
  @Allow(Rights.query)
  async hold(@Arg('id', () => ID) id: string, @Ctx() ctx: LedgerRequestContext): Promise<Hold | null> {
    const snapshot = await ctx.services.ledger.holdById(parseInput(zodInputs.holdIdQuery, { id }).id);
    return snapshot === null ? null : toHold(snapshot);
  }

  @Query(() => HoldPage, { description: `One account's holds, newest first; at most ${pageSizeMax} per page` })
  @Allow(Rights.query)
  async holds(
    @Arg('accountId', () => ID) accountId: string,
    @Arg('status', () => HoldStatus, { nullable: true }) status: HoldStatusName | null,
    @Arg('first', () => Int, { nullable: true }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: LedgerRequestContext,
  ): Promise<HoldPage> {
    const page = await ctx.services.ledger.listHolds(
      parseInput(zodInputs.holdsPageInput, { accountId, status, first, after }),
    );
    return Object.assign(new HoldPage(), { ...page, items: page.items.map(toHold) });
  }
}
