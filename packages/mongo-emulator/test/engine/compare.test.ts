// Proves compareValues follows mongod's canonical type order and compares numbers exactly.
import { Binary, BSONRegExp, Decimal128, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { describe, expect, it } from 'vitest';
import { compareValues } from '../../src/engine/compare.ts';

describe('compareValues', () => {
  it('orders values by canonical type bracket', () => {
    const ordered = [
      new MinKey(),
      null,
      1,
      'a',
      { a: 1 },
      [1],
      new Binary(Buffer.from([1])),
      new ObjectId(),
      false,
      new Date(0),
      new Timestamp({ t: 1, i: 1 }),
      new BSONRegExp('a', ''),
      new MaxKey(),
    ];
    for (let i = 0; i + 1 < ordered.length; i++) {
      expect(compareValues(ordered[i], ordered[i + 1])).toBeLessThan(0);
      expect(compareValues(ordered[i + 1], ordered[i])).toBeGreaterThan(0);
    }
  });

  it('treats int, long, double and decimal of one value as equal', () => {
    expect(compareValues(1, 1n)).toBe(0);
    expect(compareValues(1n, 1.0)).toBe(0);
    expect(compareValues(Decimal128.fromString('1'), 1n)).toBe(0);
  });

  it('compares a long and a double exactly beyond 2^53', () => {
    const big = 2n ** 53n + 1n;
    expect(compareValues(big, 2 ** 53)).toBeGreaterThan(0);
    expect(compareValues(2 ** 53, big)).toBeLessThan(0);
    expect(compareValues(2n ** 63n - 1n, 9.3e18)).toBeLessThan(0);
    expect(compareValues(5n, 4.5)).toBeGreaterThan(0);
  });

  it('sorts NaN below every other number', () => {
    expect(compareValues(Number.NaN, -Infinity)).toBeLessThan(0);
    expect(compareValues(Number.NaN, Number.NaN)).toBe(0);
  });

  it('compares strings by code point, not UTF-16 unit', () => {
    expect(compareValues('\uFF61', '\u{1F600}')).toBeLessThan(0);
    expect(compareValues('a', 'b')).toBeLessThan(0);
    expect(compareValues('ab', 'a')).toBeGreaterThan(0);
    // After a shared prefix too, and for plain ASCII (the native fast path).
    expect(compareValues('req-0001-\uFF61', 'req-0001-\u{1F600}')).toBeLessThan(0);
    expect(compareValues('req-0001-\u{1F600}', 'req-0001-\uFF61')).toBeGreaterThan(0);
    expect(compareValues('req-0001-z', 'req-0001-\u00E9')).toBeLessThan(0);
    expect(compareValues('req-10', 'req-1')).toBeGreaterThan(0);
    expect(compareValues('req-0001-b', 'req-0001-a')).toBeGreaterThan(0);
  });

  it('compares documents field by field, type before name before value', () => {
    expect(compareValues({ a: 1 }, { a: 2 })).toBeLessThan(0);
    expect(compareValues({ a: 1 }, { b: 0 })).toBeLessThan(0);
    expect(compareValues({ a: 'x' }, { a: 1 })).toBeGreaterThan(0);
    expect(compareValues({ a: 1 }, { a: 1, b: 1 })).toBeLessThan(0);
  });

  it('compares arrays element-wise and ObjectIds by bytes', () => {
    expect(compareValues([1, 2], [1, 3])).toBeLessThan(0);
    expect(compareValues([1], [1, 0])).toBeLessThan(0);
    const a = new ObjectId('000000000000000000000001');
    const b = new ObjectId('000000000000000000000002');
    expect(compareValues(a, b)).toBeLessThan(0);
    expect(compareValues(a, new ObjectId(a.toHexString()))).toBe(0);
  });

  it('compares binData by length, then subtype, then bytes', () => {
    expect(compareValues(new Binary(Buffer.from([9])), new Binary(Buffer.from([0, 0])))).toBeLessThan(0);
    expect(compareValues(new Binary(Buffer.from([9]), 0), new Binary(Buffer.from([1]), 4))).toBeLessThan(0);
  });
});
