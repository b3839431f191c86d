// Per-delivery counters (stream_events_delivered_total, subscription_results_total) count through
// batchedIncrement: the counter must end up with exactly the increments made, per label set, one
// turn of the event loop later.
import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { batchedIncrement } from '../../src/observability/batchedCounter.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function countOf(counter: Counter<'feed'>, feed: string): Promise<number> {
  return (await counter.get()).values.find((value) => value.labels['feed'] === feed)?.value ?? 0;
}

describe('batchedIncrement', () => {
  it('adds exactly the increments of each turn, per label set, at the end of the turn', async () => {
    const counter = new Counter({
      name: 'deliveries_total',
      help: 'test',
      labelNames: ['feed'] as const,
      registers: [new Registry()],
    });
    const a = batchedIncrement(counter, { feed: 'a' });
    // Another caller with the same counter and labels shares the incrementer (one flush per turn).
    expect(batchedIncrement(counter, { feed: 'a' })).toBe(a);
    const b = batchedIncrement(counter, { feed: 'b' });
    for (let i = 0; i < 1_000; i++) a();
    b();
    expect(await countOf(counter, 'a')).toBe(0);
    await nextTurn();
    expect(await countOf(counter, 'a')).toBe(1_000);
    expect(await countOf(counter, 'b')).toBe(1);
    for (let turn = 0; turn < 3; turn++) {
      for (let i = 0; i < 10; i++) a();
      await nextTurn();
    }
    expect(await countOf(counter, 'a')).toBe(1_030);
    expect(await countOf(counter, 'b')).toBe(1);
  });
});
