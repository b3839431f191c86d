import { setTimeout as sleep } from 'node:timers/promises';
import type { ChangeStream, ChangeStreamOptions, Collection, Document, Timestamp } from 'mongodb';
import { isChangeStreamHistoryLost } from '../db/mongoErrors.ts';
import { InvalidatedError } from './InvalidatedError.ts';
import { exponentialBackoffMs, jitteredMs } from '../lib/backoff.ts';
import { ChangeStreamLimits } from './limits.ts';
import { asResumeToken, type ResumeToken } from './resumeCursor.ts';

// The one change-stream lifecycle of the app: the live feeds (ChangeFeed) and the payout
// projection follow their streams through it. Resuming after a resumable error is the driver's
// job, not ours: per the change-streams spec it resumes from its cached token on a network error,
// CursorNotFound, or an error labelled ResumableChangeStreamError, again and again as long as each
// resume succeeds. What reaches this module is a stream the driver gave up on (a resume that
// failed, e.g. while the server is down) or a non-resumable error, and the app cannot do without
// its streams: it reopens from its last position with capped, jittered backoff, for ever. History
// loss and invalidation are branches of their own: there is no position left to resume from, so
// the stream restarts from now and the handler hears of the gap.

/** Where a stream starts: from now, after a resume token, or at a cluster time. */
export type StreamStart =
  | { kind: 'now' }
  | { kind: 'after'; token: ResumeToken }
  | { kind: 'atOperationTime'; operationTime: Timestamp };

export const StreamStart = Object.freeze({
  now: Object.freeze({ kind: 'now' }) as StreamStart,
  /** After `token`, or from now when there is none. */
  after: (token: ResumeToken | null): StreamStart => (token ? { kind: 'after', token } : StreamStart.now),
  atOperationTime: (operationTime: Timestamp): StreamStart => ({ kind: 'atOperationTime', operationTime }),
});

/** What a stream watches, and how its open cursors are counted. */
export interface StreamSource {
  collection: Collection<Document>;
  /** Stages after `$changeStream`. */
  pipeline: Document[];
  options?: Omit<ChangeStreamOptions, 'resumeAfter' | 'startAfter' | 'startAtOperationTime' | 'maxAwaitTimeMS'>;
  /** How long one getMore waits for events; also bounds how long closing a stream takes. */
  awaitTimeMs?: number;
  /** Called with +1 when a cursor is opened and -1 when it is closed (the change_streams_open gauge). */
  countOpen?(delta: 1 | -1): void;
}

/** Starts `watch` from `start`; nothing is sent to the server until the first `tryNext`. */
function watchFrom(source: StreamSource, start: StreamStart): ChangeStream {
  const stream = source.collection.watch(source.pipeline, {
    ...source.options,
    maxAwaitTimeMS: source.awaitTimeMs ?? ChangeStreamLimits.awaitTimeMs,
    ...(start.kind === 'after' ? { resumeAfter: start.token } : {}),
    ...(start.kind === 'atOperationTime' ? { startAtOperationTime: start.operationTime } : {}),
  });
  source.countOpen?.(1);
  return stream;
}

/** Closes a stream this module opened; a failure to close (a dead connection) leaves nothing to do. */
export async function closeChangeStream(source: StreamSource, stream: ChangeStream): Promise<void> {
  source.countOpen?.(-1);
  await stream.close().catch(() => undefined);
}

/**
 * Opens a stream and runs its aggregate (the first `tryNext`), so it is established on return,
 * with the first change if the aggregate brought one. For short streams that end on their first
 * failure (a subscriber's catch-up); long-lived ones are a ResumableStream.
 */
export async function openChangeStream(
  source: StreamSource,
  start: StreamStart,
): Promise<{ stream: ChangeStream; first: Document | null }> {
  const stream = watchFrom(source, start);
  try {
    return { stream, first: await stream.tryNext() };
  } catch (error) {
    await closeChangeStream(source, stream);
    throw error;
  }
}

/** Why a stream failed: its history is gone (286, 280), the server ended it, or anything else. */
export type StreamFailureKind = 'historyLost' | 'invalidated' | 'error';

function classifyStreamError(error: unknown): StreamFailureKind {
  if (isChangeStreamHistoryLost(error)) return 'historyLost';
  if (error instanceof InvalidatedError) return 'invalidated';
  return 'error';
}

export interface StreamFailure {
  kind: StreamFailureKind;
  error: unknown;
  /** Failures in a row, this one included; a read that succeeds resets the count. */
  failures: number;
}

export interface StreamOpened {
  /** Where the new stream stands once its aggregate answered. */
  token: ResumeToken;
  /** Set when it restarted from now because history was lost or the stream was invalidated: events in between may be missing. */
  gap: 'historyLost' | 'invalidated' | null;
  /** False for the first stream of a run. */
  reopened: boolean;
}

/** A handler returns 'end' to end the run (the stream is closed, nothing reopens). */
type Next = void | 'end';

export interface StreamHandler {
  /** The stream is established; runs before any of its changes is handed over. */
  opened?(opened: StreamOpened): Next | Promise<Next>;
  /**
   * One change, in order. `token` is the stream's position after it (the change's own token is
   * `change._id`). The stream moves past it only once this resolves: if it throws, the stream
   * fails and reopens before the change, which is handed over again.
   */
  change?(change: Document, token: ResumeToken): Next | Promise<Next>;
  /**
   * Instead of `change`: the changes the server's last answer brought that are at hand (one at
   * least, BATCH_CHANGES_MAX at most), in order, with the stream's position after the last. The
   * stream moves past them only once this resolves; if it throws, all are handed over again.
   */
  batch?(changes: Document[], token: ResumeToken): Next | Promise<Next>;
  /** After every answer of the server (after `change` when there was one), with the stream's position. */
  polled?(token: ResumeToken): Next | Promise<Next>;
  /**
   * The stream failed and is closed. Returns where to reopen, or 'end'; by default an 'error'
   * resumes after the last position and a lost history or an invalidate restarts from now.
   * Should not throw: if it does, the run ends, with that error as the status's lastError.
   */
  failed?(failure: StreamFailure): StreamStart | 'end' | void;
  /** The first successful read after `failures` failures in a row. */
  recovered?(failures: number): void;
}

export interface ReopenBackoff {
  baseMs: number;
  maxMs: number;
}

/** The reopen delay after the n-th failure in a row: capped exponential, with "equal jitter" (half fixed, half random) so that processes that failed together do not reopen together. */
export function reopenDelayMs(failures: number, backoff: ReopenBackoff, random: () => number = Math.random): number {
  return Math.round(jitteredMs(exponentialBackoffMs(failures, backoff.baseMs, backoff.maxMs), 0.5, random));
}

/** What /readyz and the metrics show of a stream. */
export interface ResumableStreamStatus {
  /** `opening`: the first stream is being opened; `reopening`: it failed and is being reopened (also while its first open fails, for `run`). */
  state: 'new' | 'opening' | 'open' | 'reopening' | 'stopped';
  /** Failures in a row (0 while open). */
  consecutiveFailures: number;
  lastError: string | null;
  /** Streams opened after the first one of the run. */
  reopens: number;
}

/**
 * The exact position before a new stream's first change: its start point, or where "now" turned
 * out to be (the aggregate's token, or the first change's cluster time, which no earlier change of
 * this stream shares: a transaction's changes enter the oplog together).
 */
function positionBefore(start: StreamStart, first: Document | null, token: ResumeToken): StreamStart {
  if (start.kind !== 'now') return start;
  if (first === null) return StreamStart.after(token);
  const clusterTime = first['clusterTime'] as Timestamp | undefined;
  return clusterTime ? StreamStart.atOperationTime(clusterTime) : StreamStart.now;
}

/** Signalled internally when the run must end with the stream closed. */
const END = 'end';

/**
 * One long-lived change stream: opened from a start point, each change handed to the handler in
 * order, its position remembered after each, reopened after failures until stopped or ended by
 * the handler. A stop closes the cursor, cuts a backoff short and waits for the handler in progress.
 */
export class ResumableStream {
  readonly #source: StreamSource;
  readonly #handler: StreamHandler;
  readonly #backoff: ReopenBackoff;
  readonly #stopping = new AbortController();
  #phase: 'new' | 'running' | 'stopped' = 'new';
  #stream: ChangeStream | null = null;
  #token: ResumeToken | null = null;
  /** Where a reopen after an 'error' resumes: exactly before the first change not yet handed over. */
  #resumeFrom: StreamStart = StreamStart.now;
  #gap: StreamOpened['gap'] = null;
  #opens = 0;
  #failures = 0;
  #lastError: string | null = null;
  #loop: Promise<void> = Promise.resolve();

  constructor(
    source: StreamSource,
    handler: StreamHandler,
    options: { backoff?: ReopenBackoff; signal?: AbortSignal } = {},
  ) {
    if ((handler.change === undefined) === (handler.batch === undefined))
      throw new Error('a stream handler takes changes one by one (change) or in batches (batch), one of the two');
    this.#source = source;
    this.#handler = handler;
    this.#backoff = options.backoff ?? {
      baseMs: ChangeStreamLimits.reopenBackoffBaseMs,
      maxMs: ChangeStreamLimits.reopenBackoffMaxMs,
    };
    const signal = options.signal;
    if (signal) {
      // An owner's stop signal stops the stream too; the listener goes when the run ends.
      const onAbort = () => void this.stop();
      if (signal.aborted) this.#stopping.abort();
      else signal.addEventListener('abort', onAbort, { once: true });
      this.#stopping.signal.addEventListener('abort', () => signal.removeEventListener('abort', onAbort), {
        once: true,
      });
    }
  }

  get status(): ResumableStreamStatus {
    const state =
      this.#phase === 'running'
        ? this.#failures > 0
          ? 'reopening'
          : this.#opens > 0
            ? 'open'
            : 'opening'
        : this.#phase;
    return {
      state,
      consecutiveFailures: this.#failures,
      lastError: this.#lastError,
      reopens: Math.max(0, this.#opens - 1),
    };
  }

  /** The position after the last change handed over (or the last empty answer); null before the first. */
  get resumeToken(): ResumeToken | null {
    return this.#token;
  }

  /**
   * Opens the stream from `start` and resolves once it is established (and `opened` ran); it is
   * then followed in the background until stop() or the handler ends it. A failure of this first
   * open rejects, and nothing keeps running.
   */
  async start(start: StreamStart): Promise<void> {
    if (this.#stopped) throw new Error('this stream was stopped before it started');
    this.#begin(start);
    let opened: { stream: ChangeStream; first: Document | null } | typeof END;
    try {
      opened = await this.#open(start);
    } catch (error) {
      await this.#end();
      throw error;
    }
    this.#loop = this.#follow(start, opened);
  }

  /** Follows the stream from `start` until stop() or the handler ends it; every failure, the first open's too, backs off and reopens. */
  run(start: StreamStart): Promise<void> {
    this.#begin(start);
    this.#loop = this.#follow(start, null);
    return this.#loop;
  }

  /** Closes the stream, cuts a pending backoff short, and resolves once the run has ended. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#closeStream();
    await this.#loop.catch(() => undefined);
    this.#phase = 'stopped';
  }

  get #stopped(): boolean {
    return this.#stopping.signal.aborted;
  }

  #begin(start: StreamStart): void {
    if (this.#phase !== 'new') throw new Error(`this stream was already started (${this.#phase})`);
    this.#phase = this.#stopped ? 'stopped' : 'running';
    this.#token = start.kind === 'after' ? start.token : null;
    this.#resumeFrom = start;
  }

  // `opened` is the first stream when start() established it already.
  async #follow(
    start: StreamStart,
    opened: { stream: ChangeStream; first: Document | null } | typeof END | null,
  ): Promise<void> {
    let next = start;
    let current = opened;
    try {
      while (!this.#stopped && current !== END) {
        try {
          current ??= await this.#open(next);
          if (current === END || (await this.#read(current.stream, current.first)) === END) break;
          current = null; // stopped while reading
        } catch (error) {
          current = null;
          await this.#closeStream();
          if (this.#stopped) break;
          const decided = this.#failed(error);
          if (decided === END) break;
          next = decided.next;
          if (decided.wait)
            await sleep(reopenDelayMs(this.#failures, this.#backoff), undefined, {
              signal: this.#stopping.signal,
            }).catch(() => undefined);
        }
      }
    } finally {
      await this.#end();
    }
  }

  async #end(): Promise<void> {
    await this.#closeStream();
    this.#phase = 'stopped';
    if (!this.#stopped) this.#stopping.abort(); // releases the owner's signal listener
  }

  /** Watches from `start` and waits for the aggregate's answer; then tells the handler. */
  async #open(start: StreamStart): Promise<{ stream: ChangeStream; first: Document | null } | typeof END> {
    const stream = watchFrom(this.#source, start);
    this.#stream = stream;
    const first = await stream.tryNext();
    const token = stream.resumeToken ?? (start.kind === 'after' ? start.token : null);
    if (token === null)
      throw new Error('the server sent no resume token with the change stream (postBatchResumeToken)');
    const opened: StreamOpened = { token: asResumeToken(token), gap: this.#gap, reopened: this.#opens > 0 };
    this.#opens++;
    this.#gap = null;
    this.#resumeFrom = positionBefore(start, first, opened.token);
    if ((await this.#handler.opened?.(opened)) === END) return END;
    return { stream, first };
  }

  /** Hands over changes until the handler ends the run or the stream fails (throws). */
  async #read(stream: ChangeStream, first: Document | null): Promise<typeof END | void> {
    let change = first;
    while (!this.#stopped) {
      if (change === null && stream.closed) throw new InvalidatedError();
      const changes = change !== null && this.#handler.batch ? await buffered(stream, change) : null;
      const token = asResumeToken(stream.resumeToken);
      if (changes !== null) {
        if ((await this.#handler.batch!(changes, token)) === END) return END;
      } else if (change !== null && (await this.#handler.change!(change, token)) === END) return END;
      this.#token = token;
      this.#resumeFrom = StreamStart.after(token);
      this.#succeeded();
      if ((await this.#handler.polled?.(token)) === END) return END;
      if (this.#stopped) break;
      change = await stream.tryNext();
    }
  }

  #succeeded(): void {
    if (this.#failures === 0) return;
    const failures = this.#failures;
    this.#failures = 0;
    this.#lastError = null;
    this.#handler.recovered?.(failures);
  }

  /** Counts the failure and decides where to reopen, and whether to wait first. */
  #failed(error: unknown): { next: StreamStart; wait: boolean } | typeof END {
    const kind = classifyStreamError(error);
    this.#failures++;
    this.#lastError = error instanceof Error ? error.message : String(error);
    if (kind !== 'error') {
      this.#gap = kind;
      this.#resumeFrom = StreamStart.now; // the old position is gone
    }
    let decided: StreamStart | 'end' | void;
    try {
      decided = this.#handler.failed?.({ kind, error, failures: this.#failures });
    } catch (hookError) {
      this.#lastError = `the stream's failure handler threw: ${hookError instanceof Error ? hookError.message : String(hookError)}`;
      return END;
    }
    if (decided === END) return END;
    const next = decided ?? this.#resumeFrom;
    // A restart from now after a lost history or an invalidate cannot meet the same loss: no wait.
    return { next, wait: kind === 'error' || next.kind !== 'now' };
  }

  async #closeStream(): Promise<void> {
    const stream = this.#stream;
    this.#stream = null;
    if (stream) await closeChangeStream(this.#source, stream);
  }
}

/** Changes one `batch` call takes at most: the driver's buffer holds up to a getMore's worth (16 MB). */
export const BATCH_CHANGES_MAX = 500;

/** `first` and whatever the stream already holds in its buffer (taking them makes no round trip). */
async function buffered(stream: ChangeStream, first: Document): Promise<Document[]> {
  const changes = [first];
  while (changes.length < BATCH_CHANGES_MAX && stream.bufferedCount() > 0) {
    const next = await stream.tryNext();
    if (next === null) break;
    changes.push(next);
  }
  return changes;
}
