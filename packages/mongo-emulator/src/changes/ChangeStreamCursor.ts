// One open change stream: where it is in the oplog, the resume token it still has to find, and
// the postBatchResumeToken it reports, following mongod's PlanExecutorPipeline accounting: the
// token of the last event returned, or a high-water mark once the scan passed later entries.
import { calculateObjectSize, Timestamp } from 'bson';
import { compileEventPipeline, type PipelineContext } from '../engine/aggregate.ts';
import { formatDocument } from '../engine/format.ts';
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { MAX_BSON_OBJECT_SIZE_BYTES } from '../wire/constants.ts';
import { buildEvent, buildInvalidate, inScope, invalidates, type DocumentLookup } from './buildEvent.ts';
import { NON_RESUMABLE_LABEL } from './changeStreamLabels.ts';
import type { Oplog, OplogEntry } from './Oplog.ts';
import { encodeToken, highWaterMark, timeKey, type ResumeTokenData } from './resumeToken.ts';
import type { ChangeStreamSpec } from './streamSpec.ts';

/** Oplog entries one batch may examine, so a stream far behind cannot hold the server up. */
const SCAN_ENTRIES_PER_BATCH_MAX = 10_000;
/** A batch stops growing past this many bytes of events, as mongod's getMore. */
const BATCH_SIZE_MAX_BYTES = MAX_BSON_OBJECT_SIZE_BYTES;
/** mongod's BSONObjMaxInternalSize: a larger event cannot be returned at all. */
const EVENT_SIZE_MAX_BYTES = MAX_BSON_OBJECT_SIZE_BYTES + 16 * 1024;

export interface CursorBatch {
  events: Document[];
  postBatchResumeToken: Document;
  /** The stream was invalidated: this is its last batch. */
  closed: boolean;
}

/** An event with what the cursor needs once it is returned; `closes` marks the invalidate. */
interface HeldEvent {
  event: Document;
  tsKey: bigint;
  closes: boolean;
}

export class ChangeStreamCursor {
  readonly createdDate = new Date();
  lastAccessDate = new Date();
  nDocsReturned = 0;
  nBatchesReturned = 0;
  closed = false;
  /** The last batch stopped at entries not yet majority-committed (a getMore waits for the commit point). */
  waitingForCommit = false;
  #nextSeq: number;
  /** An event token the stream must meet before it returns anything (resumeAfter/startAfter). */
  #pendingResume: ResumeTokenData | undefined;
  #pendingInvalidate: OplogEntry | undefined;
  /** An event read but left for the next batch, which was full. */
  #held: HeldEvent | undefined;
  #postBatchResumeToken: Document;
  /** Time of the newest entry behind the current postBatchResumeToken. */
  #reportedTimeKey: bigint;
  /** The stream's pipeline, prepared once: it runs on every event in scope. */
  readonly #pipeline: (event: Document, ctx: PipelineContext) => Document | undefined;

  constructor(
    readonly spec: ChangeStreamSpec,
    private readonly oplog: Oplog,
    private readonly lookup: DocumentLookup,
    nowTs: Timestamp,
    clientToken: Document | undefined,
    /** On a replica-set member: the newest time (timeKey) majority-committed here; later entries wait. */
    private readonly visibleUpTo?: () => bigint,
  ) {
    this.#pipeline = compileEventPipeline(spec.pipeline);
    const { start } = spec;
    const startTs =
      start.kind === 'now'
        ? new Timestamp({ t: nowTs.t, i: nowTs.i + 1 })
        : start.kind === 'startAtOperationTime'
          ? start.clusterTime
          : start.token.clusterTime;
    this.#checkHistory(startTs);
    const token = start.kind === 'resumeAfter' || start.kind === 'startAfter' ? start.token : undefined;
    if (token?.tokenType === 'event') this.#pendingResume = token;
    this.#nextSeq = oplog.seqAtOrAfter(timeKey(startTs), token?.tokenType === 'event' ? token.txnOpIndex : 0);
    this.#postBatchResumeToken = clientToken ?? encodeToken(highWaterMark(startTs));
    this.#reportedTimeKey = timeKey(startTs);
  }

  /** The next oplog entry this stream will read. */
  get position(): number {
    return this.#nextSeq;
  }

  /** The next events, at most `limit`; throws (and the caller drops the cursor) on a fatal error. */
  nextBatch(limit: number): CursorBatch {
    const events: Document[] = [];
    if (this.closed) return { events, postBatchResumeToken: this.#postBatchResumeToken, closed: true };
    if (this.#nextSeq < this.oplog.firstSeq) {
      throw new CommandError(
        'CappedPositionLost',
        `CollectionScan died due to position in capped collection being deleted. Last seen record id: RecordId(${this.#nextSeq - 1})`,
      );
    }
    const batch = { events, bytes: 0 };
    let scannedTimeKey: bigint | undefined;
    let stoppedAtCommitPoint = false;
    // An event the last batch had no room for goes first.
    const held = this.#held;
    this.#held = undefined;
    if (held) this.#add(held, batch);
    for (
      let scanned = 0;
      events.length < limit && scanned < SCAN_ENTRIES_PER_BATCH_MAX && !this.#held && !this.closed;
    ) {
      const invalidating = this.#pendingInvalidate;
      if (invalidating) {
        this.#pendingInvalidate = undefined;
        const invalidate = this.#transform(buildInvalidate(invalidating));
        if (invalidate) this.#add({ event: invalidate, tsKey: invalidating.tsKey, closes: true }, batch);
        else this.closed = true;
        break;
      }
      const entry = this.oplog.get(this.#nextSeq);
      if (!entry) break;
      // A change stream returns only majority-committed events (mongod reads at the majority snapshot).
      if (this.visibleUpTo !== undefined && entry.tsKey > this.visibleUpTo()) {
        stoppedAtCommitPoint = true;
        break;
      }
      this.#nextSeq += 1;
      scanned += 1;
      scannedTimeKey = entry.tsKey;
      if (!inScope(entry, this.spec) || !this.#passedResumePoint(entry)) continue;
      if (invalidates(entry, this.spec.scope)) this.#pendingInvalidate = entry;
      const event = this.#transform(buildEvent(entry, this.spec, this.lookup));
      if (event) this.#add({ event, tsKey: entry.tsKey, closes: false }, batch);
    }
    const atEnd = !this.closed && !this.#held && this.#nextSeq >= this.oplog.nextSeq;
    this.waitingForCommit = stoppedAtCommitPoint && events.length === 0;
    if (atEnd && !this.#pendingResume && scannedTimeKey !== undefined && scannedTimeKey > this.#reportedTimeKey) {
      const latest = this.oplog.get(this.#nextSeq - 1)!;
      this.#postBatchResumeToken = encodeToken(highWaterMark(latest.ts));
      this.#reportedTimeKey = scannedTimeKey;
    }
    this.nDocsReturned += events.length;
    this.nBatchesReturned += 1;
    this.lastAccessDate = new Date();
    return { events, postBatchResumeToken: this.#postBatchResumeToken, closed: this.closed };
  }

  /** mongod: a start point older than the oldest oplog entry cannot be served. */
  #checkHistory(startTs: Timestamp): void {
    const earliest = this.oplog.earliest;
    if (earliest && timeKey(startTs) < earliest.tsKey) {
      throw new CommandError(
        'ChangeStreamHistoryLost',
        'Resume of change stream was not possible, as the resume point may no longer be in the oplog.',
        { errorLabels: [NON_RESUMABLE_LABEL] },
      );
    }
  }

  /**
   * While a resume token is pending, swallows entries up to it; true once the entry is past it.
   * The first in-scope entry beyond the token, without having met it, is a fatal error.
   */
  #passedResumePoint(entry: OplogEntry): boolean {
    const token = this.#pendingResume;
    if (!token) return true;
    const tokenKey = timeKey(token.clusterTime);
    if (entry.tsKey < tokenKey || (entry.tsKey === tokenKey && entry.txnOpIndex < token.txnOpIndex)) return false;
    if (entry.tsKey === tokenKey && entry.txnOpIndex === token.txnOpIndex && entry.eventDigest === token.eventDigest) {
      this.#pendingResume = undefined;
      // Resuming after the invalidating event itself still owes the client its invalidate.
      if (!token.fromInvalidate && invalidates(entry, this.spec.scope)) this.#pendingInvalidate = entry;
      return false;
    }
    throw new CommandError(
      'ChangeStreamFatalError',
      `cannot resume stream; the resume token was not found. ${formatDocument(entry.token)}`,
      { errorLabels: [NON_RESUMABLE_LABEL] },
    );
  }

  /**
   * Adds an event to the batch unless the batch is full by size (mongod caps a batch at 16 MiB,
   * the first event always goes); a held event opens the next batch. False when held.
   */
  #add(item: HeldEvent, batch: { events: Document[]; bytes: number }): boolean {
    const size = calculateObjectSize(item.event);
    if (size > EVENT_SIZE_MAX_BYTES) {
      throw new CommandError(
        'BSONObjectTooLarge',
        `BSONObj size: ${size} (0x${size.toString(16).toUpperCase()}) is invalid. Size must be between 0 and ${EVENT_SIZE_MAX_BYTES}(16MB) First element: _id: ${formatDocument(item.event._id as Document)}`,
      );
    }
    if (batch.events.length > 0 && batch.bytes + size > BATCH_SIZE_MAX_BYTES) {
      this.#held = item;
      return false;
    }
    batch.events.push(item.event);
    batch.bytes += size;
    this.#postBatchResumeToken = item.event._id as Document;
    this.#reportedTimeKey = item.tsKey;
    if (item.closes) this.closed = true;
    return true;
  }

  /** Runs the user's stages on one event: the event, or undefined when they filtered it out. */
  #transform(event: Document): Document | undefined {
    const token = event._id as Document;
    const out =
      this.spec.pipeline.length === 0
        ? event
        : this.#pipeline(event, {
            now: new Date(),
            clusterTime: event.clusterTime as Timestamp,
            resolve: () => [],
          });
    if (out === undefined) return undefined;
    if (!sameToken(out._id, token)) {
      throw new CommandError(
        'ChangeStreamFatalError',
        'Encountered an event whose _id field, which contains the resume token, was modified by the pipeline. Modifying the _id field of an event makes it impossible to resume the stream from that point. Only transformations that retain the unmodified _id field are allowed. ' +
          `Expected: ${formatDocument({ _id: token })} but found: ${formatDocument(out._id === undefined ? {} : { _id: out._id })}`,
        { errorLabels: [NON_RESUMABLE_LABEL] },
      );
    }
    return out;
  }
}

function sameToken(candidate: unknown, token: Document): boolean {
  if (candidate === null || typeof candidate !== 'object') return false;
  const keys = Object.keys(candidate);
  return keys.length === 1 && keys[0] === '_data' && (candidate as Document)._data === token._data;
}
