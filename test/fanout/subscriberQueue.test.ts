// The queue's promise-free hand-over (nextOrWait), which the socket writer takes items through:
// items at hand come back at once and in order; otherwise the waiter gets the next one from the
// push that brings it, before push returns; the bound and the end are those of next().
import { describe, expect, it } from 'vitest';
import { SubscriberQueue } from '../../src/fanout/SubscriberQueue.ts';

describe('SubscriberQueue.nextOrWait', () => {
  it('returns queued items in order, then hands the next one over from inside push', () => {
    const queue = new SubscriberQueue<number>(10, () => undefined);
    queue.push(1);
    queue.push(2);
    const got: Array<IteratorResult<number>> = [];
    const onNext = (step: IteratorResult<number>) => void got.push(step);
    expect(queue.nextOrWait(onNext)).toEqual({ value: 1, done: false });
    expect(queue.nextOrWait(onNext)).toEqual({ value: 2, done: false });
    expect(queue.nextOrWait(onNext)).toBeUndefined();
    expect(queue.push(3)).toBe(true);
    // Handed over synchronously, not queued: the waiter has it before push returned.
    expect(got).toEqual([{ value: 3, done: false }]);
    // One hand-over per wait: the next push is queued until asked for.
    queue.push(4);
    expect(got).toHaveLength(1);
    expect(queue.nextOrWait(onNext)).toEqual({ value: 4, done: false });
  });

  it('keeps the bound while nobody waits, and ends after the last notice', () => {
    const queue = new SubscriberQueue<string>(2, () => undefined);
    expect([queue.push('a'), queue.push('b'), queue.push('c')]).toEqual([true, true, false]);
    queue.end('last');
    const onNext = () => undefined;
    expect([
      queue.nextOrWait(onNext),
      queue.nextOrWait(onNext),
      queue.nextOrWait(onNext),
      queue.nextOrWait(onNext),
    ]).toEqual([
      { value: 'a', done: false },
      { value: 'b', done: false },
      { value: 'last', done: false },
      { value: undefined, done: true },
    ]);
  });

  it('tells a waiter of the last notice, then of the end, and of a return', () => {
    const ended = new SubscriberQueue<string>(2, () => undefined);
    const got: Array<IteratorResult<string>> = [];
    const rearm = (step: IteratorResult<string>) => {
      got.push(step);
      if (!step.done) expect(ended.nextOrWait(rearm)).toBeUndefined();
    };
    expect(ended.nextOrWait(rearm)).toBeUndefined();
    ended.end('last');
    expect(got).toEqual([
      { value: 'last', done: false },
      { value: undefined, done: true },
    ]);

    const returned = new SubscriberQueue<string>(2, () => undefined);
    const steps: Array<IteratorResult<string>> = [];
    expect(returned.nextOrWait((step) => void steps.push(step))).toBeUndefined();
    void returned.return();
    expect(steps).toEqual([{ value: undefined, done: true }]);
  });
});
