// The waits of write and read concerns on a replica-set member: a write waits until enough
// members hold it (replication_coordinator_impl.cpp, _awaitReplication_inlock and
// _doneWaitingForReplication_inlock), a read until this member has applied, or majority-committed,
// the time it asks for (read_concern_mongod.cpp, waitForReadConcern and makeNoopWriteIfNeeded).
// Each waiter is re-checked whenever the coordinator says something moved (wake).
import { Timestamp } from 'bson';
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { MemberState } from './memberState.ts';
import { compareOpTime, type OpTime } from './opTime.ts';
import type { PeerCommander } from './PeerClient.ts';
import type { ReplHost } from './replHost.ts';

/** mongod's waitForSecondaryBeforeNoopWriteMS (read_concern_mongod.cpp): a secondary's wait before it asks the primary for a no-op. */
const WAIT_FOR_SECONDARY_BEFORE_NOOP_WRITE_MS = 10;
/** How long a member waits for the primary's answer to appendOplogNote (it does not wait on it: the read's own deadline counts). */
const PEER_COMMAND_TIMEOUT_MS = 2_000;

export type WaitOutcome = 'ready' | 'timeout' | 'steppedDown' | CommandError;

export interface WaitsHost {
  readonly server: ReplHost;
  state(): number;
  /** Members in the configuration (1 without one). */
  memberCount(): number;
  majorityCount(): number;
  /** writeConcernMajorityJournalDefault. */
  majorityJournals(): boolean;
  lastApplied(): OpTime;
  lastDurable(): OpTime;
  majorityReadPoint(): OpTime;
  commitPoint(): OpTime;
  primaryAddress(): string | undefined;
  peer(host: string): PeerCommander;
  recomputeCommitPoint(): void;
  /** How many members (this one included) hold `opTime`, durably or applied. */
  membersAt(opTime: OpTime, durable: boolean): number;
}

interface Waiter {
  ready: () => boolean;
  resolve: (error?: CommandError | 'steppedDown') => void;
}

export class ReplicationWaits {
  readonly #host: WaitsHost;
  readonly #waiters = new Set<Waiter>();

  constructor(host: WaitsHost) {
    this.#host = host;
  }

  #isPrimary(): boolean {
    return this.#host.state() === MemberState.PRIMARY;
  }

  /**
   * Waits for a write concern after a write at `opTime`; returns the writeConcernError the reply
   * carries, or undefined once satisfied. A member counts an entry durable when the write concern
   * journals (j: true, and w:majority, which writeConcernMajorityJournalDefault makes journaled),
   * applied otherwise (_doneWaitingForReplication_inlock: useDurableOpTime = syncMode == JOURNAL).
   */
  async awaitWriteConcern(
    writeConcern: Document,
    opTime: OpTime,
    signals: AbortSignal[],
  ): Promise<Document | undefined> {
    const w = writeConcern.w ?? 'majority';
    const j =
      writeConcern.j === true || writeConcern.j === 1
        ? true
        : writeConcern.j === false || writeConcern.j === 0
          ? false
          : undefined;
    if (w === 0 || w === 0n) return undefined;
    if ((w === 1 || w === 1n) && j !== true) return undefined;
    if (!this.#isPrimary()) return steppedDownError();
    this.#host.recomputeCommitPoint();
    const ready = this.#writeConcernReady(writeConcern, w, j, opTime);
    if (typeof ready !== 'function') return ready;
    const wtimeout = Number(writeConcern.wtimeout ?? writeConcern.wtimeoutMS ?? 0);
    const outcome = await this.waitUntil(ready, wtimeout > 0 ? wtimeout : Number.POSITIVE_INFINITY, signals);
    if (outcome === 'ready') return undefined;
    if (outcome === 'steppedDown') return steppedDownError();
    if (outcome === 'timeout') {
      return {
        code: 64,
        codeName: 'WriteConcernFailed',
        errmsg: 'waiting for replication timed out',
        errInfo: { wtimeout: true, writeConcern: provenance(writeConcern) },
      };
    }
    throw outcome;
  }

  /** When the write at `opTime` satisfies `w` (asking for a journal flush where it must be durable), or the error that it never can. */
  #writeConcernReady(
    writeConcern: Document,
    w: unknown,
    j: boolean | undefined,
    opTime: OpTime,
  ): (() => boolean) | Document {
    const storage = this.#host.server.storage;
    if (w === 1 || w === 1n) {
      // w:1, j:true: this member's own journal (mongod waits for its JournalFlusher).
      storage?.requestFlush();
      return () => compareOpTime(this.#host.lastDurable(), opTime) >= 0;
    }
    if (w === 'majority') {
      // write_concern.cpp: a majority write journals when writeConcernMajorityJournalDefault is
      // true and j is not given; j:true always journals.
      const durable = j === true || (j === undefined && this.#host.majorityJournals());
      if (durable) storage?.requestFlush();
      return () =>
        compareOpTime(this.#host.commitPoint(), opTime) >= 0 &&
        this.#host.membersAt(opTime, durable) >= this.#host.majorityCount();
    }
    if (typeof w === 'number' || typeof w === 'bigint') {
      const needed = Number(w);
      if (needed > this.#host.memberCount()) {
        return {
          code: 100,
          codeName: 'UnsatisfiableWriteConcern',
          errmsg: 'Not enough data-bearing nodes',
          errInfo: { writeConcern: provenance(writeConcern) },
        };
      }
      const journaled = j === true;
      if (journaled) storage?.requestFlush();
      return () => this.#host.membersAt(opTime, journaled) >= needed;
    }
    return {
      code: 79,
      codeName: 'UnknownReplWriteConcern',
      errmsg: `No write concern mode named '${String(w)}' found in replica set configuration`,
      errInfo: { writeConcern: provenance(writeConcern) },
    };
  }

  /**
   * A read's readConcern on this member: waits until it has applied `afterClusterTime` (majority:
   * until its commit point has), bounded by `deadlineMs` (maxTimeMS: MaxTimeMSExpired).
   */
  async awaitReadConcern(readConcern: Document, deadlineMs: number | undefined, signals: AbortSignal[]): Promise<void> {
    const after = readConcern.afterClusterTime ?? readConcern.afterOpTime;
    if (!(after instanceof Timestamp) && readConcern.level !== 'majority') return;
    const majority = readConcern.level === 'majority' || readConcern.level === 'snapshot';
    const target = after instanceof Timestamp ? after : undefined;
    const ready = () => {
      const point = majority ? this.#host.majorityReadPoint() : this.#host.lastApplied();
      return target === undefined ? true : !target.greaterThan(point.ts);
    };
    if (ready()) return;
    // A primary behind the asked time writes a no-op to reach it (read_concern_mongod.cpp,
    // makeNoopWriteIfNeeded: "noop write for afterClusterTime read concern").
    if (this.#isPrimary() && !majority)
      this.#host.server.changeStreams.recordNoop('noop write for afterClusterTime read concern');
    if (ready()) return;
    if (!this.#isPrimary() && target !== undefined && target.greaterThan(this.#host.lastApplied().ts)) {
      await this.#askPrimaryForNoop(target, signals);
      if (ready()) return;
    }
    const outcome = await this.waitUntil(
      ready,
      deadlineMs === undefined ? Number.POSITIVE_INFINITY : deadlineMs - Date.now(),
      signals,
    );
    if (outcome === 'ready') return;
    if (outcome === 'timeout') throw new CommandError('MaxTimeMSExpired', 'operation exceeded time limit');
    if (outcome === 'steppedDown') return;
    throw outcome;
  }

  /**
   * A secondary asked for a time past every entry it holds waits briefly (it may only lag), then
   * asks the primary for a no-op at or past that time (appendOplogNote), which reaches it through
   * replication: read_concern_mongod.cpp, makeNoopWriteIfNeeded (waitForSecondaryBeforeNoopWriteMS,
   * 10 ms by default). mongod compares with the member's last written optime; here fetched entries
   * are applied at once unless a fail point holds them, so the last applied one stands in for it
   * (a held member asks for a harmless no-op).
   */
  async #askPrimaryForNoop(target: Timestamp, signals: AbortSignal[]): Promise<void> {
    const settled = await this.waitUntil(
      () => !target.greaterThan(this.#host.lastApplied().ts),
      WAIT_FOR_SECONDARY_BEFORE_NOOP_WRITE_MS,
      signals,
    );
    const primary = this.#host.primaryAddress();
    if (settled !== 'ready' && primary !== undefined) {
      void this.#host
        .peer(primary)
        .command(
          'admin',
          { appendOplogNote: 1, data: { 'noop write for afterClusterTime read concern': 1 } },
          PEER_COMMAND_TIMEOUT_MS,
        )
        .catch(() => undefined);
    }
  }

  /** Resolves once `ready()` holds (checked at every wake), after `timeoutMs`, on an abort, or when endAll ends every wait. */
  waitUntil(ready: () => boolean, timeoutMs: number, signals: AbortSignal[]): Promise<WaitOutcome> {
    if (ready()) return Promise.resolve('ready');
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (outcome: WaitOutcome) => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
        for (const s of signals) s.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const onAbort = () => finish(new CommandError('Interrupted', 'operation was interrupted'));
      const waiter: Waiter = { ready, resolve: (error) => finish(error ?? 'ready') };
      if (Number.isFinite(timeoutMs)) timer = setTimeout(() => finish('timeout'), Math.max(0, timeoutMs));
      for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
      this.#waiters.add(waiter);
    });
  }

  /** Re-checks every waiter (after an apply, a position update, a commit point move). */
  wake(): void {
    for (const waiter of [...this.#waiters]) if (waiter.ready()) waiter.resolve();
  }

  /** Ends every wait: a step-down ('steppedDown') or a shutdown (its error). */
  endAll(outcome: CommandError | 'steppedDown'): void {
    for (const waiter of this.#waiters) waiter.resolve(outcome);
    this.#waiters.clear();
  }
}

function provenance(writeConcern: Document): Document {
  return {
    ...writeConcern,
    wtimeout: writeConcern.wtimeout ?? 0,
    provenance: writeConcern.provenance ?? 'clientSupplied',
  };
}

/**
 * The writeConcernError of a write whose wait a step-down ended: mongod's step-down kills every
 * operation that took the global lock for writing, including ones waiting for write concern
 * (replication_coordinator_impl.cpp, _killConflictingOpsOnStepUpAndStepDown).
 */
function steppedDownError(): Document {
  return { code: 11602, codeName: 'InterruptedDueToReplStateChange', errmsg: 'operation was interrupted' };
}
