// An open transaction's snapshot gets its copy of a collection pinned just before the first write
// after its time, so it reads that time's data without undoing anything, whatever was committed
// since. Each pin must be of the right moment (not a later write's), per snapshot, and a pin
// taken from a collection since replaced or re-indexed must not be used. Counted in record
// writes and compared by contents, not timed.
import { beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/engine/catalog.ts';
import type { Collection } from '../../src/engine/collection.ts';
import type { Document } from '../../src/engine/types.ts';
import { ClusterClock } from '../../src/session/ClusterClock.ts';
import { SnapshotCatalog } from '../../src/txn/SnapshotCatalog.ts';
import { SnapshotPins } from '../../src/txn/SnapshotPins.ts';
import { WriteHistory } from '../../src/txn/WriteHistory.ts';

const DOCUMENTS = 1_000;

let clock: ClusterClock;
let live: Catalog;
let history: WriteHistory;
let pins: SnapshotPins;
let big: Collection;

beforeEach(() => {
  clock = new ClusterClock();
  live = new Catalog({ clock: () => ({ now: new Date(), clusterTime: clock.now() }), freezeDocuments: true });
  history = new WriteHistory();
  // As the server wires them: the clock ticks on every write, then history records it.
  live.observe(() => clock.tick());
  live.observe((change) => history.record(clock.now(), change, []));
  pins = new SnapshotPins(live);
  big = live.getOrCreateCollection('db', 'big');
  big.createIndexes([{ key: { n: 1 }, name: 'n_1', unique: true }]);
  for (let i = 0; i < DOCUMENTS; i++) big.insertOne({ _id: i, n: i });
});

/** A transaction's snapshot at the current time, pinned as the coordinator does. */
function open(): SnapshotCatalog {
  const snapshot = new SnapshotCatalog(live, history, clock.now(), () => undefined);
  pins.add(snapshot);
  return snapshot;
}

const ids = (docs: Document[]) => docs.map((d) => d._id);

describe('snapshot pins', () => {
  it('copy a collection written after the snapshot with nothing to undo, natural order intact', () => {
    const snapshot = open();
    big.update({ q: { _id: 7 }, u: { $set: { n: 100_007 } } });
    big.delete({ q: { _id: 8 }, limit: 1 });
    big.insertOne({ _id: DOCUMENTS, n: 8 });
    const copy = snapshot.getCollection('db', 'big')!;
    expect(copy.recordsWritten).toBe(0);
    expect(copy.find({ _id: 7 })).toEqual([{ _id: 7, n: 7 }]);
    expect(copy.find({ n: 8 })).toEqual([{ _id: 8, n: 8 }]);
    expect(copy.lastIndexUsed).toBe('n_1');
    expect(copy.find({ n: 100_007 })).toEqual([]);
    expect(copy.count({})).toBe(DOCUMENTS);
    // Document 8 is where it was, not re-inserted at the end as an undo would put it.
    expect(ids(copy.find({})).slice(7, 10)).toEqual([7, 8, 9]);
  });

  it('give each snapshot the collection as of its own time', () => {
    const first = open();
    big.insertOne({ _id: 'a', n: -1 });
    const second = open();
    big.insertOne({ _id: 'b', n: -2 });
    const third = open();
    big.insertOne({ _id: 'c', n: -3 });
    const count = (snapshot: SnapshotCatalog) => snapshot.getCollection('db', 'big')!.count({});
    expect([count(first), count(second), count(third)]).toEqual([DOCUMENTS, DOCUMENTS + 1, DOCUMENTS + 2]);
    expect(big.count({})).toBe(DOCUMENTS + 3);
    for (const snapshot of [first, second, third]) expect(snapshot.getCollection('db', 'big')!.recordsWritten).toBe(0);
  });

  it('keep a snapshot copy and the live collection apart after the pin', () => {
    const snapshot = open();
    big.insertOne({ _id: 'live', n: -1 });
    const copy = snapshot.getCollection('db', 'big')!;
    copy.insertOne({ _id: 'mine', n: -1 });
    big.update({ q: { _id: 1 }, u: { $set: { n: 1_000_001 } } });
    expect(copy.find({ n: -1 })).toEqual([{ _id: 'mine', n: -1 }]);
    expect(copy.find({ _id: 1 })).toEqual([{ _id: 1, n: 1 }]);
    expect(big.find({ n: -1 })).toEqual([{ _id: 'live', n: -1 }]);
    // A second snapshot pinned from the same moment is unaffected by the first one's writes.
    expect(ids(big.find({ _id: 'mine' }))).toEqual([]);
  });

  it('are not used when the collection was replaced after the pin, nor when its indexes changed', () => {
    const replaced = open();
    big.insertOne({ _id: 'pinned', n: -1 });
    live.dropCollection('db', 'big');
    live.getOrCreateCollection('db', 'big').insertOne({ _id: 'new', n: 0 });
    // The history undoes what the live (new) collection received after the snapshot's time.
    expect(replaced.getCollection('db', 'big')!.count({})).toBe(0);

    const reindexed = open();
    const current = live.getCollection('db', 'big')!;
    current.insertOne({ _id: 'second', n: 1 });
    current.createIndexes([{ key: { m: 1 }, name: 'm_1' }]);
    const copy = reindexed.getCollection('db', 'big')!;
    expect(copy.listIndexes().map((spec) => spec.name)).toEqual(['_id_', 'm_1']);
    expect(ids(copy.find({}))).toEqual(['new']);
  });

  it('stop once the snapshot is let go, and take none for collections it already copied', () => {
    const snapshot = open();
    const copy = snapshot.getCollection('db', 'big')!;
    big.insertOne({ _id: 'after', n: -1 });
    expect(snapshot.needsPin('db.big')).toBe(false);
    expect(snapshot.needsPin('db.other')).toBe(true);
    pins.delete(snapshot);
    expect(pins.openCount).toBe(0);
    live.getOrCreateCollection('db', 'other').insertOne({ _id: 1 });
    // Never pinned: copied from live with the insert undone.
    expect(snapshot.getCollection('db', 'other')!.recordsWritten).toBe(1);
    expect(copy.count({})).toBe(DOCUMENTS);
  });
});
