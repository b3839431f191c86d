// Thin resolvers of schedules (flow 8): validate with zod, call the work service, map its result.
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { readOptions } from '../../graphql/consistency.ts';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import { appError, ErrorCode } from '../../graphql/errors.ts';
import { parseInput } from '../../graphql/parseInput.ts';
import type { WorkRequestContext } from './context.ts';
import * as zodInputs from '../inputs.ts';
import { ScheduleLimits } from '../limits.ts';
import { ScheduleWorkInput, UnscheduleWorkInput } from './inputs.ts';
import { ScheduleWorkResult, UnscheduleWorkResult } from './results.ts';
import { scheduleOf, toScheduleResult, toUnscheduleResult } from './toGraphql.ts';
import { Schedule } from './types.ts';

@Resolver()
export class ScheduleResolver {
  @Mutation(() => ScheduleWorkResult, {
    description: 'Stores a cron schedule: each period creates one work item, whichever API processes are alive',
  })
  @Allow(Rights.scheduleWork)
  async scheduleWork(@Arg('input', () => ScheduleWorkInput) input: ScheduleWorkInput, @Ctx() ctx: WorkRequestContext) {
    return toScheduleResult(await ctx.services.work.schedule(parseInput(zodInputs.scheduleWorkInput, input)));
  }

  @Mutation(() => UnscheduleWorkResult)
  @Allow(Rights.scheduleWork)
  async unscheduleWork(
    @Arg('input', () => UnscheduleWorkInput) input: UnscheduleWorkInput,
    @Ctx() ctx: WorkRequestContext,
  ) {
    return toUnscheduleResult(await ctx.services.work.unschedule(parseInput(zodInputs.unscheduleWorkInput, input)));
  }

  @Query(() => [Schedule], {
    description: `The schedules by name, with their next and last fire; first: default and at most ${ScheduleLimits.listMax}`,
  })
  @Allow(Rights.query)
  async schedules(
    @Arg('first', () => Int, { defaultValue: ScheduleLimits.listMax }) first: number,
    @Ctx() ctx: WorkRequestContext,
  ): Promise<Schedule[]> {
    if (!Number.isInteger(first) || first < 1 || first > ScheduleLimits.listMax) {
      throw appError(
        ErrorCode.BAD_USER_INPUT,
        `first must be an integer from 1 to ${ScheduleLimits.listMax} (got ${first})`,
      );
    }
    return (await ctx.services.work.schedules(first, readOptions(ctx))).map(scheduleOf);
  }
}
