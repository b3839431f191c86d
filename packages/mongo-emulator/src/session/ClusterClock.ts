import { Binary, Timestamp } from 'bson';
import type { Document } from '../engine/types.ts';

/** The signature of an unauthenticated deployment's $clusterTime: keyId 0 and a zero hash. */
const ZERO_HASH = new Binary(Buffer.alloc(20));

/**
 * The logical clock of the one-node replica set: a Timestamp (seconds, increment) that never
 * goes backwards and advances on every write, which is what operationTime and $clusterTime
 * report and what the oplog is ordered by.
 */
export class ClusterClock {
  private seconds = 0;
  private increment = 0;
  private lastWriteWallTime = new Date();
  // Made once per tick, not per read: every reply and every engine call reads the time, and a
  // bson Timestamp is immutable, so all readers of one tick can share it.
  private current = new Timestamp({ t: 0, i: 0 });
  private currentDocument: Document = { clusterTime: this.current, signature: { hash: ZERO_HASH, keyId: 0n } };

  constructor(private readonly wallClockMs: () => number = Date.now) {
    this.tick();
  }

  /** The latest time handed out, without advancing. */
  now(): Timestamp {
    return this.current;
  }

  /** Advances for one write and returns that write's time. */
  tick(): Timestamp {
    const wallMs = this.wallClockMs();
    const wallSeconds = Math.floor(wallMs / 1000);
    if (wallSeconds > this.seconds) {
      this.seconds = wallSeconds;
      this.increment = 1;
    } else {
      this.increment += 1;
    }
    this.lastWriteWallTime = new Date(wallMs);
    this.current = new Timestamp({ t: this.seconds, i: this.increment });
    this.currentDocument = { clusterTime: this.current, signature: { hash: ZERO_HASH, keyId: 0n } };
    return this.current;
  }

  /**
   * Moves the clock up to `ts` when it is behind (never back): a replicated entry's time, or a
   * client's gossiped $clusterTime on a replica-set member, as mongod's VectorClock advances.
   */
  advanceTo(ts: Timestamp): void {
    if (!ts.greaterThan(this.current)) return;
    this.seconds = ts.high;
    this.increment = ts.low;
    this.current = ts;
    this.currentDocument = { clusterTime: this.current, signature: { hash: ZERO_HASH, keyId: 0n } };
  }

  get lastWriteDate(): Date {
    return this.lastWriteWallTime;
  }

  /** The `$clusterTime` document every reply carries. */
  clusterTimeDocument(): Document {
    return this.currentDocument;
  }
}
