import { setTimeout as sleep } from 'node:timers/promises';
import type { ChangeStream, ChangeStreamOptions, Collection, Document } from 'mongodb';
import { isChangeStreamHistoryLost } from '../db/mongoErrors.ts';
import type { Logger } from '../observability/logger.ts';
import { ResyncReason, type FeedEvent, type FeedItem } from './feedItems.ts';
import { InvalidatedError } from './InvalidatedError.ts';
import { backoffMs, FeedLimits } from './limits.ts';
import { asResumeToken, encodeResumeCursor, type ResumeToken } from './resumeCursor.ts';
import { Semaphore } from './Semaphore.ts';
import { Subscriber } from './Subscriber.ts';
import type { StreamsTelemetry } from './telemetry.ts';

export interface FeedSpec<E> {
  /** Names the feed in metrics and logs, e.g. 'workItems'. */
  name: string;
  collection: Collection<Document>;
  /** Stages after `$changeStream`; the shared and the catch-up streams use the same ones. */
  pipeline: Document[];
  options?: Omit<ChangeStreamOptions, 'resumeAfter' | 'startAfter' | 'maxAwaitTimeMS'>;
  /** The event subscribers see, or null for a change they never see. */
  toEvent(change: Document): E | null;
}

type Purpose = 'live' | 'catchup';

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
 * catch-up stream (at most `catchUpStreamsMax` at once), then joins the shared one. When the
 * shared stream fails it reopens from its last position with capped backoff, for as long as it
 * takes (an engine restart must not end the feed for good); when history is lost it reopens from
 * now and every subscriber is told to resync (S4).
 */
export class ChangeFeed<E> {
  readonly #subscribers = new Set<Subscriber<E>>();
  readonly #catchUpSlots = new Semaphore(FeedLimits.catchUpStreamsMax, FeedLimits.subscribersPerFeedMax);
  #stream: ChangeStream | null = null;
  #lastToken: ResumeToken | null = null;
  #state: 'new' | 'running' | 'stopped' = 'new';
  #loop: Promise<void> = Promise.resolve();
  #failures = 0;
  #lastError: string | null = null;

  constructor(
    private readonly spec: FeedSpec<E>,
    private readonly logger: Logger,
    private readonly telemetry: StreamsTelemetry,
  ) {}

  /** Resolves once the shared stream is open: every change committed afterwards is delivered. */
  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error(`feed ${this.spec.name} already started`);
    const first = await this.#openShared(null);
    this.#state = 'running';
    this.telemetry.changeFeedUp.set({ feed: this.spec.name }, 1);
    if (first) this.#publish(first);
    this.#loop = this.#run();
  }

  get status(): FeedStatus {
    const state = this.#state === 'running' ? (this.#failures === 0 ? 'open' : 'reopening') : this.#state;
    return { name: this.spec.name, state, consecutiveFailures: this.#failures, lastError: this.#lastError };
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /** Attaches a subscriber; with `after`, it first replays everything after that token. */
  subscribe(matches: (data: E) => boolean, after: ResumeToken | null): AsyncIterableIterator<FeedItem<E>> {
    if (this.#state !== 'running' || this.#lastToken === null) throw new Error(`feed ${this.spec.name} is ${this.#state}`);
    if (this.#subscribers.size >= FeedLimits.subscribersPerFeedMax) {
      throw new Error(`feed ${this.spec.name} has ${FeedLimits.subscribersPerFeedMax} subscribers already`);
    }
    const joinCursor = encodeResumeCursor(this.#lastToken);
    const afterCursor = after === null ? null : encodeResumeCursor(after);
    const subscriber: Subscriber<E> = new Subscriber(this.spec.name, matches, joinCursor, afterCursor, this.telemetry, () => {
      this.#subscribers.delete(subscriber);
      this.telemetry.streamSubscribers.dec({ feed: this.spec.name });
    });
    this.#subscribers.add(subscriber);
    this.telemetry.streamSubscribers.inc({ feed: this.spec.name });
    if (after !== null) void this.#catchUp(subscriber, after);
    return subscriber.queue;
  }

  /** Closes the shared stream and completes every subscription. */
  async stop(): Promise<void> {
    if (this.#state === 'stopped') return;
    this.#state = 'stopped';
    this.telemetry.changeFeedUp.set({ feed: this.spec.name }, 0);
    await this.#closeShared();
    await this.#loop;
    for (const subscriber of [...this.#subscribers]) subscriber.end();
  }

  async #run(): Promise<void> {
    // How the next pass must reopen the shared stream, if it must ('resume' keeps its position).
    const pending: { reopen: 'resume' | ResyncReason | null } = { reopen: null };
    while (this.#state === 'running') {
      try {
        if (pending.reopen !== null) await this.#reopenShared(pending.reopen);
        pending.reopen = null;
        const stream = this.#stream as ChangeStream;
        const change = await stream.tryNext();
        this.#lastToken = stream.resumeToken ? asResumeToken(stream.resumeToken) : this.#lastToken;
        if (change) this.#publish(change);
        else if (stream.closed) throw new InvalidatedError();
        this.#markOpen();
      } catch (error) {
        if (this.#state !== 'running') return;
        const failures = this.#markFailed(error);
        this.logger.warn({ err: error, feed: this.spec.name, failures }, 'change stream failed; reopening');
        if (error instanceof InvalidatedError) pending.reopen = ResyncReason.INVALIDATED;
        else if (isChangeStreamHistoryLost(error)) pending.reopen = ResyncReason.HISTORY_LOST;
        else pending.reopen ??= 'resume';
        await this.#closeShared();
        await sleep(backoffMs(failures, FeedLimits.reopenBackoffBaseMs, FeedLimits.reopenBackoffMaxMs));
      }
    }
  }

  // Resume where the stream was; if that history is gone, start from now and tell everyone.
  async #reopenShared(how: 'resume' | ResyncReason): Promise<void> {
    let reason = how;
    if (reason === 'resume' && this.#lastToken) {
      try {
        const first = await this.#openShared(this.#lastToken);
        if (first) this.#publish(first);
        return;
      } catch (error) {
        if (!isChangeStreamHistoryLost(error)) throw error;
        reason = ResyncReason.HISTORY_LOST;
      }
    }
    const first = await this.#openShared(null);
    const cursor = encodeResumeCursor(this.#lastToken as ResumeToken);
    const resync = reason === 'resume' ? ResyncReason.HISTORY_LOST : reason;
    this.logger.warn({ feed: this.spec.name, reason: resync }, 'change stream restarted from now; subscribers must resync');
    for (const subscriber of this.#subscribers) subscriber.offer({ kind: 'resync', reason: resync, cursor });
    if (first) this.#publish(first);
  }

  async #openShared(resumeAfter: ResumeToken | null): Promise<Document | null> {
    const { stream, first } = await this.#open(resumeAfter, 'live');
    this.#stream = stream;
    this.#lastToken = stream.resumeToken ? asResumeToken(stream.resumeToken) : resumeAfter;
    return first;
  }

  async #closeShared(): Promise<void> {
    const stream = this.#stream;
    this.#stream = null;
    if (stream) await this.#close(stream, 'live');
  }

  #markOpen(): void {
    if (this.#failures === 0) return;
    this.logger.info({ feed: this.spec.name, failures: this.#failures }, 'change stream reopened');
    this.#failures = 0;
    this.#lastError = null;
    this.telemetry.changeFeedUp.set({ feed: this.spec.name }, 1);
  }

  #markFailed(error: unknown): number {
    this.#failures++;
    this.#lastError = error instanceof Error ? error.message : String(error);
    this.telemetry.changeFeedUp.set({ feed: this.spec.name }, 0);
    this.telemetry.changeFeedReopenFailuresTotal.inc({ feed: this.spec.name });
    return this.#failures;
  }

  #publish(change: Document): void {
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
  // subscriber attached (or the end of history), then hands over to the shared stream.
  async #catchUp(subscriber: Subscriber<E>, after: ResumeToken): Promise<void> {
    const replayedKeys = new Set<string>();
    let stream: ChangeStream | null = null;
    let slot = false;
    try {
      await this.#catchUpSlots.acquire();
      slot = true;
      if (subscriber.closed || this.#state !== 'running') return;
      const opened = await this.#open(after, 'catchup');
      stream = opened.stream;
      for (let change = opened.first, replayed = 0; change !== null && !subscriber.closed; change = await stream.tryNext()) {
        const event = this.#toItem(change);
        if (!event) continue;
        if (event.key === subscriber.firstLiveKey) break;
        if (++replayed > FeedLimits.catchUpEventsMax) return subscriber.end(ResyncReason.CATCH_UP_TOO_LONG);
        if (subscriber.replay(event)) replayedKeys.add(event.key);
      }
    } catch (error) {
      if (subscriber.closed || this.#state === 'stopped') return;
      const historyLost = isChangeStreamHistoryLost(error);
      if (!historyLost) this.logger.warn({ err: error, feed: this.spec.name }, 'catch-up stream failed');
      // Events before the join point may be missing: re-read state, then follow from the join point.
      const reason = historyLost ? ResyncReason.HISTORY_LOST : ResyncReason.STREAM_FAILED;
      subscriber.push({ kind: 'resync', reason, cursor: subscriber.joinCursor });
    } finally {
      if (stream) await this.#close(stream, 'catchup');
      if (slot) this.#catchUpSlots.release();
    }
    subscriber.finishCatchUp(replayedKeys);
  }

  /** Opens a stream and runs its aggregate (the first `tryNext`), so it is established on return. */
  async #open(resumeAfter: ResumeToken | null, purpose: Purpose): Promise<{ stream: ChangeStream; first: Document | null }> {
    const stream = this.spec.collection.watch(this.spec.pipeline, {
      ...this.spec.options,
      maxAwaitTimeMS: FeedLimits.awaitTimeMs,
      ...(resumeAfter ? { resumeAfter } : {}),
    });
    this.telemetry.changeStreamsOpen.inc({ collection: this.spec.collection.collectionName, purpose });
    try {
      return { stream, first: await stream.tryNext() };
    } catch (error) {
      await this.#close(stream, purpose);
      throw error;
    }
  }

  async #close(stream: ChangeStream, purpose: Purpose): Promise<void> {
    this.telemetry.changeStreamsOpen.dec({ collection: this.spec.collection.collectionName, purpose });
    await stream.close().catch((error: unknown) => this.logger.debug({ err: error }, 'closing a change stream failed'));
  }
}
