// The work items' subscription payload: a work-item transition, or a notice to resync.
import { createUnionType, Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTime } from '../../graphql/scalars.ts';
import { ResyncRequired, toResyncRequired } from '../../graphql/subscriptions.ts';
import type { FeedItem } from '../../fanout/index.ts';
import type { WorkItemStatusEvent } from '../events.ts';
import { WorkStatus } from '../model.ts';
import './types.ts'; // registers the WorkItemStatus enum used below

@ObjectType({ description: 'One committed transition of a work item (or its creation), in version order per item' })
export class WorkItemStatusChanged {
  @Field(() => String, {
    description: 'Opaque; pass it as `after` to resume right after this event, on any API process',
  })
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

export const WorkItemStatusEventResult = createUnionType({
  name: 'WorkItemStatusEvent',
  types: () => [WorkItemStatusChanged, ResyncRequired] as const,
});

export function toWorkItemStatusEventResult(
  item: FeedItem<WorkItemStatusEvent>,
): WorkItemStatusChanged | ResyncRequired {
  if (item.kind === 'resync') return toResyncRequired(item);
  return Object.assign(new WorkItemStatusChanged(), { cursor: item.cursor, ...item.data });
}
