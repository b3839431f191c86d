// Proves many streams at once each get every event, in commit order: 100 streams on 100 driver
// connections while 1,000 writes run concurrently from 10 more; and that $currentOp lists the
// open change-stream cursors so a test can count them.
import { describe, expect, it } from 'vitest';
import type { ChangeStream, Document, MongoClient } from 'mongodb';
import { useEmulator } from '../driver/emulatorFixture.ts';

/** Test documents have numeric ids. */
type Doc = { _id: number; [field: string]: unknown };
const fixture = useEmulator();
const STREAMS = 100;
const WRITES = 1000;
const WRITERS = 10;

async function drain(stream: ChangeStream, n: number, timeoutMs: number): Promise<Document[]> {
  const out: Document[] = [];
  const deadlineMs = Date.now() + timeoutMs;
  while (out.length < n && Date.now() < deadlineMs) {
    const next = await stream.tryNext();
    if (next) out.push(next);
  }
  return out;
}

describe('fan-out', () => {
  it(`delivers every one of ${WRITES} concurrent writes to each of ${STREAMS} streams, in commit order`, { timeout: 60_000 }, async () => {
    const readers: MongoClient[] = await Promise.all(Array.from({ length: STREAMS }, () => fixture.newClient({ maxPoolSize: 1 })));
    const streams = readers.map((c) => c.db('fanout').collection('c').watch([], { maxAwaitTimeMS: 100 }));
    await Promise.all(streams.map((s) => s.tryNext()));
    const writers = await Promise.all(Array.from({ length: WRITERS }, () => fixture.newClient()));
    const receiving = streams.map((s) => drain(s, WRITES, 45_000));
    await Promise.all(writers.map(async (w, k) => {
      for (let i = k; i < WRITES; i += WRITERS) await w.db('fanout').collection<Doc>('c').insertOne({ _id: i, writer: k });
    }));
    const received = await Promise.all(receiving);
    const commitOrder = (await fixture.client.db('fanout').collection('c').find().toArray()).map((d) => d._id);
    for (const events of received) {
      expect(events.map((e) => e.documentKey._id)).toEqual(commitOrder);
    }
    expect(commitOrder).toHaveLength(WRITES);
    await Promise.all(streams.map((s) => s.close()));
  });

  it('lists open change-stream cursors in $currentOp (idleCursors: true), active or idle, and drops closed ones', async () => {
    const count = async () => {
      const ops = await fixture.client.db('admin').aggregate([
        { $currentOp: { idleCursors: true } },
        { $match: { 'cursor.tailable': true, 'cursor.originatingCommand.pipeline.0.$changeStream': { $exists: true } } },
      ]).toArray();
      return ops.length;
    };
    const before = await count();
    const client = await fixture.newClient();
    const streams = Array.from({ length: 3 }, (_, i) => client.db('fanout').collection(`op${i}`).watch([], { maxAwaitTimeMS: 500 }));
    await Promise.all(streams.map((s) => s.tryNext()));
    expect(await count()).toBe(before + 3);
    const waiting = streams[0]!.tryNext(); // a getMore now waits for data: listed as an operation
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { inprog } = await fixture.client.db('admin').command({ currentOp: 1, op: 'getmore' });
    expect(inprog).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'op', op: 'getmore', ns: 'fanout.op0', cursor: expect.objectContaining({ tailable: true, awaitData: true }) })]));
    await waiting;
    await Promise.all(streams.map((s) => s.close()));
    expect(await count()).toBe(before);
  });
});
