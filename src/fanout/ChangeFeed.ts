import type { ChangeStream, ChangeStreamOptions, Collection, Document } from 'mongodb';
import { isChangeStreamHistoryLost } from '../db/mongoErrors.ts';
import { AUDIT_LOG_THROTTLE, LogThrottle } from '../observability/logThrottle.ts';
import type { Logger } from '../observability/logger.ts';
import { ResyncReason, type FeedEvent, type FeedItem } from './feedItems.ts';
import { ChangeStreamLimits } from '../changeStreams/limits.ts';
import { FeedLimits } from './limits.ts';
import { asResumeToken, encodeResumeCursor, type ResumeToken } from '../changeStreams/resumeCursor.ts';
import {
  closeChangeStream,
  openChangeStream,
  ResumableStream,
  StreamStart,
  type StreamFailure,
  type StreamOpened,
  type StreamSource,
} from '../changeStreams/resumableStream.ts';
import { Semaphore } from './Semaphore.ts';
import { Subscriber } from './Subscriber.ts';
import {
  SubscriptionLimit,
  SubscriptionShares,
  type SubscriptionOwner,
  type SubscriptionRefusal,
} from './SubscriptionShares.ts';
import type { StreamsTelemetry } from './telemetry.ts';

export interface FeedSpec<E> {
  /** Names the feed in metrics and logs, e.g. 'workItems'. */
  name: string;
  collection: Collection<Document>;
  /** Stages after `$changeStream`; the shared and the catch-up streams use the same ones. */
  pipeline: Document[];
  options?: Omit<ChangeStreamOptions, 'resumeAfter' | 'startAfter' | 'startAtOperationTime' | 'maxAwaitTimeMS'>;
  /** The event subscribers see, or null for a change they never see. */
  toEvent(change: Document): E | null;
}

type Purpose = 'live' | 'catchup';

/** A subscription attached (its items), or refused by a bound of the feed, the socket or the key. */
export type FeedSubscription<E> =
  | { ok: true; items: AsyncIterableIterator<FeedItem<E>> }
  | { ok: false; refusal: SubscriptionRefusal };

/** What /readyz and the metrics show of a feed. */
export interface FeedStatus {
  name: string;
  /** `open`: the shared stream is established; `reopening`: it failed and is being reopened. */
  state: 'new' | 'open' | 'reopening' | 'stopped';
  /** Failed reopens in a row (0 while open). */
  consecutiveFailures: number;
  lastError: string | null;
}

/**
 * One change stream on one collection, shared by every subscriber of this process (S2), with
 * bounded per-subscriber queues. A subscriber with a cursor first replays from it on a short
 * catch-up stream (at most `catchUpStreamsMax` at once), then joins the shared one. The shared
 * stream is a ResumableStream: when it fails it reopens from its last position with capped
 * backoff, for as long as it takes (an engine restart must not end the feed for good); when
 * history is lost or the stream is invalidated it restarts from now and every subscriber is told
 * to resync (S4).
 */
export class ChangeFeed<E> {
  readonly #subscribers = new Set<Subscriber<E>>();
  readonly #catchUpSlots = new Semaphore(FeedLimits.catchUpStreamsMax, FeedLimits.subscribersPerFeedMax);
  readonly #shared: ResumableStream;
  // One line per resync an operator can read, at most a few per reason per window (a thousand
  // subscribers told to resync at once are one line and a count).
  readonly #resyncLog = new LogThrottle(AUDIT_LOG_THROTTLE);

  #logResync(reason: string): void {
    const { write, suppressed } = this.#resyncLog.take(reason);
    if (write) this.logger.info({ feed: this.spec.name, reason, suppressed }, `subscriber told to resync: ${reason}`);
  }

  /** Where the shared stream stands: a new subscriber joins here (its resync cursor). */
  #lastToken: ResumeToken | null = null;
  #stopped = false;

  /**
   * @param shares the per-connection and per-key bounds, shared by every feed of the app
   *   (src/app/liveFeeds.ts); @param subscribersMax this feed's own bound.
   */
  constructor(
    private readonly spec: FeedSpec<E>,
    private readonly logger: Logger,
    private readonly telemetry: StreamsTelemetry,
    private readonly shares: SubscriptionShares = new SubscriptionShares(),
    private readonly subscribersMax: number = FeedLimits.subscribersPerFeedMax,
  ) {
    this.#shared = new ResumableStream(this.#source('live'), {
      opened: (opened) => this.#opened(opened),
      change: (change, token) => {
        this.#lastToken = token;
        this.#publish(change);
      },
      polled: (token) => {
        this.#lastToken = token;
      },
      failed: (failure) => this.#failed(failure),
      recovered: (failures) => this.#recovered(failures),
    });
  }

  /** Resolves once the shared stream is open: every change committed afterwards is delivered. */
  async start(): Promise<void> {
    if (this.#shared.status.state !== 'new') throw new Error(`feed ${this.spec.name} already started`);
    await this.#shared.start(StreamStart.now);
  }

  get status(): FeedStatus {
    const { state, consecutiveFailures, lastError } = this.#shared.status;
    return { name: this.spec.name, state: state === 'opening' ? 'new' : state, consecutiveFailures, lastError };
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  get #running(): boolean {
    const { state } = this.#shared.status;
    return !this.#stopped && (state === 'open' || state === 'reopening');
  }

  /**
   * Attaches a subscriber; with `after`, it first replays everything after that token. `owner`
   * (the connection and key it came from) takes a share of the connection's and the key's bounds
   * until the subscriber closes; past a bound, or past the feed's, the subscription is refused.
   */
  subscribe(
    matches: (data: E) => boolean,
    after: ResumeToken | null,
    owner: SubscriptionOwner | null = null,
  ): FeedSubscription<E> {
    if (!this.#running || this.#lastToken === null)
      throw new Error(`feed ${this.spec.name} is ${this.#stopped ? 'stopped' : this.status.state}`);
    if (this.#subscribers.size >= this.subscribersMax)
      return this.#refuse({ limit: SubscriptionLimit.FEED, max: this.subscribersMax });
    const share = owner === null ? null : this.shares.admit(owner);
    if (share && !share.ok) return this.#refuse(share.refusal);
    const joinCursor = encodeResumeCursor(this.#lastToken);
    const afterCursor = after === null ? null : encodeResumeCursor(after);
    const subscriber: Subscriber<E> = new Subscriber(
      this.spec.name,
      matches,
      joinCursor,
      afterCursor,
      this.telemetry,
      () => {
        this.#subscribers.delete(subscriber);
        share?.release();
        this.telemetry.streamSubscribers.dec({ feed: this.spec.name });
      },
      (reason) => this.#logResync(reason),
    );
    this.#subscribers.add(subscriber);
    this.telemetry.streamSubscribers.inc({ feed: this.spec.name });
    if (after !== null) void this.#catchUp(subscriber, after);
    return { ok: true, items: subscriber.queue };
  }

  #refuse(refusal: SubscriptionRefusal): FeedSubscription<E> {
    this.telemetry.subscriptionsRefusedTotal.inc({ feed: this.spec.name, limit: refusal.limit });
    return { ok: false, refusal };
  }

  /** Closes the shared stream and completes every subscription. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.telemetry.changeFeedUp.set({ feed: this.spec.name }, 0);
    await this.#shared.stop();
    for (const subscriber of [...this.#subscribers]) subscriber.end();
  }

  // The shared stream is established; after lost history or an invalidate it restarted from now,
  // and every subscriber must re-read state, then follow from the new start.
  #opened({ token, gap, reopened }: StreamOpened): void {
    this.#lastToken = token;
    if (!reopened) this.telemetry.changeFeedUp.set({ feed: this.spec.name }, 1);
    if (gap === null) return;
    const reason = gap === 'invalidated' ? ResyncReason.INVALIDATED : ResyncReason.HISTORY_LOST;
    this.logger.warn({ feed: this.spec.name, reason }, 'change stream restarted from now; subscribers must resync');
    const cursor = encodeResumeCursor(token);
    for (const subscriber of this.#subscribers) subscriber.offer({ kind: 'resync', reason, cursor });
  }

  // Where to reopen is the stream's default: after the last position, or from now when it is gone.
  #failed({ error, failures }: StreamFailure): void {
    this.telemetry.changeFeedUp.set({ feed: this.spec.name }, 0);
    this.telemetry.changeFeedReopenFailuresTotal.inc({ feed: this.spec.name });
    this.logger.warn({ err: error, feed: this.spec.name, failures }, 'change stream failed; reopening');
  }

  #recovered(failures: number): void {
    this.logger.info({ feed: this.spec.name, failures }, 'change stream reopened');
    this.telemetry.changeFeedUp.set({ feed: this.spec.name }, 1);
  }

  #publish(change: Document): void {
    if (this.#subscribers.size === 0) return; // the usual case: nobody to build the event for
    const item = this.#toItem(change);
    if (!item) return;
    for (const subscriber of this.#subscribers) subscriber.offer(item);
  }

  #toItem(change: Document): FeedEvent<E> | null {
    const data = this.spec.toEvent(change);
    if (data === null) return null;
    const token = asResumeToken(change['_id']);
    return { kind: 'event', key: token._data, cursor: encodeResumeCursor(token), data };
  }

  // Replays from `after` until it meets the first event the shared stream offered since the
  // subscriber attached (or the end of history), then hands over to the shared stream. A short
  // stream: it does not reopen; on a failure the subscriber resyncs from its join point.
  async #catchUp(subscriber: Subscriber<E>, after: ResumeToken): Promise<void> {
    const replayedKeys = new Set<string>();
    const source = this.#source('catchup');
    let stream: ChangeStream | null = null;
    let slot = false;
    try {
      await this.#catchUpSlots.acquire();
      slot = true;
      if (subscriber.closed || !this.#running) return;
      const opened = await openChangeStream(source, StreamStart.after(after));
      stream = opened.stream;
      for (
        let change = opened.first, replayed = 0;
        change !== null && !subscriber.closed;
        change = await stream.tryNext()
      ) {
        const event = this.#toItem(change);
        if (!event) continue;
        if (event.key === subscriber.firstLiveKey) break;
        if (++replayed > FeedLimits.catchUpEventsMax) return subscriber.end(ResyncReason.CATCH_UP_TOO_LONG);
        if (subscriber.replay(event)) replayedKeys.add(event.key);
      }
    } catch (error) {
      if (subscriber.closed || this.#stopped) return;
      const historyLost = isChangeStreamHistoryLost(error);
      if (!historyLost) this.logger.warn({ err: error, feed: this.spec.name }, 'catch-up stream failed');
      // Events before the join point may be missing: re-read state, then follow from the join point.
      const reason = historyLost ? ResyncReason.HISTORY_LOST : ResyncReason.STREAM_FAILED;
      subscriber.push({ kind: 'resync', reason, cursor: subscriber.joinCursor });
    } finally {
      if (stream) await closeChangeStream(source, stream);
      if (slot) this.#catchUpSlots.release();
    }
    subscriber.finishCatchUp(replayedKeys);
  }

  #source(purpose: Purpose): StreamSource {
    const { collection, pipeline, options } = this.spec;
    const labels = { collection: collection.collectionName, purpose };
    return {
      collection,
      pipeline,
      options,
      awaitTimeMs: ChangeStreamLimits.awaitTimeMs,
      countOpen: (delta) => this.telemetry.changeStreamsOpen.inc(labels, delta),
    };
  }
}
