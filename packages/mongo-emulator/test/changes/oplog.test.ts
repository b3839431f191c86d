// Proves local.oplog.rs reads as on mongod 7.0 through the driver: entries in mongod's format
// (op, ns, ui, o, o2, ts, t, v, wall; session fields of retryable writes; a transaction as one
// applyOps), each update operator's $v: 2 delta by mongod's rule, the updateDescription read
// from that delta, the oplog bounded in bytes (286 once a resume point leaves it, sooner for
// writes that log whole arrays), and the figures db.getReplicationInfo() computes the window
// from. The Oplog class's own rules (positions, waiting, tokens) come first, without a server.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BSON, Binary, Long, MongoClient, Timestamp, type ChangeStream, type Document } from 'mongodb';
import { Oplog } from '../../src/changes/Oplog.ts';
import { decodeToken, encodeToken, highWaterMark } from '../../src/changes/resumeToken.ts';
import { startEmulator, type RunningEmulator } from '../../src/index.ts';

const at = (t: number, i: number) => ({ ts: new Timestamp({ t, i }), wallTime: new Date() });
const noop = (msg: string) => ({ op: 'noop' as const, msg });

describe('Oplog', () => {
  it('keeps the newest maxEntries and reports the window', () => {
    const oplog = new Oplog(3);
    for (let i = 1; i <= 5; i++) {
      oplog.append(noop(`n${i}`), at(100, i));
      oplog.log([{ op: 'n', o: { msg: `n${i}` } }]);
    }
    expect([oplog.firstSeq, oplog.nextSeq]).toEqual([2, 5]);
    expect(oplog.get(1)).toBeUndefined();
    expect(oplog.window()).toMatchObject({ entries: 3, maxEntries: 3, earliest: { seq: 2 }, latest: { seq: 4 } });
    expect(oplog.seqAtOrAfter((100n << 32n) | 4n)).toBe(3);
    expect(oplog.seqAtOrAfter((101n << 32n) | 0n)).toBe(5);
  });

  it('drops the oldest entries by BSON size once over its bytes, keeping the newest', () => {
    const entry = (n: number) => ({ o: { pad: 'x'.repeat(n) } });
    const oplog = new Oplog(1000, 300);
    for (let i = 1; i <= 3; i++) {
      oplog.append(noop(`n${i}`), at(100, i));
      oplog.log([entry(100)]);
    }
    expect(oplog.bytes).toBe(2 * BSON.calculateObjectSize(entry(100)));
    expect([oplog.firstSeq, oplog.entries]).toEqual([1, 2]);
    oplog.append(noop('big'), at(100, 4));
    oplog.log([entry(1000)]);
    expect([oplog.firstSeq, oplog.entries, oplog.bytes]).toEqual([3, 1, BSON.calculateObjectSize(entry(1000))]);
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
    const event = {
      clusterTime: new Timestamp({ t: 7, i: 2 }),
      tokenType: 'event' as const,
      txnOpIndex: 1,
      fromInvalidate: false,
      eventDigest: '0123456789ABCDEF',
    };
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

let emulator: RunningEmulator;
let client: MongoClient;
/** Writes without retryWrites carry no session fields in the oplog. */
let plainClient: MongoClient;
/** The fields test documents use. */
interface Doc {
  _id: number;
  a?: number;
  b?: number;
  m?: number;
  n?: number;
  list?: number[];
  arr?: { k: number }[];
  big?: string;
  keep?: string;
  pad?: string;
  created?: boolean;
  nested?: Document;
  deep?: Document;
  obj?: Document;
}
const coll = () => client.db('oplogdb').collection<Doc>('c');
const plainColl = () => plainClient.db('oplogdb').collection<Doc>('c');
const oplogColl = () => client.db('local').collection('oplog.rs');

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = await new MongoClient(emulator.uri, { promoteLongs: false }).connect();
  plainClient = await new MongoClient(emulator.uri, { promoteLongs: false, retryWrites: false }).connect();
});

afterAll(async () => {
  await plainClient?.close();
  await client?.close();
  await emulator?.stop();
});

/** The newest oplog entry's ts: entries written after it are those with a greater ts. */
async function lastTs(): Promise<Timestamp> {
  const [last] = await oplogColl()
    .find({}, { sort: { $natural: -1 }, limit: 1, projection: { ts: 1 } })
    .toArray();
  return last!.ts as Timestamp;
}

/** Runs `write` and answers the oplog entries it wrote, with their summed BSON bytes. */
async function logged(write: () => Promise<unknown>): Promise<{ entries: Document[]; bytes: number }> {
  const before = await lastTs();
  await write();
  const entries = await oplogColl()
    .find({ ts: { $gt: before } })
    .toArray();
  return { entries, bytes: entries.reduce((sum, e) => sum + BSON.calculateObjectSize(e), 0) };
}

/** The `diff` of the single update entry `write` logs. */
async function diffOf(write: () => Promise<unknown>): Promise<Document> {
  const { entries } = await logged(write);
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ op: 'u', o: { $v: 2 } });
  return entries[0]!.o.diff as Document;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('local.oplog.rs through the driver', () => {
  it('logs an insert, an update and a delete in mongod 7.0’s format and field order', async () => {
    await coll().insertOne({ _id: 0, a: 1 });
    const { entries } = await logged(async () => {
      await plainColl().insertOne({ _id: 1, a: 1 });
      await plainColl().updateOne({ _id: 1 }, { $set: { a: 2 } });
      await plainColl().deleteOne({ _id: 1 });
    });
    const [insert, update, del] = entries;
    expect(Object.keys(insert!)).toEqual(['op', 'ns', 'ui', 'o', 'o2', 'ts', 't', 'v', 'wall']);
    expect(insert).toMatchObject({
      op: 'i',
      ns: 'oplogdb.c',
      o: { _id: 1, a: 1 },
      o2: { _id: 1 },
      t: Long.fromNumber(1),
      v: Long.fromNumber(2),
    });
    expect(insert!.ui).toBeInstanceOf(Binary);
    expect((insert!.ui as Binary).sub_type).toBe(4);
    expect(insert!.wall).toBeInstanceOf(Date);
    expect(update).toMatchObject({ op: 'u', o: { $v: 2, diff: { u: { a: 2 } } }, o2: { _id: 1 } });
    expect(del).toMatchObject({ op: 'd', ns: 'oplogdb.c', o: { _id: 1 } });
    const times = entries.map((e) => (e.ts as Timestamp).toBigInt());
    expect([...times].sort((x, y) => (x < y ? -1 : 1))).toEqual(times);
  });

  it('reads in natural order, reversed with $natural: -1, with a filter, a projection and a limit', async () => {
    const forward = await oplogColl().find({}).toArray();
    const backward = await oplogColl()
      .find({}, { sort: { $natural: -1 } })
      .toArray();
    expect(backward.map((e) => e.ts)).toEqual([...forward].reverse().map((e) => e.ts));
    expect(forward[0]).toMatchObject({ op: 'n', ns: '', o: { msg: 'initiating set' } });
    const inserts = await oplogColl()
      .find({ op: 'i', ns: 'oplogdb.c' }, { projection: { _id: 0, o: 1 }, limit: 1 })
      .toArray();
    expect(inserts).toEqual([{ o: { _id: 0, a: 1 } }]);
  });

  it('carries lsid, txnNumber, stmtId and prevOpTime on retryable writes, chained per statement', async () => {
    const { entries } = await logged(() => coll().insertMany([{ _id: 10 }, { _id: 11 }]));
    expect(entries).toHaveLength(2);
    const [first, second] = entries;
    expect(Object.keys(first!)).toEqual([
      'lsid',
      'txnNumber',
      'op',
      'ns',
      'ui',
      'o',
      'o2',
      'stmtId',
      'ts',
      't',
      'v',
      'wall',
      'prevOpTime',
    ]);
    expect(first).toMatchObject({
      op: 'i',
      stmtId: 0,
      prevOpTime: { ts: new Timestamp({ t: 0, i: 0 }), t: Long.fromNumber(-1) },
    });
    expect(second).toMatchObject({
      stmtId: 1,
      txnNumber: first!.txnNumber,
      lsid: first!.lsid,
      prevOpTime: { ts: first!.ts, t: Long.fromNumber(1) },
    });
  });

  it('logs a committed transaction as one applyOps command entry', async () => {
    const session = client.startSession();
    try {
      const { entries, bytes } = await logged(() =>
        session.withTransaction(async () => {
          await coll().insertOne({ _id: 20, n: 1 }, { session });
          await coll().updateOne({ _id: 0 }, { $inc: { a: 1 } }, { session });
        }),
      );
      expect(entries).toHaveLength(1);
      const [entry] = entries;
      expect(Object.keys(entry!)).toEqual(['lsid', 'txnNumber', 'op', 'ns', 'o', 'ts', 't', 'v', 'wall', 'prevOpTime']);
      expect(entry).toMatchObject({
        op: 'c',
        ns: 'admin.$cmd',
        o: {
          applyOps: [
            { op: 'i', ns: 'oplogdb.c', o: { _id: 20, n: 1 }, o2: { _id: 20 } },
            { op: 'u', ns: 'oplogdb.c', o: { $v: 2, diff: { u: { a: 2 } } }, o2: { _id: 0 } },
          ],
        },
      });
      expect(bytes).toBe(BSON.calculateObjectSize(entry!));
    } finally {
      await session.endSession();
    }
  });

  it('$set and $inc log the fields they change only, nested as sub-diffs (modifier_node.cpp)', async () => {
    await coll().insertOne({
      _id: 30,
      n: 1,
      big: 'x'.repeat(1000),
      nested: { a: 1, b: 'y'.repeat(500) },
      arr: [{ k: 1 }, { k: 2 }],
    });
    expect(await diffOf(() => coll().updateOne({ _id: 30 }, { $inc: { n: 1 } }))).toEqual({ u: { n: 2 } });
    expect(await diffOf(() => coll().updateOne({ _id: 30 }, { $set: { 'nested.a': 5, created: true } }))).toEqual({
      i: { created: true },
      snested: { u: { a: 5 } },
    });
    expect(await diffOf(() => coll().updateOne({ _id: 30 }, { $set: { 'arr.1.k': 9, 'deep.x.y': 1 } }))).toEqual({
      i: { deep: { x: { y: 1 } } },
      sarr: { a: true, s1: { u: { k: 9 } } },
    });
    expect(await diffOf(() => coll().updateOne({ _id: 30 }, { $unset: { created: '' } }))).toEqual({
      d: { created: false },
    });
  });

  it('$push that only appends logs one u<index> per element; with $slice, $sort or $position the whole array (push_node.cpp)', async () => {
    await coll().insertOne({ _id: 40, list: [1, 2, 3] });
    expect(await diffOf(() => coll().updateOne({ _id: 40 }, { $push: { list: { $each: [4, 5] } } }))).toEqual({
      slist: { a: true, u3: 4, u4: 5 },
    });
    expect(await diffOf(() => coll().updateOne({ _id: 40 }, { $push: { list: { $each: [6], $slice: -3 } } }))).toEqual({
      u: { list: [4, 5, 6] },
    });
    expect(await diffOf(() => coll().updateOne({ _id: 40 }, { $push: { list: { $each: [0], $sort: 1 } } }))).toEqual({
      u: { list: [0, 4, 5, 6] },
    });
    expect(
      await diffOf(() => coll().updateOne({ _id: 40 }, { $push: { list: { $each: [9], $position: 0 } } })),
    ).toEqual({ u: { list: [9, 0, 4, 5, 6] } });
    // A $slice that removes nothing is still an append.
    expect(await diffOf(() => coll().updateOne({ _id: 40 }, { $push: { list: { $each: [7], $slice: 100 } } }))).toEqual(
      { slist: { a: true, u5: 7 } },
    );
  });

  it('$pull, $pullAll, $pop and an $addToSet that adds log the whole array (array_culling_node.cpp, pop_node.cpp, addtoset_node.cpp)', async () => {
    await coll().insertOne({ _id: 50, list: [1, 2, 3, 4, 5] });
    expect(await diffOf(() => coll().updateOne({ _id: 50 }, { $pull: { list: 1 } }))).toEqual({
      u: { list: [2, 3, 4, 5] },
    });
    expect(await diffOf(() => coll().updateOne({ _id: 50 }, { $pullAll: { list: [2] } }))).toEqual({
      u: { list: [3, 4, 5] },
    });
    expect(await diffOf(() => coll().updateOne({ _id: 50 }, { $pop: { list: 1 } }))).toEqual({ u: { list: [3, 4] } });
    expect(await diffOf(() => coll().updateOne({ _id: 50 }, { $addToSet: { list: 9 } }))).toEqual({
      u: { list: [3, 4, 9] },
    });
    const unchanged = await logged(() => coll().updateOne({ _id: 50 }, { $addToSet: { list: 9 } }));
    expect(unchanged.entries).toEqual([]);
  });

  it('logs a replacement as the whole document, without $v', async () => {
    await coll().insertOne({ _id: 60, a: 1 });
    const { entries } = await logged(() => coll().replaceOne({ _id: 60 }, { b: 2 }));
    expect(entries).toMatchObject([{ op: 'u', o: { _id: 60, b: 2 }, o2: { _id: 60 } }]);
  });

  it('logs a view as a document of <db>.system.views: its creation an insert, its drop a delete (durable_view_catalog.cpp)', async () => {
    const db = client.db('oplogdb');
    const created = await logged(() =>
      db.createCollection('v_view', { viewOn: 'c', pipeline: [{ $match: { a: 1 } }] }),
    );
    expect(created.entries).toMatchObject([
      {
        op: 'i',
        ns: 'oplogdb.system.views',
        o: { _id: 'oplogdb.v_view', viewOn: 'c', pipeline: [{ $match: { a: 1 } }] },
        o2: { _id: 'oplogdb.v_view' },
      },
    ]);
    expect(created.entries[0]).not.toHaveProperty('ui');
    const dropped = await logged(() => db.dropCollection('v_view'));
    expect(dropped.entries).toMatchObject([{ op: 'd', ns: 'oplogdb.system.views', o: { _id: 'oplogdb.v_view' } }]);
  });

  it('diffs pipeline updates (document_diff_calculator.cpp), and logs them whole when the diff is not smaller', async () => {
    await coll().insertOne({ _id: 70, keep: 'k'.repeat(200), list: range(10), n: 1 });
    expect(
      await diffOf(() =>
        coll().updateOne({ _id: 70 }, [{ $set: { n: { $add: ['$n', 1] }, list: { $slice: ['$list', 4] } } }]),
      ),
    ).toEqual({
      u: { n: 2 },
      slist: { a: true, l: 4 },
    });
    await coll().insertOne({ _id: 71, n: 1 });
    const small = await logged(() => coll().updateOne({ _id: 71 }, [{ $set: { n: 2, m: 3 } }]));
    expect(small.entries).toMatchObject([{ op: 'u', o: { _id: 71, n: 2, m: 3 } }]);
  });

  it('answers collStats, $collStats and replSetGetStatus from the oplog, as db.getReplicationInfo() reads them', async () => {
    // Entries of its own, so the window has two ends whichever tests ran before.
    await coll().insertMany([{ _id: 'window-1' as never }, { _id: 'window-2' as never }]);
    const stats = await client.db('local').command({ collStats: 'oplog.rs' });
    const entries = await oplogColl().find({}).toArray();
    expect(stats).toMatchObject({
      ns: 'local.oplog.rs',
      capped: true,
      count: entries.length,
      maxSize: 990 * 1024 * 1024,
    });
    expect(stats.size).toBe(entries.reduce((sum, e) => sum + BSON.calculateObjectSize(e), 0));
    const [agg] = await oplogColl()
      .aggregate([{ $collStats: { storageStats: {} } }])
      .toArray();
    expect(agg!.storageStats).toMatchObject({ size: stats.size, count: stats.count, maxSize: stats.maxSize });
    const [first] = await oplogColl()
      .find({}, { sort: { $natural: 1 }, limit: 1 })
      .toArray();
    const [last] = await oplogColl()
      .find({}, { sort: { $natural: -1 }, limit: 1 })
      .toArray();
    // getReplicationInfo's window runs from the oldest entry kept to the newest: $natural order
    // on the oplog must be time order, both ways.
    const byTime = entries.map((e) => e.ts as Timestamp).sort((a, b) => a.compare(b));
    expect(byTime.length).toBeGreaterThan(1);
    expect(byTime[0]!.compare(byTime.at(-1)!)).toBeLessThan(0);
    expect(first!.ts).toEqual(byTime[0]);
    expect(last!.ts).toEqual(byTime.at(-1));
    const status = await client.db('admin').command({ replSetGetStatus: 1 });
    expect(status.optimes.appliedOpTime.ts).toEqual(last!.ts);
    const names = (await client.db('local').listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).toContain('oplog.rs');
  });
});

describe('updateDescription read from the $v: 2 delta (change_stream_document_diff_parser.cpp)', () => {
  async function nextEvent(stream: ChangeStream): Promise<Document> {
    const deadlineMs = Date.now() + 5000;
    while (Date.now() < deadlineMs) {
      const next = await stream.tryNext();
      if (next) return next;
    }
    throw new Error('no event arrived');
  }

  it('reports appended elements by index, whole arrays, truncations and disambiguatedPaths', async () => {
    await coll().insertOne({ _id: 80, list: range(8), pad: 'p'.repeat(200), obj: { '1': { 'a.b': 1 } } });
    const stream = coll().watch([{ $match: { 'documentKey._id': 80 } }], {
      maxAwaitTimeMS: 50,
      showExpandedEvents: true,
    });
    await stream.tryNext();
    await coll().updateOne({ _id: 80 }, { $push: { list: 8 } });
    await coll().updateOne({ _id: 80 }, { $pop: { list: 1 } });
    await coll().updateOne({ _id: 80 }, [{ $set: { list: { $slice: ['$list', 2] } } }]);
    await coll().updateOne({ _id: 80 }, { $set: { 'obj.1': { 'a.b': 2 } } });
    const [push, pop, slice, ambiguous] = [
      await nextEvent(stream),
      await nextEvent(stream),
      await nextEvent(stream),
      await nextEvent(stream),
    ];
    expect(push.updateDescription).toEqual({
      updatedFields: { 'list.8': 8 },
      removedFields: [],
      truncatedArrays: [],
      disambiguatedPaths: {},
    });
    expect(pop.updateDescription).toMatchObject({ updatedFields: { list: range(8) }, truncatedArrays: [] });
    expect(slice.updateDescription).toMatchObject({
      updatedFields: {},
      truncatedArrays: [{ field: 'list', newSize: 2 }],
    });
    expect(ambiguous.updateDescription).toEqual({
      updatedFields: { 'obj.1': { 'a.b': 2 } },
      removedFields: [],
      truncatedArrays: [],
      disambiguatedPaths: { 'obj.1': ['obj', '1'] },
    });
    await stream.close();
  });

  it('reports no disambiguatedPaths to a stream without showExpandedEvents', async () => {
    await coll().insertOne({ _id: 81, n: 1 });
    const stream = coll().watch([{ $match: { 'documentKey._id': 81 } }], { maxAwaitTimeMS: 50 });
    await stream.tryNext();
    await coll().updateOne({ _id: 81 }, { $inc: { n: 1 } });
    expect((await nextEvent(stream)).updateDescription).toEqual({
      updatedFields: { n: 2 },
      removedFields: [],
      truncatedArrays: [],
    });
    await stream.close();
  });
});

describe('the oplog bounded in bytes (--oplogSizeMB)', () => {
  const OPLOG_SIZE_MB = 0.25;
  let small: RunningEmulator;
  let smallClient: MongoClient;

  beforeAll(async () => {
    small = await startEmulator({ port: 0, oplogSizeMB: OPLOG_SIZE_MB });
    smallClient = await new MongoClient(small.uri).connect();
  });

  afterAll(async () => {
    await smallClient?.close();
    await small?.stop();
  });

  /**
   * Writes until the first write's event leaves the oplog (its oldest entry is newer), checks that
   * resuming after that event then fails with 286, and answers how many writes it took.
   */
  async function writesUntilHistoryLost(
    name: string,
    write: (c: ReturnType<typeof collection>, i: number) => Promise<unknown>,
  ): Promise<number> {
    const c = collection(name);
    await c.insertOne({ _id: 1, list: range(1000), n: 0 });
    const stream = c.watch([], { maxAwaitTimeMS: 50 });
    await stream.tryNext();
    await write(c, 0);
    let event: Document | null = null;
    while (!event) event = await stream.tryNext();
    await stream.close();
    const local = smallClient.db('local').collection('oplog.rs');
    for (let i = 1; i < 10_000; i++) {
      await write(c, i);
      const [oldest] = await local.find({}, { sort: { $natural: 1 }, limit: 1, projection: { ts: 1 } }).toArray();
      if ((oldest!.ts as Timestamp).toBigInt() <= (event.clusterTime as Timestamp).toBigInt()) continue;
      const resumed = c.watch([], { resumeAfter: event._id, maxAwaitTimeMS: 10 });
      const error = await resumed.tryNext().then(
        () => undefined,
        (e: unknown) => e as { code?: number },
      );
      await resumed.close();
      expect(error?.code).toBe(286);
      return i;
    }
    throw new Error('history was never lost');
  }

  function collection(name: string) {
    return smallClient.db('window').collection<Doc>(name);
  }

  it('loses history after fewer writes when each rewrites a 1,000-element array than when each appends', async () => {
    const rewrites = await writesUntilHistoryLost('rewrite', (c, i) =>
      c.updateOne({ _id: 1 }, { $push: { list: { $each: [i], $slice: -1000 } } }),
    );
    const appends = await writesUntilHistoryLost('append', (c, i) => c.updateOne({ _id: 1 }, { $push: { list: i } }));
    expect(rewrites).toBeLessThan(appends / 10);
    const stats = await smallClient.db('local').command({ collStats: 'oplog.rs' });
    expect(stats.size).toBeLessThanOrEqual(stats.maxSize);
    expect(stats.maxSize).toBe(OPLOG_SIZE_MB * 1024 * 1024);
  });
});
