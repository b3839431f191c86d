import { batchedIncrement } from '../observability/batchedCounter.ts';
import { FeedLimits } from './limits.ts';
import { ResyncReason, type FeedEvent, type FeedItem } from './feedItems.ts';
import { SubscriberQueue } from './SubscriberQueue.ts';
import type { StreamsTelemetry } from './telemetry.ts';

/**
 * One GraphQL subscription attached to a feed. While it catches up from a cursor, live events
 * are held (bounded) and the first live key is remembered: the catch-up stops when it meets that
 * key, and held events it already delivered are dropped, so nothing is lost or doubled.
 */
export class Subscriber<E> {
  readonly queue: SubscriberQueue<FeedItem<E>>;
  #catchUp: { held: FeedItem<E>[]; firstLiveKey: string | null } | null;
  /**
   * Keys a catch-up replayed that the shared stream may still offer: a catch-up that reached the
   * end of history can be ahead of the shared stream, which then offers those events again, first
   * and in order. Dropped as they come; cleared at the first other event (so bounded, and never
   * longer than one catch-up).
   */
  #replayedAhead: Set<string> | null = null;
  /** Where this subscriber could resume: the last event queued, else where it started. */
  #lastCursor: string;
  /** Counts every event queued: once per event and subscriber, so batched (see batchedIncrement). */
  readonly #countDelivered: () => void;

  /**
   * @param joinCursor the shared stream's position when the subscriber attached: every later
   *   event reaches it live. @param after the cursor it catches up from, if any.
   */
  constructor(
    private readonly feed: string,
    private readonly matches: (data: E) => boolean,
    readonly joinCursor: string,
    after: string | null,
    private readonly telemetry: Pick<StreamsTelemetry, 'streamEventsDeliveredTotal' | 'streamResyncsTotal'>,
    onClose: () => void,
  ) {
    this.queue = new SubscriberQueue(FeedLimits.subscriberQueueMax, onClose);
    this.#catchUp = after === null ? null : { held: [], firstLiveKey: null };
    this.#lastCursor = after ?? joinCursor;
    this.#countDelivered = batchedIncrement(telemetry.streamEventsDeliveredTotal, { feed });
  }

  get closed(): boolean {
    return this.queue.ended;
  }

  /** The first event the live feed offered since this subscriber attached, if any yet. */
  get firstLiveKey(): string | null {
    return this.#catchUp?.firstLiveKey ?? null;
  }

  /** An item from the shared stream. */
  offer(item: FeedItem<E>): void {
    if (this.#replayedAhead && item.kind === 'event') {
      if (this.#replayedAhead.delete(item.key)) return;
      this.#replayedAhead = null;
    }
    if (this.#catchUp) {
      if (item.kind === 'event') this.#catchUp.firstLiveKey ??= item.key;
      if (!this.#wants(item)) return;
      if (this.#catchUp.held.length >= FeedLimits.subscriberQueueMax) return this.#overflow();
      this.#catchUp.held.push(item);
      return;
    }
    if (this.#wants(item)) this.push(item);
  }

  /** An event replayed by this subscriber's catch-up stream; true when it was queued. */
  replay(event: FeedEvent<E>): boolean {
    if (!this.#wants(event)) return false;
    this.push(event);
    return true;
  }

  /** Joins the live feed: held items follow, minus those the catch-up already delivered. */
  finishCatchUp(replayedKeys: ReadonlySet<string>): void {
    const held = this.#catchUp?.held ?? [];
    this.#catchUp = null;
    // A held event the catch-up did not replay means the shared stream is already past the replayed ones.
    const ahead = new Set(replayedKeys);
    for (const item of held) if (item.kind === 'event' && !ahead.delete(item.key)) ahead.clear();
    this.#replayedAhead = ahead.size > 0 ? ahead : null;
    for (const item of held) {
      if (item.kind === 'event' && replayedKeys.has(item.key)) continue;
      this.push(item);
    }
  }

  push(item: FeedItem<E>): void {
    if (this.closed) return;
    if (!this.queue.push(item)) return this.#overflow();
    if (item.kind === 'event') {
      this.#lastCursor = item.cursor;
      this.#countDelivered();
    } else {
      this.telemetry.streamResyncsTotal.inc({ feed: this.feed, reason: item.reason });
    }
  }

  /** Ends the subscription after what is queued, with a last resync notice when given. */
  end(reason?: ResyncReason, cursor: string = this.#lastCursor): void {
    if (reason) this.telemetry.streamResyncsTotal.inc({ feed: this.feed, reason });
    this.queue.end(reason ? { kind: 'resync', reason, cursor } : undefined);
  }

  #wants(item: FeedItem<E>): boolean {
    return item.kind === 'resync' || this.matches(item.data);
  }

  // The subscriber keeps what it has and learns where to resume: memory stays bounded, no loss.
  #overflow(): void {
    this.end(ResyncReason.SLOW_SUBSCRIBER);
  }
}
