// Proves the one change-stream lifecycle (src/changeStreams/resumableStream.ts) against a real server
// over TCP: a cursor the server kills is resumed (by the driver when it can, by the helper from
// its last position when the driver gives up), nothing is missed or handed over twice, a change
// whose handler failed is handed over again, lost history is reported and the stream restarts
// from now, the stream keeps reopening while the engine is down and recovers when it returns, and
// stop() closes the cursor, cuts a backoff short and leaves nothing running. Each check reads the
// changes the handler saw (by a counter `n` in the inserted documents) and the stream's status.
import { startEmulator, type RunningEmulator } from '@precondition/mongo-emulator';
import { MongoClient, type Collection, type Document } from 'mongodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eventually } from '../support/waiting.ts';
import {
  reopenDelayMs,
  ResumableStream,
  StreamStart,
  type ReopenBackoff,
  type StreamFailure,
  type StreamHandler,
  type StreamOpened,
} from '../../src/changeStreams/resumableStream.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';
import { withFailCommand } from '../support/failPoints.ts';
import { changeStreamsOn } from '../fanout/support/streamsTest.ts';

const INSERTS: Document[] = [{ $match: { operationType: 'insert' } }];
const FAST: ReopenBackoff = { baseMs: 10, maxMs: 100 };
const WAIT = { timeout: 20_000, interval: 25 };

/** A stream on `collection` whose handler records what it is told; `onChange` may fail or block on purpose. */
function follow(
  collection: Collection<Document>,
  options: { backoff?: ReopenBackoff; awaitTimeMs?: number; onChange?: (n: number) => Promise<void> | void } = {},
) {
  const seen: number[] = [];
  const opened: StreamOpened[] = [];
  const failures: StreamFailure[] = [];
  let cursorsOpen = 0;
  const handler: StreamHandler = {
    opened: (event) => void opened.push(event),
    change: async (change) => {
      const n = (change['fullDocument'] as { n: number }).n;
      await options.onChange?.(n);
      seen.push(n);
    },
    failed: (failure) => void failures.push(failure),
  };
  const source = {
    collection,
    pipeline: INSERTS,
    awaitTimeMs: options.awaitTimeMs ?? 200,
    countOpen: (delta: 1 | -1) => void (cursorsOpen += delta),
  };
  const stream = new ResumableStream(source, handler, { backoff: options.backoff ?? FAST });
  return { stream, seen, opened, failures, cursorsOpen: () => cursorsOpen };
}

const insert = (collection: Collection<Document>, ...ns: number[]) => collection.insertMany(ns.map((n) => ({ n })));

async function seenExactly(seen: number[], expected: number[]): Promise<void> {
  await eventually(() => expect(seen).toEqual(expected), WAIT);
}

/** The change stream cursors the server holds on `collection`, with their ids and whether a getMore is waiting on them. */
async function cursorsOn(
  client: MongoClient,
  collection: Collection<Document>,
): Promise<Array<{ id: bigint; active: boolean }>> {
  const ops = await client
    .db('admin')
    .aggregate([{ $currentOp: { idleCursors: true } }], { useBigInt64: true })
    .toArray();
  return ops
    .filter((op) => op['ns'] === collection.namespace && op['cursor']?.cursorId !== undefined)
    .map((op) => ({ id: op['cursor'].cursorId as bigint, active: op['type'] === 'op' }));
}

// Whatever fails, nothing may escape as an unhandled rejection.
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeAll(() => void process.on('unhandledRejection', onUnhandled));
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

describe('resumable stream: delivery across failures (shared engine)', () => {
  let test: TestDb;
  const running: ResumableStream[] = [];
  beforeAll(async () => {
    test = await connectTestDb('resumable_stream');
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((stream) => stream.stop()));
  });
  afterAll(async () => {
    await test?.close();
  });
  const started = <T extends { stream: ResumableStream }>(followed: T) => {
    running.push(followed.stream);
    return followed;
  };

  it('lets the driver resume a cursor the server killed while idle: nothing missed or doubled, no reopen of its own', async () => {
    const collection = test.db.collection('killedIdle');
    // The handler holds the first change until the cursor has been killed, so no getMore is waiting on it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const followed = started(follow(collection, { onChange: (n) => (n === 1 ? held : undefined) }));
    await followed.stream.start(StreamStart.now);
    await insert(collection, 1);
    const [cursor] = await eventually(async () => {
      const cursors = await cursorsOn(test.client, collection);
      expect(cursors).toEqual([{ id: expect.any(BigInt), active: false }]);
      return cursors;
    }, WAIT);
    const killed = await test.db.command({ killCursors: collection.collectionName, cursors: [cursor!.id] });
    expect(killed['cursorsKilled']).toHaveLength(1);
    release();
    await insert(collection, 2, 3);
    await seenExactly(followed.seen, [1, 2, 3]);
    // The next getMore met CursorNotFound, which the driver resumes from its own token (spec).
    expect(followed.stream.status).toMatchObject({ state: 'open', reopens: 0, consecutiveFailures: 0 });
    expect(followed.failures).toEqual([]);
  });

  it('hands a change over again when its handler failed, and goes on after it', async () => {
    const collection = test.db.collection('handlerFailed');
    let failOnce = true;
    const followed = started(
      follow(collection, {
        onChange: (n) => {
          if (n === 2 && failOnce) {
            failOnce = false;
            throw new Error('handler failed on purpose');
          }
        },
      }),
    );
    await followed.stream.start(StreamStart.now);
    await insert(collection, 1, 2, 3);
    await seenExactly(followed.seen, [1, 2, 3]);
    expect(followed.failures).toEqual([expect.objectContaining({ kind: 'error', failures: 1 })]);
    expect(followed.stream.status).toMatchObject({
      state: 'open',
      reopens: 1,
      consecutiveFailures: 0,
      lastError: null,
    });
  });

  it('in batch mode hands over what one answer brought together, in order, and all of it again when the batch failed', async () => {
    const collection = test.db.collection('batches');
    const batches: number[][] = [];
    const tokens: unknown[] = [];
    let failOnce = true;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const stream = new ResumableStream(
      { collection, pipeline: INSERTS, awaitTimeMs: 200, countOpen: () => undefined },
      {
        batch: async (changes, token) => {
          const ns = changes.map((change) => (change['fullDocument'] as { n: number }).n);
          if (ns[0] === 1) await held; // hold the first batch while 2..6 land on the server as one answer
          if (ns.includes(4) && failOnce) {
            failOnce = false;
            throw new Error('batch failed on purpose');
          }
          batches.push(ns);
          tokens.push(token);
        },
      },
      { backoff: FAST },
    );
    running.push(stream);
    await stream.start(StreamStart.now);
    await insert(collection, 1);
    await eventually(() => expect(stream.status.state).toBe('open'), WAIT);
    await insert(collection, 2, 3, 4, 5, 6);
    release();
    await eventually(() => expect(batches.flat()).toEqual([1, 2, 3, 4, 5, 6]), WAIT);
    // 2..6 arrived in one getMore: handed over together (after the failed attempt, again together).
    expect(batches).toEqual([[1], [2, 3, 4, 5, 6]]);
    expect(stream.status).toMatchObject({ state: 'open', reopens: 1, consecutiveFailures: 0 });
    expect(new Set(tokens.map((token) => JSON.stringify(token))).size).toBe(2);
  });

  it('refuses a handler with both or neither of change and batch', () => {
    const source = {
      collection: test.db.collection('neither'),
      pipeline: INSERTS,
      awaitTimeMs: 200,
      countOpen: () => undefined,
    };
    expect(() => new ResumableStream(source, {})).toThrow(/one of the two/);
    expect(() => new ResumableStream(source, { change: () => undefined, batch: () => undefined })).toThrow(
      /one of the two/,
    );
  });

  it('restarts from now when the server invalidates the stream (its collection dropped), reporting the gap', async () => {
    const collection = test.db.collection('dropped');
    const followed = started(follow(collection));
    await followed.stream.start(StreamStart.now);
    await insert(collection, 1);
    await seenExactly(followed.seen, [1]);
    await collection.drop();
    await eventually(() => expect(followed.opened.map((event) => event.gap)).toEqual([null, 'invalidated']), WAIT);
    expect(followed.failures.map((failure) => failure.kind)).toEqual(['invalidated']);
    await insert(collection, 2);
    await seenExactly(followed.seen, [1, 2]);
    expect(followed.stream.status).toMatchObject({ state: 'open', reopens: 1 });
  });

  it('ends the run, cursor closed and the reason kept, when its failure handler throws', async () => {
    const collection = test.db.collection('failedHandlerThrew');
    let open = 0;
    const stream = new ResumableStream(
      { collection, pipeline: INSERTS, awaitTimeMs: 200, countOpen: (delta) => void (open += delta) },
      {
        change: () => {
          throw new Error('handler failed on purpose');
        },
        failed: () => {
          throw new Error('failure handler broken on purpose');
        },
      },
      { backoff: FAST },
    );
    const run = stream.run(StreamStart.now);
    await eventually(() => expect(stream.status.state).toBe('open'), WAIT);
    await insert(collection, 1);
    await run; // resolves: no rejection escapes, nothing reopens
    expect(stream.status).toMatchObject({
      state: 'stopped',
      lastError: expect.stringContaining('failure handler broken on purpose'),
    });
    expect(open).toBe(0);
  });

  it('rejects start() when the first open fails, leaving no cursor open', async () => {
    const collection = test.db.collection('badPipeline');
    let open = 0;
    const stream = new ResumableStream(
      { collection, pipeline: [{ $notAStage: {} }], countOpen: (delta) => void (open += delta) },
      { change: () => undefined },
      { backoff: FAST },
    );
    await expect(stream.start(StreamStart.now)).rejects.toThrow();
    expect(stream.status.state).toBe('stopped');
    expect(open).toBe(0);
    await stream.stop();
  });

  it('stop() closes the cursor on the server and hands nothing over afterwards', async () => {
    const collection = test.db.collection('stopped');
    const followed = follow(collection);
    await followed.stream.start(StreamStart.now);
    await insert(collection, 1);
    await seenExactly(followed.seen, [1]);
    expect(
      (await changeStreamsOn(test.client, test.dbName)).filter((op) => op.ns === collection.namespace),
    ).toHaveLength(1);

    await followed.stream.stop();
    expect(followed.stream.status.state).toBe('stopped');
    expect(followed.cursorsOpen()).toBe(0);
    expect((await changeStreamsOn(test.client, test.dbName)).filter((op) => op.ns === collection.namespace)).toEqual(
      [],
    );
    await insert(collection, 2);
    expect(await collection.countDocuments({ n: 2 })).toBe(1); // one more round trip
    expect(followed.seen).toEqual([1]);
  });

  it('stop() cuts a reopen backoff short', async () => {
    const collection = test.db.collection('stoppedInBackoff');
    // After the handler fails, the stream waits at least 5 minutes before it reopens: only a stop
    // that cancels the wait lets this test end within its timeout.
    const followed = follow(collection, {
      backoff: { baseMs: 600_000, maxMs: 600_000 },
      onChange: () => {
        throw new Error('handler failed on purpose');
      },
    });
    await followed.stream.start(StreamStart.now);
    await insert(collection, 1);
    await eventually(
      () => expect(followed.stream.status).toMatchObject({ state: 'reopening', consecutiveFailures: 1 }),
      WAIT,
    );
    expect(followed.cursorsOpen()).toBe(0); // the failed cursor is closed before the wait
    await followed.stream.stop();
    expect(followed.stream.status.state).toBe('stopped');
    expect(followed.cursorsOpen()).toBe(0);
    expect(followed.opened).toHaveLength(1);
  });
});

describe('resumable stream: the driver gives up (own emulator)', () => {
  // failCommand is one fail point per server: on an engine of its own, turning it off cannot
  // disturb another test file's fault.
  let emulator: RunningEmulator;
  let client: MongoClient;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, replSetName: 'rs0' });
    client = await MongoClient.connect(emulator.uri, { appName: 'resumableStreamTest' });
  });
  afterAll(async () => {
    await client?.close();
    await emulator?.stop();
  });

  it('reopens from its last position when the driver gives up, and hands over what was written meanwhile, once', async () => {
    const collection = client.db('gaveUp').collection('items');
    const followed = follow(collection);
    onTestFinished(() => followed.stream.stop());
    await followed.stream.start(StreamStart.now);
    await insert(collection, 1, 2);
    await seenExactly(followed.seen, [1, 2]);

    // Every getMore and aggregate of this client fails with an unlabelled error: the driver does
    // not resume (not a resumable error) and every reopen fails until the fail point goes.
    await withFailCommand(
      client,
      'resumableStreamTest',
      'alwaysOn',
      { failCommands: ['getMore', 'aggregate'], errorCode: 8, errorLabels: [] },
      async () => {
        await eventually(() => expect(followed.stream.status.consecutiveFailures).toBeGreaterThanOrEqual(2), WAIT);
        expect(followed.stream.status.state).toBe('reopening');
        await insert(collection, 3, 4, 5); // written while no stream is open
      },
    );
    await seenExactly(followed.seen, [1, 2, 3, 4, 5]);
    await eventually(
      () => expect(followed.stream.status).toMatchObject({ state: 'open', consecutiveFailures: 0 }),
      WAIT,
    );
    expect(followed.stream.status.reopens).toBeGreaterThanOrEqual(1);
    expect(followed.failures.every((failure) => failure.kind === 'error')).toBe(true);
    expect(followed.opened.map((event) => event.gap)).toEqual(followed.opened.map(() => null));
  });
});

describe('resumable stream: lost history (own emulator, tiny oplog)', () => {
  const OPLOG_MAX_ENTRIES = 50;
  let emulator: RunningEmulator;
  let client: MongoClient;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, replSetName: 'rs0', oplogMaxEntries: OPLOG_MAX_ENTRIES });
    client = await MongoClient.connect(emulator.uri);
  });
  afterAll(async () => {
    await client?.close();
    await emulator?.stop();
  });
  const overrunOplog = (name: string) =>
    client
      .db('history')
      .collection(`${name}Filler`)
      .insertMany(Array.from({ length: 2 * OPLOG_MAX_ENTRIES }, (_, i) => ({ i })));

  it('reports lost history when resuming from a token older than the oplog, then follows from now', async () => {
    const collection = client.db('history').collection('fromOldToken');
    const first = follow(collection);
    await first.stream.start(StreamStart.now);
    await insert(collection, 1);
    await seenExactly(first.seen, [1]);
    const oldToken = first.stream.resumeToken;
    await first.stream.stop();
    await overrunOplog('fromOldToken');

    const resumed = follow(collection);
    const run = resumed.stream.run(StreamStart.after(oldToken));
    try {
      await eventually(() => expect(resumed.opened).toHaveLength(1), WAIT);
      expect(resumed.failures).toEqual([expect.objectContaining({ kind: 'historyLost', failures: 1 })]);
      expect(resumed.opened[0]).toMatchObject({ gap: 'historyLost', reopened: false });
      await insert(collection, 2);
      await seenExactly(resumed.seen, [2]);
    } finally {
      await resumed.stream.stop();
    }
    await run;
  });

  it('reports lost history when the oplog overruns a live stream, and restarts from now', async () => {
    const collection = client.db('history').collection('overrunLive');
    const followed = follow(collection);
    await followed.stream.start(StreamStart.now);
    try {
      await insert(collection, 1);
      await seenExactly(followed.seen, [1]);
      await overrunOplog('overrunLive'); // more than the whole oplog in one command, between two getMores
      await eventually(() => expect(followed.opened.map((event) => event.gap)).toEqual([null, 'historyLost']), WAIT);
      // The live getMore meets CappedPositionLost, which the driver does not resume; resuming from
      // the last position then meets ChangeStreamHistoryLost, and the stream restarts from now.
      expect(followed.failures.at(-1)?.kind).toBe('historyLost');
      await insert(collection, 2);
      await seenExactly(followed.seen, [1, 2]);
      expect(followed.stream.status).toMatchObject({ state: 'open', reopens: 1 });
    } finally {
      await followed.stream.stop();
    }
  });
});

describe('resumable stream: the engine goes away and comes back (own emulator)', () => {
  let emulator: RunningEmulator | undefined;
  let client: MongoClient | undefined;
  afterAll(async () => {
    await client?.close();
    await emulator?.stop();
  });

  it('keeps reopening with backoff while the engine is down, and follows again once it is back on the same port', async () => {
    emulator = await startEmulator({ port: 0, replSetName: 'rs0' });
    const { port, uri } = emulator;
    // A short server selection: each reopen fails fast while the engine is down.
    client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 200, heartbeatFrequencyMS: 500 });
    const collection = client.db('restart').collection('items');
    const followed = follow(collection);
    await followed.stream.start(StreamStart.now);
    try {
      await insert(collection, 1);
      await seenExactly(followed.seen, [1]);

      await emulator.stop();
      // More failed reopens in a row than the projection's old give-up count (8): it never gives up.
      await eventually(() => expect(followed.stream.status.consecutiveFailures).toBeGreaterThan(8), {
        ...WAIT,
        timeout: 60_000,
      });
      expect(followed.stream.status.state).toBe('reopening');
      expect(followed.stream.status.lastError).not.toBeNull();
      expect(followed.cursorsOpen()).toBe(0);

      emulator = await startEmulator({ port, replSetName: 'rs0' });
      await eventually(() => expect(followed.stream.status).toMatchObject({ state: 'open', consecutiveFailures: 0 }), {
        ...WAIT,
        timeout: 60_000,
      });
      await insert(collection, 2);
      await seenExactly(followed.seen, [1, 2]);
      expect(followed.stream.status.reopens).toBeGreaterThanOrEqual(1);
    } finally {
      await followed.stream.stop();
    }
    expect(followed.cursorsOpen()).toBe(0);
  }, 120_000);
});

describe('reopenDelayMs', () => {
  it('doubles from the base to the cap, with at most half of it random', () => {
    const backoff = { baseMs: 100, maxMs: 5_000 };
    const capped = [100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000];
    expect(capped.map((_, i) => reopenDelayMs(i + 1, backoff, () => 0))).toEqual(capped.map((ms) => ms / 2));
    expect(capped.map((_, i) => reopenDelayMs(i + 1, backoff, () => 1))).toEqual(capped);
    expect(reopenDelayMs(3, backoff, () => 0.5)).toBe(300);
  });
});
