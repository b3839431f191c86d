// Proves that a live feed whose collection is dropped (the server invalidates its shared stream)
// restarts from now and tells its subscriber to resync with reason INVALIDATED and a cursor, then
// delivers live events again: the invalidate branch of the stream lifecycle, seen through a
// ChangeFeed on a scratch collection of this file's database.
import type { Document } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/waiting.ts';
import { ChangeFeed, type FeedSpec } from '../../src/fanout/ChangeFeed.ts';
import type { FeedItem } from '../../src/fanout/feedItems.ts';
import { createStreamsTelemetry } from '../../src/fanout/telemetry.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';

async function next<E>(items: AsyncIterableIterator<FeedItem<E>>): Promise<FeedItem<E>> {
  const result = await items.next();
  if (result.done) throw new Error('the subscription ended');
  return result.value;
}

describe('a live feed whose collection is dropped', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('feed_invalidated');
  });
  afterAll(async () => {
    await test?.close();
  });

  it('tells its subscribers to resync (INVALIDATED), then delivers live events again', async () => {
    const collection = test.db.collection('scratch');
    const spec: FeedSpec<{ n: number }> = {
      name: 'scratch',
      collection,
      pipeline: [],
      toEvent: (change: Document) =>
        change['operationType'] === 'insert' ? { n: (change['fullDocument'] as { n: number }).n } : null,
    };
    const feed = new ChangeFeed(spec, pino({ level: 'silent' }), createStreamsTelemetry(new Registry()));
    await feed.start();
    try {
      const subscription = feed.subscribe(() => true, null);
      if (!subscription.ok) throw new Error(`the feed refused the subscription: ${subscription.refusal.limit}`);
      const items = subscription.items;
      await collection.insertOne({ n: 1 });
      expect(await next(items)).toMatchObject({ kind: 'event', data: { n: 1 } });

      await collection.drop();
      expect(await next(items)).toMatchObject({ kind: 'resync', reason: 'INVALIDATED', cursor: expect.any(String) });
      await eventually(() => expect(feed.status).toMatchObject({ state: 'open', consecutiveFailures: 0 }), {
        timeout: 20_000,
        interval: 25,
      });
      await collection.insertOne({ n: 2 });
      expect(await next(items)).toMatchObject({ kind: 'event', data: { n: 2 } });
    } finally {
      await feed.stop();
    }
  });
});
