// What a feed hands its subscribers: a change event, or a notice that events were (or may have
// been) missed and the subscriber must resync (re-read state, then resume from `cursor`).

export const ResyncReason = Object.freeze({
  /** The change-stream history was lost (286, or 280 "resume token was not found"). */
  HISTORY_LOST: 'HISTORY_LOST',
  /** The watched collection was dropped or renamed; the stream restarted from now. */
  INVALIDATED: 'INVALIDATED',
  /** The subscriber read too slowly and its queue filled up; resume from `cursor`. */
  SLOW_SUBSCRIBER: 'SLOW_SUBSCRIBER',
  /** `after:` was too far behind to replay in one go; resume again from `cursor`. */
  CATCH_UP_TOO_LONG: 'CATCH_UP_TOO_LONG',
  /** The change stream failed beyond its retries; the subscription ends. */
  STREAM_FAILED: 'STREAM_FAILED',
} as const);
export type ResyncReason = (typeof ResyncReason)[keyof typeof ResyncReason];

export interface FeedEvent<E> {
  kind: 'event';
  /** The resume token's `_data`: equal keys are the same event. */
  key: string;
  /** The resume token as an opaque string, for `after:`. */
  cursor: string;
  data: E;
}

export interface FeedResync {
  kind: 'resync';
  reason: ResyncReason;
  /** Where to resume (`after:`) once resynced: the last event delivered, or the restarted stream's start. */
  cursor: string;
}

export type FeedItem<E> = FeedEvent<E> | FeedResync;
