// Proves the oplog's own rules without a server: it keeps only the newest maxEntries, finds
// positions by (time, txnOpIndex), wakes a waiter on the append it waits for (no polling), and
// its tokens order like its entries.
import { describe, expect, it, vi } from 'vitest';
import { Timestamp } from 'bson';
import { Oplog } from '../../src/changes/Oplog.ts';
import { decodeToken, encodeToken, highWaterMark } from '../../src/changes/resumeToken.ts';

const at = (t: number, i: number) => ({ ts: new Timestamp({ t, i }), wallTime: new Date() });
const noop = (msg: string) => ({ op: 'noop' as const, msg });

describe('Oplog', () => {
  it('keeps the newest maxEntries and reports the window', () => {
    const oplog = new Oplog(3);
    for (let i = 1; i <= 5; i++) oplog.append(noop(`n${i}`), at(100, i));
    expect([oplog.firstSeq, oplog.nextSeq]).toEqual([2, 5]);
    expect(oplog.get(1)).toBeUndefined();
    expect(oplog.window()).toMatchObject({ entries: 3, maxEntries: 3, earliest: { seq: 2 }, latest: { seq: 4 } });
    expect(oplog.seqAtOrAfter((100n << 32n) | 4n)).toBe(3);
    expect(oplog.seqAtOrAfter((101n << 32n) | 0n)).toBe(5);
  });

  it('wakes a waiter on the append it waits for, and one that times out with nothing', async () => {
    // On fake timers, so nothing is timed: the clock never moves until the test moves it, so a
    // waiter that resolves before that was woken by the append.
    vi.useFakeTimers();
    try {
      const oplog = new Oplog(10);
      const waiting = oplog.waitFor(oplog.nextSeq, 10_000, []);
      oplog.append(noop('x'), at(1, 1));
      await waiting;
      let idleOver = false;
      const idle = oplog.waitFor(oplog.nextSeq, 50, []).then(() => {
        idleOver = true;
      });
      await vi.advanceTimersByTimeAsync(49);
      expect(idleOver).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await idle;
      expect(idleOver).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('encodes tokens that decode to themselves and order as (time, type, txnOpIndex, fromInvalidate)', () => {
    const event = { clusterTime: new Timestamp({ t: 7, i: 2 }), tokenType: 'event' as const, txnOpIndex: 1, fromInvalidate: false, eventDigest: '0123456789ABCDEF' };
    expect(decodeToken(encodeToken(event))).toEqual(event);
    const ordered = [
      encodeToken(highWaterMark(new Timestamp({ t: 7, i: 2 }))),
      encodeToken({ ...event, txnOpIndex: 0 }),
      encodeToken(event),
      encodeToken({ ...event, fromInvalidate: true }),
      encodeToken(highWaterMark(new Timestamp({ t: 7, i: 3 }))),
    ].map((t) => t._data as string);
    expect([...ordered].sort()).toEqual(ordered);
  });
});
