// A count answered from index keys alone (mongod's COUNT_SCAN) must equal the count of the
// documents the filter matches, whatever the filter, the data and skip/limit: the keys are only
// counted when the filter is equalities of scalars on a prefix of a plain index, and every other
// count reads the documents. Each case is checked against a plain scan of the same documents.
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/engine/types.ts';
import { newCollection } from './helpers.ts';

const KINDS = ['PAYOUT', 'ORDER', 'REFUND'];
const STATUSES = ['PENDING', 'PROCESSING', 'DONE', 'FAILED'];

function seeded() {
  const c = newCollection();
  c.createIndexes([{ key: { kind: 1, status: 1 }, name: 'kind_status' }]);
  const docs: Document[] = [];
  for (let i = 0; i < 600; i++) {
    const doc: Document = {
      _id: i,
      kind: KINDS[i % 3],
      status: STATUSES[(i * 7) % 4],
      n: i % 5,
      at: new Date(Date.UTC(2026, 0, 1 + (i % 9))),
    };
    if (i % 50 === 0) delete doc['status']; // missing: indexes as null
    if (i % 97 === 0) doc['status'] = 1; // another type on the same field
    docs.push(doc);
  }
  for (const doc of docs) c.insertOne(doc);
  return c;
}

/** What a scan of the documents counts: the filter through find, with skip and limit applied. */
function scanned(
  c: ReturnType<typeof newCollection>,
  filter: Document,
  options: { skip?: number; limit?: number } = {},
): number {
  const all = c.find(filter).length;
  const afterSkip = Math.max(0, all - (options.skip ?? 0));
  return options.limit ? Math.min(afterSkip, options.limit) : afterSkip;
}

describe('count from index keys', () => {
  it('equals the documents matched, for equalities on a prefix, with skip and limit', () => {
    const c = seeded();
    const filters: Document[] = [
      ...KINDS.map((kind) => ({ kind })),
      ...KINDS.flatMap((kind) => STATUSES.map((status) => ({ kind, status }))),
      { kind: 'PAYOUT', status: 1 },
      { kind: 'NONE', status: 'DONE' },
      { status: 'DONE', kind: 'ORDER' },
    ];
    for (const filter of filters) {
      for (const options of [{}, { limit: 7 }, { skip: 5 }, { skip: 3, limit: 4 }, { limit: 10_001 }]) {
        expect({ filter, options, n: c.count(filter, { ...options, hint: 'kind_status' }) }).toEqual({
          filter,
          options,
          n: scanned(c, filter, options),
        });
        expect(c.count(filter, options)).toBe(scanned(c, filter, options));
      }
    }
    expect(c.count({ kind: 'PAYOUT', status: 'DONE' }, { hint: 'kind_status' })).toBeGreaterThan(0);
    expect(c.lastIndexUsed).toBe('kind_status');
  });

  it('reads the documents when the keys cannot say it all, and still counts right', () => {
    const c = seeded();
    const filters: Document[] = [
      { status: 'DONE' }, // not a prefix of the hinted index
      { kind: 'PAYOUT', n: 2 }, // a field the index does not hold
      { kind: { $in: ['PAYOUT', 'ORDER'] } },
      { kind: 'PAYOUT', status: null }, // null also matches a missing field
      { kind: /PAY/ },
      { kind: 'ORDER', status: { $ne: 'DONE' } },
    ];
    for (const filter of filters) expect(c.count(filter, { hint: 'kind_status' })).toBe(scanned(c, filter));
  });

  it('stops counting keys once an array makes the index multikey', () => {
    const c = seeded();
    const before = c.count({ kind: 'PAYOUT' }, { hint: 'kind_status' });
    c.insertOne({ _id: 'arr', kind: ['PAYOUT', 'ORDER'], status: 'DONE' });
    expect(c.count({ kind: 'PAYOUT' }, { hint: 'kind_status' })).toBe(before + 1);
    expect(c.count({ kind: 'ORDER', status: 'DONE' }, { hint: 'kind_status' })).toBe(
      scanned(c, { kind: 'ORDER', status: 'DONE' }),
    );
  });

  it('counts ObjectId and Date equalities on their own indexes', () => {
    const c = newCollection();
    c.createIndexes([
      { key: { owner: 1 }, name: 'owner' },
      { key: { at: -1 }, name: 'at' },
    ]);
    const owners = [new ObjectId(), new ObjectId()];
    const day = new Date(Date.UTC(2026, 5, 1));
    for (let i = 0; i < 40; i++)
      c.insertOne({ _id: i, owner: owners[i % 2], at: i % 4 === 0 ? day : new Date(Date.UTC(2026, 5, 2)) });
    expect(c.count({ owner: owners[0] })).toBe(20);
    expect(c.count({ at: day })).toBe(10);
  });
});
