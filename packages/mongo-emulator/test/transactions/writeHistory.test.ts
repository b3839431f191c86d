// The write history answers by namespace and by key (not by walking every newer entry), and its
// indexes must forget exactly what the history forgets: a key written again after a dropped
// entry still counts, a snapshot older than the oldest kept entry is refused.
import { Timestamp } from 'bson';
import { describe, expect, it } from 'vitest';
import type { ChangeRecord } from '../../src/engine/types.ts';
import { idKeyOf, type LockKey } from '../../src/txn/lockKeys.ts';
import { HISTORY_ENTRIES_MAX, HISTORY_WINDOW_MS, WriteHistory } from '../../src/txn/WriteHistory.ts';

const at = (i: number) => new Timestamp({ t: 1_000, i });

function insert(coll: string, id: unknown): ChangeRecord {
  return { op: 'insert', db: 'db', coll, documentKey: { _id: id }, fullDocument: { _id: id } };
}

/** Records an insert of `id` into db.`coll` at time `i`, locking its _id and an extra key. */
function write(history: WriteHistory, i: number, coll: string, id: unknown, extra: LockKey[] = []): void {
  history.record(at(i), insert(coll, id), [idKeyOf(`db.${coll}`, id), ...extra]);
}

describe('WriteHistory', () => {
  it('lists the changes of one namespace after a time, newest first, whatever else was written', () => {
    const history = new WriteHistory();
    for (let i = 1; i <= 30; i++) write(history, i, i % 3 === 0 ? 'a' : 'b', i);
    expect(history.changesAfter('db.a', at(20)).map((c) => c.documentKey._id)).toEqual([30, 27, 24, 21]);
    expect(history.changesAfter('db.b', at(28))).toHaveLength(1);
    expect(history.changesAfter('db.none', at(0))).toEqual([]);
    expect(history.changesAfter('db.a', at(30))).toEqual([]);
  });

  it('tells whether a key was written after a time, by BSON equality of the key', () => {
    const history = new WriteHistory();
    const unique = (value: unknown): LockKey => ({ ns: 'db.a', index: 'n_1', key: [value] });
    write(history, 1, 'a', 'x', [unique(1)]);
    write(history, 2, 'b', 'y');
    write(history, 3, 'a', 'z', [unique(2)]);
    expect(history.writtenAfter([unique(1)], at(0))).toBe(true);
    // int, long and double 1 are one index key.
    expect(history.writtenAfter([unique(1n)], at(0))).toBe(true);
    expect(history.writtenAfter([unique(1.0)], at(1))).toBe(false);
    expect(history.writtenAfter([unique(2)], at(2))).toBe(true);
    expect(history.writtenAfter([idKeyOf('db.a', 'y')], at(0))).toBe(false);
    expect(history.writtenAfter([idKeyOf('db.b', 'y')], at(1))).toBe(true);
    expect(history.writtenAfter([{ ns: 'db.a', index: 'other', key: [1] }], at(0))).toBe(false);
  });

  it('keeps a key written again after its first writer was dropped by the count bound', () => {
    const history = new WriteHistory();
    const hot = idKeyOf('db.a', 'hot');
    write(history, 1, 'a', 'hot');
    for (let i = 2; i <= HISTORY_ENTRIES_MAX + 1; i++) {
      if (i === 5_000) write(history, i, 'a', 'hot');
      else write(history, i, i % 2 === 0 ? 'a' : 'b', i);
    }
    // Entry 1 is gone: a snapshot at 0 cannot be rebuilt, one at 1 can.
    expect(history.covers(at(0))).toBe(false);
    expect(history.covers(at(1))).toBe(true);
    expect(history.writtenAfter([hot], at(0))).toBe(true);
    expect(history.writtenAfter([hot], at(100))).toBe(true);
    expect(history.writtenAfter([hot], at(5_000))).toBe(false);
    expect(history.changesAfter('db.a', at(4_999)).at(-1)!.documentKey._id).toBe('hot');
  });

  it('forgets entries older than the window, and their keys with them', () => {
    let nowMs = 0;
    const history = new WriteHistory(() => nowMs);
    for (let i = 1; i <= 2_000; i++) write(history, i, 'a', i);
    nowMs = HISTORY_WINDOW_MS + 1;
    write(history, 2_001, 'b', 'late');
    expect(history.covers(at(1_999))).toBe(false);
    expect(history.covers(at(2_000))).toBe(true);
    expect(history.changesAfter('db.a', at(2_000))).toEqual([]);
    expect(history.changesAfter('db.b', at(2_000)).map((c) => c.documentKey._id)).toEqual(['late']);
    // Namespace a's list was emptied and compacted: new writes to it are found again.
    write(history, 2_002, 'a', 'again');
    expect(history.changesAfter('db.a', at(2_000)).map((c) => c.documentKey._id)).toEqual(['again']);
    expect(history.writtenAfter([idKeyOf('db.a', 'again')], at(2_001))).toBe(true);
  });
});
