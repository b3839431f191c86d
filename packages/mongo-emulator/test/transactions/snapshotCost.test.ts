// A transaction's snapshot costs what changed since its time, never the collection's size:
// mongod's snapshots are per document (WiredTiger MVCC), so the ledger's growing collections must
// not make each money move slower. Counted in record writes, not timed.
import { beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/engine/catalog.ts';
import type { Collection } from '../../src/engine/collection.ts';
import type { ChangeRecord, Document } from '../../src/engine/types.ts';
import { ClusterClock } from '../../src/session/ClusterClock.ts';
import { SnapshotCatalog } from '../../src/txn/SnapshotCatalog.ts';
import { WriteHistory } from '../../src/txn/WriteHistory.ts';
import { errorOf } from '../engine/helpers.ts';

const DOCUMENTS = 50_000;

const clock = new ClusterClock();
const live = new Catalog({ clock: () => ({ now: new Date(), clusterTime: clock.now() }), freezeDocuments: true });
const history = new WriteHistory();
// As the server wires them: the clock ticks on every write, then history records it at that time.
live.observe(() => clock.tick());
live.observe((change) => history.record(clock.now(), change, []));

let big: Collection;
let snapshot: SnapshotCatalog;
let copy: Collection;
const staged: ChangeRecord[] = [];

beforeAll(() => {
  big = live.getOrCreateCollection('db', 'big');
  big.createIndexes([{ key: { n: 1 }, name: 'n_1', unique: true }]);
  for (let i = 0; i < DOCUMENTS; i++) big.insertOne({ _id: i, n: i });
  const time = clock.now();
  // Committed after the snapshot's time: the snapshot must undo exactly these three.
  big.update({ q: { _id: 7 }, u: { $set: { n: 100_007 } } });
  big.delete({ q: { _id: 8 }, limit: 1 });
  big.insertOne({ _id: DOCUMENTS, n: 8 });
  snapshot = new SnapshotCatalog(live, history, time, (change) => staged.push(change));
  copy = snapshot.getCollection('db', 'big')!;
});

const ids = (docs: Document[]) => docs.map((d) => d._id);

describe('a snapshot of a large collection', () => {
  it('writes only the records it undoes, not the collection', () => {
    expect(copy.recordsWritten).toBe(3);
  });

  it('reads the collection as of its time, through the indexes too', () => {
    expect(copy.find({ _id: 7 })).toEqual([{ _id: 7, n: 7 }]);
    expect(copy.find({ n: 7 })).toEqual([{ _id: 7, n: 7 }]);
    expect(copy.lastIndexUsed).toBe('n_1');
    expect(copy.find({ n: 100_007 })).toEqual([]);
    expect(copy.find({ n: 8 })).toEqual([{ _id: 8, n: 8 }]);
    expect(copy.find({ _id: DOCUMENTS })).toEqual([]);
    expect(copy.count({})).toBe(DOCUMENTS);
  });

  it('keeps natural order, a document it brings back coming last as a re-insert would', () => {
    const order = ids(copy.find({}));
    expect(order.slice(0, 3)).toEqual([0, 1, 2]);
    expect(order.at(-2)).toBe(DOCUMENTS - 1);
    expect(order.at(-1)).toBe(8);
  });

  it('keeps its own writes from the live collection, and the live writes from it', () => {
    copy.findAndModify({ query: { _id: 1 }, update: { $inc: { n: 1_000_000 } } });
    copy.insertOne({ _id: 'new', n: -1 });
    // The unique index is as of the snapshot too: n 100,007 is free there, n 8 is taken again.
    copy.insertOne({ _id: 'moved', n: 100_007 });
    expect(errorOf(() => copy.insertOne({ _id: 'dup', n: 8 })).codeName).toBe('DuplicateKey');
    expect(staged.map((c) => c.op)).toEqual(['update', 'insert', 'insert']);
    expect(copy.recordsWritten).toBe(6);
    expect(big.find({ _id: 1 })).toEqual([{ _id: 1, n: 1 }]);
    expect(big.find({ n: -1 })).toEqual([]);
    expect(big.find({ n: 100_007 })).toEqual([{ _id: 7, n: 100_007 }]);

    big.update({ q: { _id: 2 }, u: { $set: { n: 200_002 } } });
    expect(copy.find({ _id: 2 })).toEqual([{ _id: 2, n: 2 }]);
    expect(copy.find({ n: 200_002 })).toEqual([]);
    expect(copy.find({ n: 1_000_001 })).toEqual([{ _id: 1, n: 1_000_001 }]);
    expect(big.find({ n: 1_000_001 })).toEqual([]);
    // Each side's unique index holds only its own keys.
    big.insertOne({ _id: 'live', n: -1 });
    expect(copy.find({ _id: 'live' })).toEqual([]);
  });
});
