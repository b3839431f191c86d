import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workItems } from '../../src/work/index.ts';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';

// The projection's batch of payouts (`createPayouts`): one unordered bulk upsert on the unique
// `payout:<entryId>` key. A replayed batch, a batch that overlaps an earlier one, and the same
// batch written by many services at once all leave exactly one PAYOUT item per entry, and the
// counts of created items add up to the entries.

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('payoutBatch');
});
afterAll(async () => {
  await h.close();
});

const payouts = (tag: string, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ({
    entryId: `${tag}-${from + i}:debit`,
    payload: { entryId: `${tag}-${from + i}:debit`, amount: 1 },
  }));

async function itemsPerEntry(tag: string): Promise<Map<string, number>> {
  const items = await workItems(h.db.db)
    .find({ kind: 'PAYOUT', 'payload.entryId': { $regex: `^${tag}-` } })
    .toArray();
  const counts = new Map<string, number>();
  for (const item of items) {
    const entryId = (item.payload as { entryId: string }).entryId;
    counts.set(entryId, (counts.get(entryId) ?? 0) + 1);
  }
  return counts;
}

describe('a batch of payouts', () => {
  it('creates each once; a replay and an overlapping batch create only what is new', async () => {
    expect(await h.service.createPayouts(payouts('batch', 0, 20))).toEqual({ created: 20 });
    expect(await h.service.createPayouts(payouts('batch', 0, 20))).toEqual({ created: 0 });
    expect(await h.service.createPayouts(payouts('batch', 10, 30))).toEqual({ created: 10 });
    expect(await h.service.createPayouts([])).toEqual({ created: 0 });
    const counts = await itemsPerEntry('batch');
    expect(counts.size).toBe(30);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const item = await h.service.payoutFor('batch-3:debit');
    expect(item).toMatchObject({
      kind: 'PAYOUT',
      status: 'PENDING',
      version: 1,
      payload: { entryId: 'batch-3:debit' },
    });
  });

  it("stores payouts without the creation outcome a client's item keeps for replays (half of a payout's oplog)", async () => {
    await h.service.createPayouts(payouts('lean', 0, 2));
    await h.service.createPayout(payouts('lean', 2, 3)[0]!);
    const stored = await workItems(h.db.db)
      .find({ kind: 'PAYOUT', 'payload.entryId': { $regex: '^lean-' } })
      .toArray();
    expect(stored).toHaveLength(3);
    for (const item of stored) expect(item).not.toHaveProperty('createOutcome');
    // A client's item keeps it: its createWorkItem replay answers the item as first created.
    const created = await h.service.create({
      idempotencyKey: 'lean-client',
      kind: 'lean',
      payload: { n: 1 },
      maxAttempts: 3,
    });
    expect(created.kind).toBe('createWorkItemSuccess');
    const client = await workItems(h.db.db).findOne({ kind: 'lean' });
    expect(client?.createOutcome).toMatchObject({ kind: 'lean', status: 'PENDING', version: 1 });
  });

  it('leaves one item per entry when 16 services write the same batch at once, and exactly one of them creates each', async () => {
    const services = await h.services(16);
    const batch = payouts('race', 0, 50);
    const results = await Promise.all(services.map((service) => service.createPayouts(batch)));
    expect(results.reduce((sum, result) => sum + result.created, 0)).toBe(50);
    const counts = await itemsPerEntry('race');
    expect(counts.size).toBe(50);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });
});
