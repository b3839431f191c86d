// The dashboards' ledger queries: entries across accounts, totals per currency, one request's
// state. Thin: validate with zod, call src/ledger/dashboard.ts, map onto the object types.
import {
  Arg,
  Ctx,
  Extensions,
  Field,
  FieldResolver,
  ID,
  Int,
  ObjectType,
  Query,
  Resolver,
  Root,
  registerEnumType,
} from 'type-graphql';
import { z } from 'zod';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import { readOptions } from '../../graphql/consistency.ts';
import { rateLimitTokensEach } from '../../graphql/rateLimitTokens.ts';
import type { LedgerRequestContext } from './context.ts';
import { parseInput } from '../../graphql/parseInput.ts';
import { BigIntString, DateTime, SafeInt } from '../../graphql/scalars.ts';
import { decodeEntriesCursor, type CappedCount, ENTRY_KINDS, type LedgerRequestStatus } from '../dashboard.ts';
import { DashboardLimits, idLengthMax, LifecycleLimits } from '../limits.ts';
import type { EntryKind } from '../model.ts';
import { LedgerEntry, LedgerEntryKind, toLedgerEntry } from './types.ts';
import { RefusalFields } from './results.ts';

const LedgerRequestStatusEnum = Object.freeze({
  PENDING: 'PENDING',
  APPLIED: 'APPLIED',
  REJECTED: 'REJECTED',
} as const);
type LedgerRequestStatusEnum = (typeof LedgerRequestStatusEnum)[keyof typeof LedgerRequestStatusEnum];
registerEnumType(LedgerRequestStatusEnum, {
  name: 'LedgerRequestStatus',
  description: 'PENDING until decided; APPLIED and REJECTED are final',
});

const STATUS_OF: Record<LedgerRequestStatus, LedgerRequestStatusEnum> = {
  pending: 'PENDING',
  applied: 'APPLIED',
  rejected: 'REJECTED',
};

@ObjectType({ description: 'Newest first' })
export class LedgerEntryList {
  @Field(() => [LedgerEntry])
  items!: LedgerEntry[];

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page' })
  endCursor!: string | null;

  @Field(() => Boolean)
  hasNextPage!: boolean;

  /** Counted when `totalCount` or `totalCountCapped` is selected, once. */
  count!: () => Promise<CappedCount>;
}

@Resolver(() => LedgerEntryList)
export class LedgerEntryListFieldsResolver {
  @FieldResolver(() => Int, {
    description: `Matching entries, counted on the index up to ${DashboardLimits.entriesCountMax}`,
  })
  async totalCount(@Root() list: LedgerEntryList): Promise<number> {
    return (await list.count()).totalCount;
  }

  @FieldResolver(() => Boolean, { description: 'True when there are more than `totalCount`' })
  async totalCountCapped(@Root() list: LedgerEntryList): Promise<boolean> {
    return (await list.count()).totalCountCapped;
  }
}

@ObjectType()
export class MoneyFlow {
  @Field(() => Int)
  count!: number;

  @Field(() => BigIntString, { description: 'Integer minor units, exact at any size (a sum of many amounts)' })
  amount!: bigint;
}

@ObjectType({ description: 'One currency: money held now, and the flows of a time range' })
export class LedgerTotals {
  @Field(() => String)
  currency!: string;

  @Field(() => BigIntString, {
    description: "The sum of the currency's account balances now (not as of `to`), exact at any size",
  })
  moneyHeld!: bigint;

  @Field(() => BigIntString, {
    description: "The sum of the currency's accounts' pending holds now: part of moneyHeld, not available to spend",
  })
  moneyOnHold!: bigint;

  @Field(() => Int)
  accounts!: number;

  @Field(() => MoneyFlow)
  deposits!: MoneyFlow;

  @Field(() => MoneyFlow)
  withdrawals!: MoneyFlow;

  @Field(() => MoneyFlow, { description: 'Money moved between accounts, each transfer counted once' })
  transfers!: MoneyFlow;
}

@ObjectType({ description: 'Why a request was refused' })
export class LedgerRejection extends RefusalFields {}

@ObjectType({
  description: 'A money request under its caller key: pending, applied (with its entries) or rejected (with why)',
})
export class LedgerRequest {
  @Field(() => String)
  requestId!: string;

  @Field(() => LedgerRequestStatusEnum)
  status!: LedgerRequestStatusEnum;

  @Field(() => String, { description: 'deposit, withdraw or transfer' })
  operation!: string;

  @Field(() => SafeInt)
  amount!: number;

  @Field(() => ID, { nullable: true })
  fromAccountId!: string | null;

  @Field(() => ID, { nullable: true })
  toAccountId!: string | null;

  @Field(() => DateTime)
  firstSeenAt!: Date;

  @Field(() => DateTime, { nullable: true })
  decidedAt!: Date | null;

  @Field(() => [LedgerEntry], { description: 'What it wrote (APPLIED only), the debit leg first' })
  entries!: LedgerEntry[];

  @Field(() => LedgerRejection, { nullable: true, description: 'Why it was refused (REJECTED only)' })
  rejection!: LedgerRejection | null;
}

const printable = z
  .string()
  .min(1)
  .max(idLengthMax)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');
const currency = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter upper-case code such as EUR');
const timeRange = <T extends { from?: Date | undefined; to?: Date | undefined }>(range: T) =>
  range.from === undefined || range.to === undefined || range.from < range.to;

const entriesArgs = z
  .object({
    accountId: printable.optional(),
    reference: z.string().min(1).max(LifecycleLimits.referenceLengthMax).optional(),
    kinds: z
      .array(z.enum(ENTRY_KINDS as [EntryKind, ...EntryKind[]]))
      .max(ENTRY_KINDS.length)
      .optional(),
    currency: currency.optional(),
    from: z.date().optional(),
    to: z.date().optional(),
    first: z.number().int().min(1).max(DashboardLimits.entriesPageMax).default(DashboardLimits.entriesPageDefault),
    after: z
      .string()
      .max(1_024)
      .transform(
        (cursor, ctx) =>
          decodeEntriesCursor(cursor) ??
          (ctx.addIssue({ code: 'custom', message: 'is not a cursor of this list' }), z.NEVER),
      )
      .optional(),
  })
  .refine(timeRange, { message: 'from must be before to', path: ['to'] });

const totalsArgs = z
  .object({ currency, from: z.date().optional(), to: z.date().optional() })
  .refine(timeRange, { message: 'from must be before to', path: ['to'] });

@Resolver()
export class DashboardResolver {
  @Query(() => LedgerEntryList, {
    description: `Entries across accounts, newest first, filtered by account, the moves' reference, kinds, currency and createdAt in [from, to); at most ${DashboardLimits.entriesPageMax} per page`,
  })
  @Allow(Rights.query)
  async ledgerEntries(
    @Arg('accountId', () => ID, { nullable: true }) accountId: string | null,
    @Arg('reference', () => String, {
      nullable: true,
      description: "The moves' reference, exactly as sent (index-backed)",
    })
    reference: string | null,
    @Arg('kinds', () => [LedgerEntryKind], { nullable: true }) kinds: EntryKind[] | null,
    @Arg('currency', () => String, { nullable: true }) currency: string | null,
    @Arg('from', () => DateTime, { nullable: true }) from: Date | null,
    @Arg('to', () => DateTime, { nullable: true }) to: Date | null,
    @Arg('first', () => Int, { nullable: true }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: LedgerRequestContext,
  ): Promise<LedgerEntryList> {
    const query = parseInput(entriesArgs, { accountId, reference, kinds, currency, from, to, first, after });
    const page = await ctx.services.ledgerDashboard.listEntries(query, readOptions(ctx));
    return Object.assign(new LedgerEntryList(), { ...page, items: page.items.map(toLedgerEntry) });
  }

  @Query(() => LedgerTotals, {
    description:
      'Money held in a currency now, and its deposits, withdrawals and transfers with createdAt in [from, to)',
  })
  @Allow(Rights.query)
  // A walk over the currency's journal and accounts: each use (each alias) takes a rate-limit token.
  @Extensions({ [rateLimitTokensEach]: 1 })
  async ledgerTotals(
    @Arg('currency', () => String) currencyCode: string,
    @Arg('from', () => DateTime, { nullable: true }) from: Date | null,
    @Arg('to', () => DateTime, { nullable: true }) to: Date | null,
    @Ctx() ctx: LedgerRequestContext,
  ): Promise<LedgerTotals> {
    const totals = await ctx.services.ledgerDashboard.totals(
      parseInput(totalsArgs, { currency: currencyCode, from, to }),
      readOptions(ctx),
    );
    const flow = (value: { count: number; amount: bigint }) => Object.assign(new MoneyFlow(), value);
    return Object.assign(new LedgerTotals(), {
      ...totals,
      deposits: flow(totals.deposits),
      withdrawals: flow(totals.withdrawals),
      transfers: flow(totals.transfers),
    });
  }

  @Query(() => LedgerRequest, {
    nullable: true,
    description: 'A money request by its caller key, whatever its state; null when never seen',
  })
  @Allow(Rights.query)
  async ledgerRequest(
    @Arg('requestId', () => String) requestId: string,
    @Ctx() ctx: LedgerRequestContext,
  ): Promise<LedgerRequest | null> {
    const view = await ctx.services.ledgerDashboard.request(
      parseInput(z.object({ requestId: printable }), { requestId }).requestId,
      readOptions(ctx),
    );
    if (view === null) return null;
    return Object.assign(new LedgerRequest(), {
      ...view,
      status: STATUS_OF[view.status],
      entries: view.entries.map(toLedgerEntry),
      rejection: view.rejection === null ? null : Object.assign(new LedgerRejection(), view.rejection),
    });
  }
}
