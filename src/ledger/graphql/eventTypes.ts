// The ledger's subscription payloads: a journal entry written, a balance changed, or a notice to resync.
import { createUnionType, Field, ID, ObjectType } from 'type-graphql';
import { DateTime, SafeInt } from '../../graphql/scalars.ts';
import { ResyncRequired, toResyncRequired } from '../../graphql/subscriptions.ts';
import type { FeedItem } from '../../fanout/index.ts';
import type { AccountBalanceChangedEvent, HoldChangedEvent, LedgerEntryAddedEvent } from '../events.ts';
import { HoldStatus } from './holdTypes.ts';
import { LedgerEntryFields } from './types.ts';

@ObjectType({
  description: 'A journal entry was written (entries are immutable: one event each), in version order per account',
})
export class LedgerEntryAdded extends LedgerEntryFields {
  @Field(() => String, {
    description: 'Opaque; pass it as `after` to resume right after this event, on any API process',
  })
  cursor!: string;

  @Field(() => ID)
  entryId!: string;
}

@ObjectType({
  description:
    "An account's balance changed: the balance and version that one write left, in version order per account",
})
export class AccountBalanceChanged {
  @Field(() => String, {
    description: 'Opaque; pass it as `after` to resume right after this event, on any API process',
  })
  cursor!: string;

  @Field(() => ID)
  accountId!: string;

  @Field(() => SafeInt, { description: 'Integer minor units, right after the write' })
  balance!: number;

  @Field(() => SafeInt, { description: "The account's version right after the write" })
  version!: number;

  @Field(() => DateTime, { description: "By the database server's clock" })
  at!: Date;
}

@ObjectType({
  description:
    'A hold was authorized (PENDING) or resolved (CAPTURED, VOIDED, EXPIRED): one event per transition, in order per hold',
})
export class HoldChanged {
  @Field(() => String, {
    description: 'Opaque; pass it as `after` to resume right after this event, on any API process',
  })
  cursor!: string;

  @Field(() => ID)
  holdId!: string;

  @Field(() => ID)
  accountId!: string;

  @Field(() => HoldStatus)
  status!: HoldChangedEvent['status'];

  @Field(() => SafeInt)
  amount!: number;

  @Field(() => SafeInt)
  capturedAmount!: number;

  @Field(() => DateTime, { description: "By the database server's clock" })
  at!: Date;
}

export const HoldEventResult = createUnionType({
  name: 'HoldEvent',
  types: () => [HoldChanged, ResyncRequired] as const,
});

export function toHoldEventResult(item: FeedItem<HoldChangedEvent>): HoldChanged | ResyncRequired {
  if (item.kind === 'resync') return toResyncRequired(item);
  return Object.assign(new HoldChanged(), { cursor: item.cursor, ...item.data });
}

export const LedgerEntryEventResult = createUnionType({
  name: 'LedgerEntryEvent',
  types: () => [LedgerEntryAdded, ResyncRequired] as const,
});

export const AccountBalanceEventResult = createUnionType({
  name: 'AccountBalanceEvent',
  types: () => [AccountBalanceChanged, ResyncRequired] as const,
});

export function toLedgerEntryEventResult(item: FeedItem<LedgerEntryAddedEvent>): LedgerEntryAdded | ResyncRequired {
  if (item.kind === 'resync') return toResyncRequired(item);
  return Object.assign(new LedgerEntryAdded(), { cursor: item.cursor, ...item.data });
}

export function toAccountBalanceEventResult(
  item: FeedItem<AccountBalanceChangedEvent>,
): AccountBalanceChanged | ResyncRequired {
  if (item.kind === 'resync') return toResyncRequired(item);
  return Object.assign(new AccountBalanceChanged(), { cursor: item.cursor, ...item.data });
}
