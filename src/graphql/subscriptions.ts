// What every feature's subscription shares: the resume cursor argument (`after`), and the
// ResyncRequired member of each event union (events were, or may have been, missed).
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { z } from 'zod';
import { decodeResumeCursor } from '../changeStreams/resumeCursor.ts';
import {
  ResyncReason,
  type FeedItem,
  type FeedResync,
  type FeedSubscription,
  type SubscriptionOwner,
} from '../fanout/index.ts';
import type { RequestContext } from './context.ts';
import { appError, ErrorCode } from './errors.ts';

/**
 * The longest `after` cursor accepted: a cursor is one server resume token in base64url, far
 * shorter than this; a longer string is no cursor of this API and is refused before it is decoded.
 */
export const RESUME_CURSOR_LENGTH_MAX = 8_192;

/** The `after` argument of a subscription: a resume cursor this API issued, or absent. */
export const afterCursor = z
  .string()
  .max(RESUME_CURSOR_LENGTH_MAX)
  .transform(
    (cursor, ctx) =>
      decodeResumeCursor(cursor) ?? (ctx.addIssue({ code: 'custom', message: 'is not a cursor of this API' }), z.NEVER),
  )
  .optional();

registerEnumType(ResyncReason, { name: 'ResyncReason', description: 'Why events were, or may have been, missed' });

@ObjectType({
  description: 'Events were, or may have been, missed: re-read the state you need, then resume from `cursor`',
})
export class ResyncRequired {
  @Field(() => String, { description: 'Where to resume (as `after`) once resynced' })
  cursor!: string;

  @Field(() => ResyncReason)
  reason!: ResyncReason;
}

export function toResyncRequired(item: Pick<FeedResync, 'cursor' | 'reason'>): ResyncRequired {
  return Object.assign(new ResyncRequired(), { cursor: item.cursor, reason: item.reason });
}

/** Who takes a share of the socket's and the key's subscription bounds (src/fanout/SubscriptionShares.ts). */
export function subscriptionOwner(
  context: Pick<RequestContext, 'connectionId' | 'requestId' | 'principal'>,
): SubscriptionOwner {
  return {
    connectionId: context.connectionId ?? `request:${context.requestId}`,
    keyId: context.principal?.keyId ?? 'anonymous',
  };
}

/** The feed's items, or SUBSCRIPTION_LIMIT when a bound refused the subscription. */
export function attached<E>(subscription: FeedSubscription<E>): AsyncIterableIterator<FeedItem<E>> {
  if (subscription.ok) return subscription.items;
  const { limit, max } = subscription.refusal;
  const what = limit === 'feed' ? 'this feed has' : limit === 'socket' ? 'this connection holds' : 'this API key holds';
  throw appError(
    ErrorCode.SUBSCRIPTION_LIMIT,
    `${what} ${max} subscriptions already: end one first${limit === 'feed' ? ', or retry later' : ''}`,
    { limit, max },
  );
}
