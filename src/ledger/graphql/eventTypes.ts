// The subscription payloads: a work-item transition, or a notice to resync.
import { createUnionType, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTime, SafeInt } from '../../graphql/scalars.ts';
import { LedgerEntryFields } from './types.ts';
import type { EntryKind } from '../model.ts';
import { WorkStatus } from '../../work/index.ts';
import '../../work/graphql/types.ts'; // registers the WorkItemStatus enum used below
import { ResyncReason, type FeedItem } from '../../fanout/feedItems.ts';
import type { AccountBalanceChangedEvent, LedgerEntryAddedEvent } from '../events.ts';
import type { WorkItemStatusEvent } from '../../work/events.ts';

registerEnumType(ResyncReason, { name: 'ResyncReason', description: 'Why events were, or may have been, missed' });

@ObjectType({ description: 'One committed transition of a work item (or its creation), in version order per item' })
export class WorkItemStatusChanged {
  @Field(() => String, { description: 'Opaque; pass it as `after` to resume right after this event, on any API process' })
  cursor!: string;

  @Field(() => ID)
  itemId!: string;

  @Field(() => String)
  kind!: string;

  @Field(() => WorkStatus)
  status!: WorkStatus;

  @Field(() => WorkStatus, { nullable: true, description: 'Null for the creation' })
  previousStatus!: WorkStatus | null;

  @Field(() => Int, { description: 'The version this transition produced' })
  version!: number;

  @Field(() => DateTime, { description: "By the database server's clock" })
  at!: Date;
}

@ObjectType({ description: 'Events were, or may have been, missed: re-read the state you need, then resume from `cursor`' })
export class ResyncRequired {
  @Field(() => String, { description: 'Where to resume (as `after`) once resynced' })
  cursor!: string;

  @Field(() => ResyncReason)
  reason!: ResyncReason;
}

export const WorkItemStatusEventResult = createUnionType({
  name: 'WorkItemStatusEvent',
  types: () => [WorkItemStatusChanged, ResyncRequired] as const,
});

export function toWorkItemStatusEventResult(item: FeedItem<WorkItemStatusEvent>): WorkItemStatusChanged | ResyncRequired {
  if (item.kind === 'resync') return Object.assign(new ResyncRequired(), { cursor: item.cursor, reason: item.reason });
  return Object.assign(new WorkItemStatusChanged(), { cursor: item.cursor, ...item.data });
}

@ObjectType({ description: 'A journal entry was written (entries are immutable: one event each), in version order per account' })
export class LedgerEntryAdded extends LedgerEntryFields {
  @Field(() => String, { description: 'Opaque; pass it as `after` to resume right after this event, on any API process' })
  cursor!: string;

  @Field(() => ID)
  entryId!: string;
}

@ObjectType({ description: "An account's balance changed: the balance and version that one write left, in version order per account" })
export class AccountBalanceChanged {
  @Field(() => String, { description: 'Opaque; pass it as `after` to resume right after this event, on any API process' })
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

export const LedgerEntryEventResult = createUnionType({
  name: 'LedgerEntryEvent',
  types: () => [LedgerEntryAdded, ResyncRequired] as const,
});

export const AccountBalanceEventResult = createUnionType({
  name: 'AccountBalanceEvent',
  types: () => [AccountBalanceChanged, ResyncRequired] as const,
});

function toResync(item: { cursor: string; reason: ResyncReason }): ResyncRequired {
  return Object.assign(new ResyncRequired(), { cursor: item.cursor, reason: item.reason });
}

export function toLedgerEntryEventResult(item: FeedItem<LedgerEntryAddedEvent>): LedgerEntryAdded | ResyncRequired {
  if (item.kind === 'resync') return toResync(item);
  return Object.assign(new LedgerEntryAdded(), { cursor: item.cursor, ...item.data });
}

export function toAccountBalanceEventResult(item: FeedItem<AccountBalanceChangedEvent>): AccountBalanceChanged | ResyncRequired {
  if (item.kind === 'resync') return toResync(item);
  return Object.assign(new AccountBalanceChanged(), { cursor: item.cursor, ...item.data });
}
