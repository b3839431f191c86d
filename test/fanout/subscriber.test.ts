// Bounded fan-out: a subscriber that does not read is never allowed more than its queue; it
// keeps what was queued and is then told to resync from the last event it got, and ended.
// A catch-up hands over to live events without losing or doubling any.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { FeedEvent, FeedItem } from '../../src/fanout/index.ts';
import { FeedLimits } from '../../src/fanout/index.ts';
import { Subscriber } from '../../src/fanout/Subscriber.ts';
import { createStreamsTelemetry } from '../../src/fanout/telemetry.ts';

const event = (n: number): FeedEvent<number> => ({ kind: 'event', key: `k${n}`, cursor: `c${n}`, data: n });

async function drain(subscriber: Subscriber<number>): Promise<FeedItem<number>[]> {
  const items: FeedItem<number>[] = [];
  for await (const item of subscriber.queue) items.push(item);
  return items;
}

describe('Subscriber', () => {
  it('ends a slow subscriber with SLOW_SUBSCRIBER and the cursor of the last queued event', async () => {
    const subscriber = new Subscriber<number>(
      'test',
      () => true,
      'join',
      null,
      createStreamsTelemetry(new Registry()),
      () => undefined,
    );
    for (let n = 1; n <= FeedLimits.subscriberQueueMax + 5; n++) subscriber.offer(event(n));
    const items = await drain(subscriber);
    expect(items).toHaveLength(FeedLimits.subscriberQueueMax + 1);
    expect(items.at(-1)).toEqual({
      kind: 'resync',
      reason: 'SLOW_SUBSCRIBER',
      cursor: `c${FeedLimits.subscriberQueueMax}`,
    });
  });

  it('hands a catch-up over to the held live events without loss or duplicates', async () => {
    const subscriber = new Subscriber<number>(
      'test',
      (n) => n % 2 === 1,
      'join',
      'after',
      createStreamsTelemetry(new Registry()),
      () => undefined,
    );
    // Live events 5..9 arrive while the catch-up replays 1..6 (5 and 6 are in both).
    for (let n = 5; n <= 9; n++) subscriber.offer(event(n));
    expect(subscriber.firstLiveKey).toBe('k5');
    const replayed = new Set<string>();
    for (let n = 1; n <= 6; n++) if (subscriber.replay(event(n))) replayed.add(`k${n}`);
    subscriber.finishCatchUp(replayed);
    subscriber.offer(event(11));
    subscriber.end();
    expect((await drain(subscriber)).map((item) => (item.kind === 'event' ? item.data : item.reason))).toEqual([
      1, 3, 5, 7, 9, 11,
    ]);
  });

  it('drops events a catch-up replayed ahead of the shared stream when the shared stream offers them later', async () => {
    // The catch-up reached the end of history (1..4) before the shared stream, which had joined
    // at 2, offered 3 and 4; it offers them after the hand-over, then 5.
    const subscriber = new Subscriber<number>(
      'test',
      () => true,
      'join',
      'after',
      createStreamsTelemetry(new Registry()),
      () => undefined,
    );
    const replayed = new Set<string>();
    for (let n = 1; n <= 4; n++) if (subscriber.replay(event(n))) replayed.add(`k${n}`);
    subscriber.finishCatchUp(replayed);
    for (const n of [3, 4, 5, 6]) subscriber.offer(event(n));
    subscriber.end();
    expect((await drain(subscriber)).map((item) => (item.kind === 'event' ? item.data : item.reason))).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
  });

  it('forgets the replayed keys at the first event past them', async () => {
    const subscriber = new Subscriber<number>(
      'test',
      () => true,
      'join',
      'after',
      createStreamsTelemetry(new Registry()),
      () => undefined,
    );
    subscriber.replay(event(1));
    subscriber.finishCatchUp(new Set(['k1']));
    // 1 was before the join point: the shared stream never offers it; 2 clears the set.
    for (const n of [2, 3]) subscriber.offer(event(n));
    subscriber.offer(event(1)); // a later event with a recycled key would not be dropped
    subscriber.end();
    expect((await drain(subscriber)).map((item) => (item.kind === 'event' ? item.data : item.reason))).toEqual([
      1, 2, 3, 1,
    ]);
  });
});
