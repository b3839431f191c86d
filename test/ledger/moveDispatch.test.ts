import { describe, expect, it } from 'vitest';
import { groupMovesMax } from '../../src/ledger/limits.ts';
import { MoveDispatch } from '../../src/ledger/moveDispatch.ts';

// The queue of group commit across accounts (src/ledger/moveDispatch.ts), as pure bookkeeping:
// which moves the next group takes, in which order, while which accounts are in flight.

const move = (name: string, ...accountIds: string[]) => ({ item: name, accountIds, bytes: 1_000 });

describe('the move queue across accounts', () => {
  it('takes everything queued, on any accounts, in arrival order, when nothing is in flight', () => {
    const queue = new MoveDispatch<string>(2);
    for (const [name, ...ids] of [
      ['w1', 'a'],
      ['t1', 'a', 'b'],
      ['d1', 'c'],
      ['w2', 'a'],
    ])
      queue.push(move(name!, ...ids));
    const group = queue.take();
    expect(group?.items).toEqual(['w1', 't1', 'd1', 'w2']);
    expect(new Set(group?.accountIds)).toEqual(new Set(['a', 'b', 'c']));
    expect(queue.queued).toBe(0);
  });

  it('keeps a move whose account is in flight, and every later move on that account, for a later group', () => {
    const queue = new MoveDispatch<string>(2);
    queue.push(move('w1', 'a'));
    const first = queue.take()!;
    expect(first.items).toEqual(['w1']);
    // While a is in flight: a transfer b→a waits, so does the later withdrawal on b (behind it), not c's.
    queue.push(move('t1', 'b', 'a'));
    queue.push(move('w2', 'b'));
    queue.push(move('d1', 'c'));
    const second = queue.take()!;
    expect(second.items).toEqual(['d1']);
    expect(queue.take()).toBeNull(); // the in-flight bound (2) is reached
    queue.done(first);
    expect(queue.take()?.items).toEqual(['t1', 'w2']);
  });

  it('never runs two groups on one account, and starts no more than its bound at once', () => {
    const queue = new MoveDispatch<string>(3);
    queue.push(move('w1', 'a'));
    const first = queue.take()!;
    queue.push(move('w2', 'a'));
    expect(queue.take()).toBeNull(); // only a's move waits, and a is in flight
    queue.push(move('w3', 'b'));
    queue.push(move('w4', 'c'));
    const second = queue.take()!;
    expect(second.items).toEqual(['w3', 'w4']);
    queue.push(move('w5', 'd'));
    const third = queue.take()!;
    expect(third.items).toEqual(['w5']);
    queue.push(move('w6', 'e'));
    expect(queue.take()).toBeNull();
    expect(queue.inFlight).toBe(3);
    queue.done(second);
    expect(queue.take()?.items).toEqual(['w6']); // w2 still waits for a
    queue.done(first);
    expect(queue.take()?.items).toEqual(['w2']);
  });

  it('bounds a group by groupMovesMax moves, the rest going with the next one in order', () => {
    const queue = new MoveDispatch<string>(1);
    const names = Array.from({ length: groupMovesMax + 5 }, (_, i) => `m${i}`);
    for (const name of names) queue.push(move(name, `acct-${name}`));
    const first = queue.take()!;
    expect(first.items).toEqual(names.slice(0, groupMovesMax));
    queue.done(first);
    expect(queue.take()?.items).toEqual(names.slice(groupMovesMax));
  });
});
