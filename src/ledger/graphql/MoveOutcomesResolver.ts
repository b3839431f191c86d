// The ledger's answers by result, for the ops console's "moves by result" chart: the series of
// `ledger_outcomes_total` this process counted, as /metrics shows them. Counters since the
// process started: a reader takes two and divides the difference by the time between them.
import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import { SafeInt } from '../../graphql/scalars.ts';
import type { LedgerRequestContext } from './context.ts';

@ObjectType({
  description: 'How many times one ledger mutation answered one union member, in this API process since it started',
})
export class MoveOutcomeCount {
  @Field(() => String, {
    description:
      'The mutation (deposit, withdraw, transfer, authorizeHold, ...); a batch counts each of its moves under its own kind, and itself as submitMoves',
  })
  operation!: string;

  @Field(() => String, {
    description:
      'The union member it answered: WithdrawSuccess, InsufficientFunds, DuplicateReplayed, OutcomeUnknown, ...',
  })
  outcome!: string;

  @Field(() => SafeInt, { description: 'Answers counted (ledger_outcomes_total{op,outcome})' })
  count!: number;
}

/** The counter's label is the result's `kind` (camelCase); GraphQL names the member in PascalCase. */
function memberName(kind: string): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

@Resolver()
export class MoveOutcomesResolver {
  @Query(() => [MoveOutcomeCount], {
    description:
      'The answers this API process gave to ledger mutations since it started, by operation and result (another process counts its own)',
  })
  @Allow(Rights.query)
  async moveOutcomes(@Ctx() ctx: LedgerRequestContext): Promise<MoveOutcomeCount[]> {
    const counts = await ctx.services.ledger.outcomeCounts();
    return counts.map(({ op, outcome, count }) =>
      Object.assign(new MoveOutcomeCount(), { operation: op, outcome: memberName(outcome), count }),
    );
  }
}
