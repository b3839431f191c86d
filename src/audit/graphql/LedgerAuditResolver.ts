// The audit's results for dashboards and ops, and an admin's "run it now". Thin: read or call
// the app's one audit (`ctx.services.ledgerAudit`, built by src/app/createApp.ts), map the plain records onto GraphQL types.
import { createUnionType, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import type { RequestContext } from '../../graphql/context.ts';
import type { LedgerAudit as LedgerAuditService } from '../LedgerAudit.ts';

type AuditRequestContext = RequestContext<{ ledgerAudit: LedgerAuditService }>;
import { DateTime, SafeInt } from '../../graphql/scalars.ts';
import type { AuditRunDoc, Mismatch } from '../model.ts';

@ObjectType({ description: 'One thing the ledger audit found wrong' })
export class LedgerAuditMismatch {
  @Field(() => String, { nullable: true, description: 'The account concerned; null for an undecided request' })
  accountId!: string | null;

  @Field(() => String, {
    description: 'BALANCE, NEGATIVE_BALANCE, TRANSFER_UNBALANCED, PAYOUT_MISSING or REQUEST_UNDECIDED',
  })
  kind!: string;

  @Field(() => String, { description: 'What was checked: the account, the entry or the request id' })
  subject!: string;

  @Field(() => SafeInt, {
    description: 'Minor units for balances and amounts; 1 for a payout; the bound in ms for a request',
  })
  expected!: number;

  @Field(() => SafeInt, { description: 'What the database holds, in the same unit' })
  actual!: number;
}

@ObjectType({ description: 'The latest finished run of the ledger audit' })
export class LedgerAudit {
  @Field(() => DateTime, { description: 'When the run finished (database clock)' })
  lastRunAt!: Date;

  @Field(() => String, { description: 'incremental (accounts changed since the previous run) or full' })
  scope!: string;

  @Field(() => Int)
  accountsChecked!: number;

  @Field(() => Int)
  entriesChecked!: number;

  @Field(() => Int, { description: 'Exact, even when the list below is cut at its bound' })
  mismatchCount!: number;

  @Field(() => [LedgerAuditMismatch])
  mismatches!: LedgerAuditMismatch[];
}

@ObjectType({ description: 'The run finished; here it is' })
export class LedgerAuditFinished {
  @Field(() => LedgerAudit)
  audit!: LedgerAudit;
}

@ObjectType({ description: 'Another process holds the audit lease; it runs a full audit at its next tick' })
export class LedgerAuditQueued {
  @Field(() => DateTime)
  requestedAt!: Date;
}

export const RunLedgerAuditResult = createUnionType({
  name: 'RunLedgerAuditResult',
  types: () => [LedgerAuditFinished, LedgerAuditQueued] as const,
});

function toLedgerAudit(run: AuditRunDoc): LedgerAudit {
  const mismatches = run.mismatches.map((mismatch: Mismatch) => Object.assign(new LedgerAuditMismatch(), mismatch));
  return Object.assign(new LedgerAudit(), {
    lastRunAt: run.finishedAt,
    scope: run.scope,
    accountsChecked: run.accountsChecked,
    entriesChecked: run.entriesChecked,
    mismatchCount: run.mismatchCount,
    mismatches,
  });
}

@Resolver()
export class LedgerAuditResolver {
  @Query(() => LedgerAudit, {
    nullable: true,
    description: 'The latest finished ledger audit run; null before the first',
  })
  @Allow(Rights.readAudit)
  async ledgerAudit(@Ctx() ctx: AuditRequestContext): Promise<LedgerAudit | null> {
    const run = await ctx.services.ledgerAudit.latest();
    return run ? toLedgerAudit(run) : null;
  }

  @Mutation(() => RunLedgerAuditResult, {
    description: 'Runs a full ledger audit now, or queues it for the process that holds the audit lease',
  })
  @Allow(Rights.runAudit)
  async runLedgerAudit(@Ctx() ctx: AuditRequestContext): Promise<typeof RunLedgerAuditResult> {
    const result = await ctx.services.ledgerAudit.runNow();
    if (result.kind === 'finished')
      return Object.assign(new LedgerAuditFinished(), { audit: toLedgerAudit(result.run) });
    return Object.assign(new LedgerAuditQueued(), { requestedAt: result.requestedAt });
  }
}
