// The ledger's GraphQL object types. Money is SafeInt (integer minor units), instants DateTime.
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTime, SafeInt } from '../../graphql/scalars.ts';
import type { EntryKind } from '../model.ts';
import type { AccountSnapshot, AccountStatusName, LedgerEntry as ServiceEntry } from '../results.ts';

export const LedgerEntryKind = Object.freeze({
  deposit: 'deposit',
  withdrawal: 'withdrawal',
  transferOut: 'transferOut',
  transferIn: 'transferIn',
  depositReversal: 'depositReversal',
} as const satisfies Record<EntryKind, EntryKind>);

registerEnumType(LedgerEntryKind, {
  name: 'LedgerEntryKind',
  description: 'Which way the money of an entry went; depositReversal: a reversed deposit taken back out (no payout)',
});

export const AccountStatus = Object.freeze({ OPEN: 'OPEN', CLOSED: 'CLOSED' } as const satisfies Record<
  AccountStatusName,
  AccountStatusName
>);
registerEnumType(AccountStatus, {
  name: 'AccountStatus',
  description: 'CLOSED: closeAccount moved its balance away; no move applies to it again',
});

@ObjectType({ description: 'An account; `entries` is its journal, newest first' })
export class Account {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'ISO 4217 code, fixed when the account is opened' })
  currency!: string;

  @Field(() => SafeInt, { description: 'Integer minor units' })
  balance!: number;

  @Field(() => SafeInt, {
    description: 'Decisions recorded on the account (each applied or refused movement adds one)',
  })
  version!: number;

  @Field(() => SafeInt, {
    nullable: true,
    description:
      "Sum of the account's pending holds, integer minor units. Null in the account of a deposit's, withdrawal's or transfer's answer (rebuilt from its journal entry, which records balances, not holds): read account(id) for it",
  })
  held!: number | null;

  @Field(() => SafeInt, {
    nullable: true,
    description: 'balance - held: what withdrawals, transfers and new holds may spend. Null where `held` is',
  })
  available!: number | null;

  @Field(() => AccountStatus)
  status!: AccountStatusName;

  @Field(() => DateTime, {
    nullable: true,
    description: 'When closeAccount closed it (database clock); null while open',
  })
  closedAt!: Date | null;
}

/**
 * What a journal line says, shared by the entry itself and the event that announces it. No field
 * returns this class, so the schema has no type of its name: only its subclasses inherit its fields.
 */
@ObjectType()
export abstract class LedgerEntryFields {
  @Field(() => String, { description: 'The caller key of the request that wrote it' })
  requestId!: string;

  @Field(() => ID)
  accountId!: string;

  @Field(() => String)
  currency!: string;

  @Field(() => LedgerEntryKind)
  kind!: EntryKind;

  @Field(() => SafeInt, { description: 'Positive integer minor units; `kind` gives the direction' })
  amount!: number;

  @Field(() => SafeInt, { description: "The account's balance right after this entry" })
  balanceAfter!: number;

  @Field(() => SafeInt, { description: "The account's version right after this entry" })
  versionAfter!: number;

  @Field(() => ID, { nullable: true, description: 'The other account of a transfer' })
  counterpartyAccountId!: string | null;

  @Field(() => DateTime)
  createdAt!: Date;
}

@ObjectType({ description: 'One immutable journal line: money that reached or left one account' })
export class LedgerEntry extends LedgerEntryFields {
  @Field(() => ID)
  id!: string;

  @Field(() => String, {
    nullable: true,
    description: "The move's reference, as sent (ledgerEntries(reference:) finds it)",
  })
  reference!: string | null;

  @Field(() => String, {
    nullable: true,
    description: "On a reversal's entries: the requestId of the deposit or transfer it reverses",
  })
  reversalOf!: string | null;

  @Field(() => DateTime, {
    nullable: true,
    description:
      'When its transaction committed it, on the database clock (what balanceAt orders by); null on entries older than it',
  })
  committedAt!: Date | null;

  /** JSON text when the answer holds it; undefined: looked up on the request (LedgerEntryFieldsResolver). */
  metadata?: string | null;
}

@ObjectType({ description: "One point of an account's balance history: the balance right after one decision" })
export class BalancePoint {
  @Field(() => DateTime, { description: 'When the decision committed (database clock)' })
  at!: Date;

  @Field(() => SafeInt)
  balance!: number;

  @Field(() => SafeInt)
  version!: number;

  @Field(() => LedgerEntry, { description: 'The entry that left the account at this balance' })
  entry!: LedgerEntry;
}

@ObjectType()
export class BalanceHistoryPage {
  @Field(() => [BalancePoint], { description: 'Newest first' })
  items!: BalancePoint[];

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page' })
  endCursor!: string | null;

  @Field(() => Boolean)
  hasNextPage!: boolean;
}

@ObjectType()
export class AccountPage {
  @Field(() => [Account])
  items!: Account[];

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page' })
  endCursor!: string | null;

  @Field(() => Boolean)
  hasNextPage!: boolean;
}

@ObjectType()
export class LedgerEntryPage {
  @Field(() => [LedgerEntry])
  items!: LedgerEntry[];

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page' })
  endCursor!: string | null;

  @Field(() => Boolean)
  hasNextPage!: boolean;
}

export function toAccount(snapshot: AccountSnapshot): Account {
  return Object.assign(new Account(), snapshot);
}

export function toLedgerEntry(entry: ServiceEntry): LedgerEntry {
  return Object.assign(new LedgerEntry(), entry);
}
