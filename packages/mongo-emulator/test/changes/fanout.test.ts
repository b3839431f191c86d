// Proves many streams at once each get every event, in commit order: 100 streams on 100 driver
// connections while 300 writes run concurrently from 10 more; and that $currentOp lists the
// open change-stream cursors so a test can count them.
import { describe, expect, it } from 'vitest';
import type { ChangeStream, Document, MongoClient } from 'mongodb';
import { useEmulator } from '../driver/emulatorFixture.ts';

/** Test documents have numeric ids. */
type Doc = { _id: number; [field: string]: unknown };
const fixture = useEmulator();
const STREAMS = 100;
/**
 * Writes, 30 from each writer, interleaved: enough that writes pile up between a stream's getMores,
 * so streams read batches of many events (a cursor that drops the ninth event of a batch goes
 * red, tried). No bound of the change stream lies between 300 and the 1,000 this was (a batch
 * scans up to 10,000 entries), which cost 70,000 more events encoded and decoded.
 */
const WRITES = 300;
const WRITERS = 10;

const END_ID = -1;

/**
 * Reads a stream until the end marker, which the test writes after every other write: a stream
 * delivers in commit order, so once it shows the marker it has shown everything before it (or
 * missed it for good). No clock: the test's timeout bounds a stream that stalls.
 */
async function drainToEnd(stream: ChangeStream): Promise<Document[]> {
  const out: Document[] = [];
  for (;;) {
    const next: Document | null = await stream.tryNext();
    if (!next) continue;
    if (next.documentKey?._id === END_ID) return out;
    out.push(next);
  }
}

describe('fan-out', () => {
  it(`delivers every one of ${WRITES} concurrent writes to each of ${STREAMS} streams, in commit order`, {
    timeout: 60_000,
  }, async () => {
    const readers: MongoClient[] = await Promise.all(
      Array.from({ length: STREAMS }, () => fixture.newClient({ maxPoolSize: 1 })),
    );
    const streams = readers.map((c) => c.db('fanout').collection('c').watch([], { maxAwaitTimeMS: 100 }));
    await Promise.all(streams.map((s) => s.tryNext()));
    const writers = await Promise.all(Array.from({ length: WRITERS }, () => fixture.newClient()));
    const receiving = streams.map((s) => drainToEnd(s));
    await Promise.all(
      writers.map(async (w, k) => {
        for (let i = k; i < WRITES; i += WRITERS)
          await w.db('fanout').collection<Doc>('c').insertOne({ _id: i, writer: k });
      }),
    );
    await fixture.client.db('fanout').collection<Doc>('c').insertOne({ _id: END_ID });
    const received = await Promise.all(receiving);
    const commitOrder = (
      await fixture.client
        .db('fanout')
        .collection<Doc>('c')
        .find({ _id: { $ne: END_ID } })
        .toArray()
    ).map((d) => d._id);
    for (const events of received) {
      expect(events.map((e) => e.documentKey._id)).toEqual(commitOrder);
    }
    expect(commitOrder).toHaveLength(WRITES);
    await Promise.all(streams.map((s) => s.close()));
  });

  it('lists open change-stream cursors in $currentOp (idleCursors: true), active or idle, and drops closed ones', async () => {
    const count = async () => {
      const ops = await fixture.client
        .db('admin')
        .aggregate([
          { $currentOp: { idleCursors: true } },
          {
            $match: {
              'cursor.tailable': true,
              'cursor.originatingCommand.pipeline.0.$changeStream': { $exists: true },
            },
          },
        ])
        .toArray();
      return ops.length;
    };
    const before = await count();
    const client = await fixture.newClient();
    // op0's getMore waits (up to a minute) until the test writes to op0, so it can be seen waiting.
    const streams = Array.from({ length: 3 }, (_, i) =>
      client
        .db('fanout')
        .collection(`op${i}`)
        .watch([], { maxAwaitTimeMS: i === 0 ? 60_000 : 500 }),
    );
    const waiting = streams[0]!.tryNext();
    await Promise.all(streams.slice(1).map((s) => s.tryNext()));
    const waitingGetMores = async () => {
      const { inprog } = await fixture.client.db('admin').command({ currentOp: 1, op: 'getmore' });
      return inprog as Document[];
    };
    await expect.poll(waitingGetMores, { timeout: 10_000 }).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'op',
          op: 'getmore',
          ns: 'fanout.op0',
          cursor: expect.objectContaining({ tailable: true, awaitData: true }),
        }),
      ]),
    );
    expect(await count()).toBe(before + 3);
    await client.db('fanout').collection<Doc>('op0').insertOne({ _id: 1 });
    expect(await waiting).toMatchObject({ operationType: 'insert', documentKey: { _id: 1 } });
    await Promise.all(streams.map((s) => s.close()));
    expect(await count()).toBe(before);
  });
});
