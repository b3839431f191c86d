// Bounded fan-out: a subscriber that does not read is never allowed more than its queue; it
// keeps what was queued and is then told to resync from the last event it got, and ended.
// A catch-up hands over to live events without losing or doubling any.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { FeedEvent, FeedItem } from '../../src/streams/index.ts';
import { FeedLimits } from '../../src/streams/index.ts';
import { Subscriber } from '../../src/streams/Subscriber.ts';
import { createStreamsTelemetry } from '../../src/streams/telemetry.ts';

const event = (n: number): FeedEvent<number> => ({ kind: 'event', key: `k${n}`, cursor: `c${n}`, data: n });

async function drain(subscriber: Subscriber<number>): Promise<FeedItem<number>[]> {
  const items: FeedItem<number>[] = [];
  for await (const item of subscriber.queue) items.push(item);
  return items;
}

describe('Subscriber', () => {
  it('ends a slow subscriber with SLOW_SUBSCRIBER and the cursor of the last queued event', async () => {
    const subscriber = new Subscriber<number>('test', () => true, 'join', null, createStreamsTelemetry(new Registry()), () => undefined);
    for (let n = 1; n <= FeedLimits.subscriberQueueMax + 5; n++) subscriber.offer(event(n));
    const items = await drain(subscriber);
    expect(items).toHaveLength(FeedLimits.subscriberQueueMax + 1);
    expect(items.at(-1)).toEqual({ kind: 'resync', reason: 'SLOW_SUBSCRIBER', cursor: `c${FeedLimits.subscriberQueueMax}` });
  });

  it('hands a catch-up over to the held live events without loss or duplicates', async () => {
    const subscriber = new Subscriber<number>('test', (n) => n % 2 === 1, 'join', 'after', createStreamsTelemetry(new Registry()), () => undefined);
    // Live events 5..9 arrive while the catch-up replays 1..6 (5 and 6 are in both).
    for (let n = 5; n <= 9; n++) subscriber.offer(event(n));
    expect(subscriber.firstLiveKey).toBe('k5');
    const replayed = new Set<string>();
    for (let n = 1; n <= 6; n++) if (subscriber.replay(event(n))) replayed.add(`k${n}`);
    subscriber.finishCatchUp(replayed);
    subscriber.offer(event(11));
    subscriber.end();
    expect((await drain(subscriber)).map((item) => (item.kind === 'event' ? item.data : item.reason))).toEqual([1, 3, 5, 7, 9, 11]);
  });
});
