// Thin resolvers: validate with zod, call the ledger service, map its result onto the
// contract's union. Rights mirror docs/design.md's roles table.
import { Arg, Ctx, Extensions, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import type { LedgerRequestContext } from './context.ts';
import { parseInput } from '../../graphql/parseInput.ts';
import { rateLimitTokensFrom } from '../../graphql/rateLimitTokens.ts';
import * as zodInputs from '../inputs.ts';
import { pageSizeMax, submitMovesMax } from '../limits.ts';
import type { Page } from '../queries.ts';
import type { LedgerEntry as ServiceEntry } from '../results.ts';
import type { LedgerService } from '../service.ts';
import {
  CloseAccountInput,
  DepositInput,
  OpenAccountInput,
  ReverseMoveInput,
  SubmitMovesInput,
  TransferInput,
  WithdrawInput,
} from './inputs.ts';
import {
  CloseAccountResult,
  ReverseMoveResult,
  toCloseAccountResult,
  toReverseMoveResult,
} from './lifecycleResults.ts';
import { DepositResult, OpenAccountResult, SubmitMovesResult, TransferResult, WithdrawResult } from './results.ts';
import {
  toDepositResult,
  toOpenAccountResult,
  toSubmitMovesResult,
  toTransferResult,
  toWithdrawResult,
} from './toGraphql.ts';
import {
  Account,
  AccountPage,
  BalanceHistoryPage,
  BalancePoint,
  LedgerEntry,
  LedgerEntryPage,
  toAccount,
  toLedgerEntry,
} from './types.ts';
import { DateTime, JSONScalar, SafeInt } from '../../graphql/scalars.ts';
import { present } from '../../lib/assert.ts';

/** The app's one ledger service (src/app/createApp.ts), from the request's context. */
function ledger(ctx: LedgerRequestContext): LedgerService {
  return ctx.services.ledger;
}

function entryPage(page: Page<ServiceEntry>): LedgerEntryPage {
  return Object.assign(new LedgerEntryPage(), { ...page, items: page.items.map(toLedgerEntry) });
}

const pageDescription = `Newest first; at most ${pageSizeMax} per page`;

@Resolver()
export class LedgerResolver {
  @Mutation(() => OpenAccountResult)
  @Allow(Rights.moveMoney)
  async openAccount(@Arg('input', () => OpenAccountInput) input: OpenAccountInput, @Ctx() ctx: LedgerRequestContext) {
    return toOpenAccountResult(await ledger(ctx).openAccount(parseInput(zodInputs.openAccountInput, input)));
  }

  @Mutation(() => DepositResult)
  @Allow(Rights.moveMoney)
  async deposit(@Arg('input', () => DepositInput) input: DepositInput, @Ctx() ctx: LedgerRequestContext) {
    return toDepositResult(await ledger(ctx).deposit(parseInput(zodInputs.depositInput, input)));
  }

  @Mutation(() => WithdrawResult)
  @Allow(Rights.moveMoney)
  async withdraw(@Arg('input', () => WithdrawInput) input: WithdrawInput, @Ctx() ctx: LedgerRequestContext) {
    return toWithdrawResult(await ledger(ctx).withdraw(parseInput(zodInputs.withdrawInput, input)));
  }

  @Mutation(() => TransferResult)
  @Allow(Rights.moveMoney)
  async transfer(@Arg('input', () => TransferInput) input: TransferInput, @Ctx() ctx: LedgerRequestContext) {
    return toTransferResult(await ledger(ctx).transfer(parseInput(zodInputs.transferInput, input)));
  }

  @Mutation(() => SubmitMovesResult, {
    description: `Up to ${submitMovesMax} moves in one transaction, one result each, in order`,
  })
  @Allow(Rights.moveMoney)
  @Extensions({ [rateLimitTokensFrom]: 'input.moves' })
  async submitMoves(@Arg('input', () => SubmitMovesInput) input: SubmitMovesInput, @Ctx() ctx: LedgerRequestContext) {
    // The size first: a batch past the maximum is BatchTooLarge, whatever its moves hold.
    const tooLarge = ledger(ctx).batchTooLarge(input.moves.length);
    if (tooLarge) return toSubmitMovesResult(tooLarge);
    return toSubmitMovesResult(await ledger(ctx).submitMoves(parseInput(zodInputs.submitMovesInput, input)));
  }

  @Mutation(() => ReverseMoveResult, {
    description:
      'Reverses all or part of a deposit or transfer under its own requestId, never past what is left of it (amount absent: all that is left)',
  })
  @Allow(Rights.moveMoney)
  async reverseMove(@Arg('input', () => ReverseMoveInput) input: ReverseMoveInput, @Ctx() ctx: LedgerRequestContext) {
    return toReverseMoveResult(await ledger(ctx).reverseMove(parseInput(zodInputs.reverseMoveInput, input)));
  }

  @Mutation(() => CloseAccountResult, {
    description:
      'Moves the whole balance to transferBalanceTo and closes the account, in one transaction; no move applies to it afterwards',
  })
  @Allow(Rights.moveMoney)
  async closeAccount(
    @Arg('input', () => CloseAccountInput) input: CloseAccountInput,
    @Ctx() ctx: LedgerRequestContext,
  ) {
    return toCloseAccountResult(await ledger(ctx).closeAccount(parseInput(zodInputs.closeAccountInput, input)));
  }

  @Query(() => SafeInt, {
    nullable: true,
    description:
      "An account's balance as of `at` (Account.balanceAt as a root field, for the SDK); null when there is no such account",
  })
  @Allow(Rights.query)
  async balanceAt(
    @Arg('accountId', () => ID) accountId: string,
    @Arg('at', () => DateTime) at: Date,
    @Ctx() ctx: LedgerRequestContext,
  ): Promise<number | null> {
    const id = parseInput(zodInputs.accountIdQuery, { id: accountId }).id;
    if ((await ctx.loaders.accountById.load(id)) === null) return null;
    return ledger(ctx).balanceAt(id, at);
  }

  @Query(() => BalanceHistoryPage, {
    description: `An account's balance after each decision, newest first, at or before \`at\` (absent: now), on the database clock; at most ${pageSizeMax} per page`,
  })
  @Allow(Rights.query)
  async balanceHistory(
    @Arg('accountId', () => ID) accountId: string,
    @Arg('at', () => DateTime, { nullable: true }) at: Date | null,
    @Arg('first', () => Int, { nullable: true }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: LedgerRequestContext,
  ): Promise<BalanceHistoryPage> {
    const page = await ledger(ctx).balanceHistory(
      parseInput(zodInputs.balanceHistoryInput, { accountId, at, first, after }),
    );
    const items = page.items.map((point) =>
      Object.assign(new BalancePoint(), { ...point, entry: toLedgerEntry(point.entry) }),
    );
    return Object.assign(new BalanceHistoryPage(), { ...page, items });
  }

  @Query(() => Account, { nullable: true })
  @Allow(Rights.query)
  async account(@Arg('id', () => ID) id: string, @Ctx() ctx: LedgerRequestContext): Promise<Account | null> {
    const snapshot = await ctx.loaders.accountById.load(parseInput(zodInputs.accountIdQuery, { id }).id);
    return snapshot === null ? null : toAccount(snapshot);
  }

  @Query(() => AccountPage, { description: `In id order; at most ${pageSizeMax} per page` })
  @Allow(Rights.query)
  async accounts(
    @Arg('first', () => Int, { nullable: true }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: LedgerRequestContext,
  ): Promise<AccountPage> {
    const page = await ledger(ctx).listAccounts(parseInput(zodInputs.accountsPageInput, { first, after }));
    return Object.assign(new AccountPage(), { ...page, items: page.items.map(toAccount) });
  }

  // `ledgerEntries` (across accounts, with filters) lives in DashboardResolver.ts.

  @Query(() => LedgerEntry, { nullable: true, description: "The entry a request wrote; a transfer's debit leg" })
  @Allow(Rights.query)
  async ledgerEntry(
    @Arg('requestId', () => String) requestId: string,
    @Ctx() ctx: LedgerRequestContext,
  ): Promise<LedgerEntry | null> {
    const entry = await ledger(ctx).entryByRequest(parseInput(zodInputs.ledgerEntryInput, { requestId }).requestId);
    return entry === null ? null : toLedgerEntry(entry);
  }
}

@Resolver(() => Account)
export class AccountFieldsResolver {
  @FieldResolver(() => LedgerEntryPage, { description: pageDescription })
  async entries(
    @Root() account: Account,
    @Arg('first', () => Int, { nullable: true }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: LedgerRequestContext,
  ): Promise<LedgerEntryPage> {
    return entryPage(
      await ledger(ctx).listEntries(parseInput(zodInputs.entriesPageInput, { accountId: account.id, first, after })),
    );
  }

  @FieldResolver(() => SafeInt, {
    description:
      "The balance as of `at`: right after the account's last decision committed at or before it, on the database clock (0 before its first)",
  })
  async balanceAt(
    @Root() account: Account,
    @Arg('at', () => DateTime) at: Date,
    @Ctx() ctx: LedgerRequestContext,
  ): Promise<number> {
    return ledger(ctx).balanceAt(account.id, at);
  }
}

@Resolver(() => LedgerEntry)
export class LedgerEntryFieldsResolver {
  @FieldResolver(() => Account, { description: 'The account as it is now' })
  async account(@Root() entry: LedgerEntry, @Ctx() ctx: LedgerRequestContext): Promise<Account> {
    return loadAccount(ctx, entry.accountId);
  }

  @FieldResolver(() => Account, { nullable: true, description: 'The other account of a transfer, as it is now' })
  async counterparty(@Root() entry: LedgerEntry, @Ctx() ctx: LedgerRequestContext): Promise<Account | null> {
    return entry.counterpartyAccountId === null ? null : loadAccount(ctx, entry.counterpartyAccountId);
  }

  @FieldResolver(() => JSONScalar, {
    nullable: true,
    description: "The move's metadata, as sent (stored once, with its request)",
  })
  async metadata(@Root() entry: LedgerEntry, @Ctx() ctx: LedgerRequestContext): Promise<unknown> {
    const text =
      entry.metadata !== undefined
        ? entry.metadata
        : (await ctx.loaders.moveAnnotations.load(entry.requestId)).metadata;
    return text === null ? null : JSON.parse(text);
  }

  @FieldResolver(() => SafeInt, {
    description: "On a deposit's or transfer's entries: the total its reversals took back so far (0 otherwise)",
  })
  async reversedAmount(@Root() entry: LedgerEntry, @Ctx() ctx: LedgerRequestContext): Promise<number> {
    if (entry.kind !== 'deposit' && entry.kind !== 'transferOut' && entry.kind !== 'transferIn') return 0;
    return (await ctx.loaders.moveAnnotations.load(entry.requestId)).reversedAmount;
  }
}

/** Through the request's loader, so a page of entries costs one accounts query, not one per entry. */
async function loadAccount(ctx: LedgerRequestContext, accountId: string): Promise<Account> {
  const snapshot = present(
    await ctx.loaders.accountById.load(accountId),
    () => `an entry names the missing account ${accountId}`,
  );
  return toAccount(snapshot);
}
