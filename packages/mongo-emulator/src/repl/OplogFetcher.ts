// The oplog fetcher (mongod's oplog_fetcher.cpp, with the sync-source loop of bgsync.cpp): a
// secondary picks a sync source, checks that the source's oplog still holds our last entry,
// then tails it with a tailable awaitData cursor and hands each batch to the applier. A source
// that lost our last entry, or holds another one there, sends the member to rollback (or, too
// stale, to a new initial sync); a member in STARTUP2 starts with an initial sync.
import type { Timestamp } from 'bson';
import type { Document } from '../engine/types.ts';
import { delay } from './delay.ts';
import { MemberState } from './memberState.ts';
import { parseOpTime, type OpTime } from './opTime.ts';
import { PeerUnreachable, type PeerCommander } from './PeerClient.ts';

/** How long a getMore on the sync source waits for entries (the fetcher's awaitData maxTimeMS). */
const FETCH_AWAIT_MS = 500;
/** Entries fetched per batch. */
const FETCH_BATCH_ENTRIES = 5_000;
/** The pause before a fetcher retries a sync source that failed. */
const FETCH_RETRY_MS = 100;
/** With no sync source in sight, the fetcher looks again after a heartbeat interval, at most this long. */
const NO_SYNC_SOURCE_RETRY_MAX_MS = 200;
/** How often a fetcher held by stopReplProducer looks whether the fail point was lifted. */
const FAIL_POINT_POLL_MS = 50;
/** How long a fetcher leaving its sync source waits for its killCursors (a dead source never answers). */
const KILL_CURSOR_TIMEOUT_MS = 500;

export interface FetcherHost {
  readonly address: string;
  readonly logger: { warn(message: string): void };
  readonly stopSignal: AbortSignal;
  /** Whether the stopReplProducer fail point holds the fetcher. */
  producerStopped(): boolean;
  state(): number;
  lastApplied(): OpTime;
  term(): bigint;
  electionTimeoutMs(): number;
  heartbeatIntervalMs(): number;
  chooseSyncSource(): string | undefined;
  /** A connection of the fetcher's own to its sync source, closed when it leaves the source. */
  connect(host: string): PeerCommander;
  applyBatch(batch: Document[], signal: AbortSignal): Promise<void>;
  initialSync(source: PeerCommander, signal: AbortSignal): Promise<void>;
  /** Our last entry is not the source's: roll back (or, too stale, sync anew). */
  onDivergence(source: PeerCommander, signal: AbortSignal): Promise<void>;
  advanceCommitPoint(opTime: OpTime): void;
  /** The source names a live primary of our term: no election for a timeout. */
  postponeElection(): void;
}

export class OplogFetcher {
  readonly #host: FetcherHost;
  #running: Promise<void> | undefined;
  #syncSource: string | undefined;
  /** Aborted to stop the current fetcher (a step-up, a stop, a new sync source). */
  #abort = new AbortController();

  constructor(host: FetcherHost) {
    this.#host = host;
  }

  get syncSource(): string | undefined {
    return this.#syncSource;
  }

  #isPrimary(): boolean {
    return this.#host.state() === MemberState.PRIMARY;
  }

  /** Starts the fetcher unless it runs, the member is primary or the server stops; it restarts itself when it ends on its own. */
  start(): void {
    if (this.#running || this.#isPrimary() || this.#host.stopSignal.aborted) return;
    this.#abort = new AbortController();
    const signal = this.#abort.signal;
    this.#running = this.#fetchLoop(signal).finally(() => {
      this.#running = undefined;
      this.#syncSource = undefined;
      if (!signal.aborted) this.start();
    });
  }

  stop(): void {
    this.#abort.abort();
  }

  async #fetchLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && !this.#isPrimary()) {
      const source = this.#host.chooseSyncSource();
      if (!source) {
        await delay(Math.min(this.#host.heartbeatIntervalMs(), NO_SYNC_SOURCE_RETRY_MAX_MS), signal);
        continue;
      }
      this.#syncSource = source;
      const client = this.#host.connect(source);
      try {
        if (this.#host.state() === MemberState.STARTUP2) await this.#host.initialSync(client, signal);
        else await this.#tail(client, source, signal);
      } catch (error) {
        if (!(error instanceof PeerUnreachable) && !signal.aborted)
          this.#host.logger.warn(`repl: ${this.#host.address} syncing from ${source}: ${(error as Error).message}`);
        await delay(FETCH_RETRY_MS, signal);
      } finally {
        client.close();
        this.#syncSource = undefined;
      }
    }
  }

  /**
   * Tails the sync source's oplog from our last entry: the first entry returned must be our last
   * one; if the source no longer has it, we are too stale (a new initial sync); if it has a
   * different entry there, our history diverged (rollback).
   */
  async #tail(client: PeerCommander, source: string, signal: AbortSignal): Promise<void> {
    const last = this.#host.lastApplied();
    while (this.#host.producerStopped()) {
      await delay(FAIL_POINT_POLL_MS, signal);
      if (signal.aborted) return;
    }
    const timeoutMs = this.#host.electionTimeoutMs() + FETCH_AWAIT_MS;
    const reply = await client.command(
      'local',
      {
        find: 'oplog.rs',
        filter: { ts: { $gte: last.ts } },
        tailable: true,
        awaitData: true,
        batchSize: FETCH_BATCH_ENTRIES,
      },
      timeoutMs,
    );
    if (reply.ok !== 1) throw new Error(`find on the oplog failed: ${String(reply.errmsg)}`);
    const cursor = reply.cursor as Document;
    const batch = cursor.firstBatch as Document[];
    const first = batch[0];
    if (!first || !(first.ts as Timestamp).equals(last.ts) || BigInt(first.t as bigint) !== last.t) {
      await this.#host.onDivergence(client, signal);
      return;
    }
    const id = cursor.id as bigint;
    try {
      await this.#follow(client, source, id, batch.slice(1), signal);
    } finally {
      // The source drops the cursor now rather than after its idle timeout.
      if (id !== 0n)
        await client
          .command('local', { killCursors: 'oplog.rs', cursors: [id] }, KILL_CURSOR_TIMEOUT_MS)
          .catch(() => undefined);
    }
  }

  async #follow(
    client: PeerCommander,
    source: string,
    id: bigint,
    first: Document[],
    signal: AbortSignal,
  ): Promise<void> {
    let batch = first;
    for (;;) {
      // stopReplProducer drops what was fetched, as mongod's oplog fetcher does with its batch.
      if (this.#host.producerStopped()) return;
      await this.#host.applyBatch(batch, signal);
      if (signal.aborted || id === 0n || this.#isPrimary()) return;
      if (this.#host.chooseSyncSource() !== source) return;
      if (this.#host.producerStopped()) return;
      const more = await client.command(
        'local',
        { getMore: id, collection: 'oplog.rs', batchSize: FETCH_BATCH_ENTRIES, maxTimeMS: FETCH_AWAIT_MS },
        this.#host.electionTimeoutMs() + FETCH_AWAIT_MS,
      );
      if (more.ok !== 1) throw new Error(`getMore on the oplog failed: ${String(more.errmsg)}`);
      const replData = more.$replData as Document | undefined;
      if (replData) this.#processMetadata(replData);
      batch = (more.cursor as Document).nextBatch as Document[];
    }
  }

  /**
   * The metadata of a batch fetched from the sync source (data_replicator_external_state_impl.cpp,
   * DataReplicatorExternalStateImpl::processMetadata): the commit point advances, and a source that
   * names a primary postpones the election timer (cancelAndRescheduleElectionTimeout), so a
   * secondary that keeps fetching does not stand while the primary lives, whatever the heartbeat
   * interval is against the election timeout.
   */
  #processMetadata(replData: Document): void {
    this.#host.advanceCommitPoint(parseOpTime(replData.lastOpCommitted));
    const namesPrimary = Number(replData.primaryIndex ?? -1) >= 0;
    const sourceTerm = BigInt((replData.term as bigint | number | undefined) ?? -1);
    if (!namesPrimary || this.#isPrimary() || sourceTerm < this.#host.term()) return;
    this.#host.postponeElection();
  }
}
