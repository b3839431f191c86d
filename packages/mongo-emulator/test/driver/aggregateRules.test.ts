// Proves the rules mongod 7.0 checks on an aggregate before running it: which stages run with
// `aggregate: 1` on a database and which need a collection (pipeline.cpp's
// validateTopLevelPipeline), and the read concern and transaction rules of $out and $merge
// (document_source_out.cpp / document_source_merge.cpp), with mongod's codes and messages.
import type { Document, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const db = () => fixture.client.db('aggRules');

async function refusal(run: () => Promise<unknown>): Promise<Pick<MongoServerError, 'code' | 'codeName' | 'message'>> {
  try {
    await run();
  } catch (error) {
    const { code, codeName, message } = error as MongoServerError;
    return { code, codeName, message };
  }
  throw new Error('expected the command to fail');
}

const aggregate1 = (pipeline: Document[], database = db()) => database.command({ aggregate: 1, pipeline, cursor: {} });

describe('aggregate: 1 on a database', () => {
  it('runs the stages that read no collection: $documents, $listLocalSessions, $currentOp on admin, $changeStream', async () => {
    const documents = await aggregate1([{ $documents: [{ x: 1 }, { x: 2 }] }, { $match: { x: 2 } }]);
    expect(documents.cursor.firstBatch).toEqual([{ x: 2 }]);
    expect(documents.cursor.ns).toBe('aggRules.$cmd.aggregate');
    await db().collection('c').insertOne({ a: 1 });
    expect((await aggregate1([{ $listLocalSessions: {} }])).ok).toBe(1);
    expect((await aggregate1([{ $currentOp: {} }], fixture.client.db('admin'))).ok).toBe(1);
    const stream = await aggregate1([{ $changeStream: {} }]);
    expect(stream.cursor.ns).toBe('aggRules.$cmd.aggregate');
    // The driver closes such a cursor with killCursors on '$cmd.aggregate'.
    const killed = await db().command({ killCursors: '$cmd.aggregate', cursors: [stream.cursor.id] });
    expect(killed.cursorsKilled).toEqual([stream.cursor.id]);
  });

  it('keeps a cursor of aggregate: 1 open across batches and lets the driver close it', async () => {
    const cursor = db().aggregate([{ $documents: [{ x: 1 }, { x: 2 }, { x: 3 }] }], { batchSize: 1 });
    expect(await cursor.next()).toEqual({ x: 1 });
    const id = cursor.id!;
    await cursor.close();
    // Closed on the server: the cursor is gone, not merely forgotten by the driver.
    expect(await refusal(() => db().command({ getMore: id, collection: '$cmd.aggregate' }))).toMatchObject({
      code: 43,
      codeName: 'CursorNotFound',
    });
  });

  it('refuses an empty pipeline and a first stage that needs a collection', async () => {
    expect(await refusal(() => aggregate1([]))).toEqual({
      code: 73,
      codeName: 'InvalidNamespace',
      message: '{aggregate: 1} is not valid for an empty pipeline.',
    });
    expect(await refusal(() => aggregate1([{ $match: {} }]))).toEqual({
      code: 73,
      codeName: 'InvalidNamespace',
      message: "{aggregate: 1} is not valid for '$match'; a collection is required.",
    });
    expect((await refusal(() => aggregate1([{ $group: { _id: null } }]))).message).toBe(
      "{aggregate: 1} is not valid for '$group'; a collection is required.",
    );
  });

  it('refuses the stages that read no collection on a collection', async () => {
    expect(
      await refusal(() =>
        db()
          .collection('c')
          .aggregate([{ $documents: [{ x: 1 }] }])
          .toArray(),
      ),
    ).toEqual({
      code: 73,
      codeName: 'InvalidNamespace',
      message: "'$documents' can only be run with {aggregate: 1}",
    });
    expect(
      await refusal(() =>
        db()
          .collection('c')
          .aggregate([{ $currentOp: {} }])
          .toArray(),
      ),
    ).toEqual({
      code: 73,
      codeName: 'InvalidNamespace',
      message: "$currentOp must be run against the 'admin' database with {aggregate: 1}",
    });
    expect((await refusal(() => aggregate1([{ $currentOp: {} }]))).message).toBe(
      "$currentOp must be run against the 'admin' database with {aggregate: 1}",
    );
  });

  it('still lets $documents feed a $lookup or $unionWith on a collection', async () => {
    const joined = await db()
      .collection('c')
      .aggregate([{ $project: { _id: 0, a: 1 } }, { $lookup: { as: 'l', pipeline: [{ $documents: [{ y: 1 }] }] } }])
      .toArray();
    expect(joined).toEqual([{ a: 1, l: [{ y: 1 }] }]);
  });
});

describe('$out and $merge', () => {
  it("refuse a 'linearizable' read concern with InvalidOptions, and write nothing", async () => {
    await db().collection<{ _id: number }>('src').insertOne({ _id: 1 });
    for (const stage of [{ $out: 'outTarget' }, { $merge: { into: 'mergeTarget' } }]) {
      const name = Object.keys(stage)[0];
      expect(
        await refusal(() =>
          db().command({ aggregate: 'src', pipeline: [stage], cursor: {}, readConcern: { level: 'linearizable' } }),
        ),
      ).toEqual({
        code: 72,
        codeName: 'InvalidOptions',
        message: `${name} cannot be used with a 'linearizable' read concern level`,
      });
    }
    const names = (await db().listCollections().toArray()).map((c) => c.name);
    expect(names).not.toContain('outTarget');
    expect(names).not.toContain('mergeTarget');
  });

  it("run under 'majority' and 'local'", async () => {
    for (const level of ['majority', 'local']) {
      await db().command({
        aggregate: 'src',
        pipeline: [{ $merge: { into: `merged_${level}` } }],
        cursor: {},
        readConcern: { level },
      });
      expect(await db().collection(`merged_${level}`).countDocuments()).toBe(1);
    }
  });

  it('are refused inside a transaction with OperationNotSupportedInTransaction, which aborts it', async () => {
    const session = fixture.client.startSession();
    try {
      session.startTransaction();
      await db().collection<{ _id: number }>('src').insertOne({ _id: 2 }, { session });
      const error = await refusal(() =>
        db()
          .collection('src')
          .aggregate([{ $out: 'inTxn' }], { session })
          .toArray(),
      );
      expect(error).toEqual({
        code: 263,
        codeName: 'OperationNotSupportedInTransaction',
        message: '$out cannot be used in a transaction',
      });
      await expect(session.commitTransaction()).rejects.toMatchObject({ codeName: 'NoSuchTransaction' });
    } finally {
      await session.endSession();
    }
    expect(await db().collection<{ _id: number }>('src').countDocuments({ _id: 2 })).toBe(0);
    expect((await db().listCollections({ name: 'inTxn' }).toArray()).length).toBe(0);
  });
});
