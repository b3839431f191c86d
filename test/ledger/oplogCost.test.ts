// The oplog cost rule (docs/design.md): the oplog bytes of one money move do not grow with the
// account's history, and a withdrawal with 30-character keys logs at most 2 KiB across all its
// entries. Measured from local.oplog.rs as the server writes it (the emulator logs mongod's format:
// a transaction is one applyOps entry, an update its $v: 2 diff), through the driver, counting only
// this file's database so other files writing at the same time do not count.
import { BSON, type Document, type Timestamp } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionNames } from '../../src/ledger/index.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';

/** docs/design.md's bound for one withdrawal with 30-character keys, all its oplog entries together. */
const withdrawalOplogMaxBytes = 2 * 1024;
/** The history the rule names: an account with this many past decisions. */
const pastDecisions = 10_000;

let h: LedgerHarness;
const id30 = (prefix: string, n: number) => `${prefix}${String(n).padStart(30 - prefix.length, '0')}`;

beforeAll(async () => {
  h = await openLedgerHarness('oplogcost');
});
afterAll(() => h.close());

/** The oplog entries of this database written by `write`, and their BSON bytes. */
async function oplogOf(write: () => Promise<unknown>): Promise<{ entries: Document[]; bytes: number }> {
  // Int64 fields (t, v, txnNumber) must stay int64 when re-encoded for the size to be the server's.
  const oplog = h.db.client.db('local').collection('oplog.rs', { promoteLongs: false } as never);
  const [last] = await oplog.find({}, { sort: { $natural: -1 }, limit: 1, projection: { ts: 1 } }).toArray();
  await write();
  const ours = new RegExp(`^${h.db.dbName}\\.`);
  const entries = await oplog
    .find(
      { ts: { $gt: last!['ts'] as Timestamp }, $or: [{ ns: ours }, { 'o.applyOps.ns': ours }] },
      { promoteLongs: false },
    )
    .toArray();
  return { entries, bytes: entries.reduce((sum, entry) => sum + BSON.calculateObjectSize(entry), 0) };
}

async function withdrawal(accountId: string, n: number) {
  return oplogOf(async () => {
    const result = await h.service.withdraw({ accountId, amount: 1, requestId: id30('w-', n) });
    expect(result.kind).toBe('withdrawSuccess');
  });
}

describe('oplog cost of a money move', () => {
  it(`logs one applyOps entry of at most 2 KiB for a withdrawal, the same on a fresh account and after ${pastDecisions} decisions`, async () => {
    const accountId = id30('acct-', 1);
    await h.fundedAccount(accountId, 1_000_000);
    const fresh = await withdrawal(accountId, 1);
    expect(fresh.entries).toHaveLength(1);
    expect(fresh.entries[0]).toMatchObject({ op: 'c', ns: 'admin.$cmd' });
    expect(fresh.bytes).toBeLessThanOrEqual(withdrawalOplogMaxBytes);

    // The history: real decisions first, then the rest written in bulk as the ledger writes them
    // (copies of a real request and entry under new keys, and the account's version moved on), so
    // the account stands where 10,000 decisions would have left it.
    for (let n = 2; n <= 50; n++) await withdrawal(accountId, n);
    const requests = h.db.db.collection<{ _id: string }>(collectionNames.requests);
    const entries = h.db.db.collection<{ _id: string }>(collectionNames.entries);
    const sampleRequest = await requests.findOne({ requestId: id30('w-', 2) });
    const sampleEntry = await entries.findOne({ requestId: id30('w-', 2) });
    const seeded = pastDecisions - 51;
    for (let start = 0; start < seeded; start += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, seeded - start) }, (_, i) => 100_000 + start + i);
      await requests.insertMany(
        batch.map((n) => ({ ...sampleRequest, _id: `ledger:${id30('h-', n)}`, requestId: id30('h-', n) })),
      );
      await entries.insertMany(
        batch.map((n) => ({
          ...sampleEntry,
          _id: `ledger:${id30('h-', n)}:debit`,
          requestId: id30('h-', n),
          versionAfter: BSON.Long.fromNumber(n),
        })),
      );
    }
    await h.db.db
      .collection(collectionNames.accounts)
      .updateOne({ _id: accountId } as Document, { $inc: { version: BSON.Long.fromNumber(seeded) } });
    const account = await h.db.db.collection(collectionNames.accounts).findOne({ _id: accountId } as Document);
    expect(Number(account!['version'])).toBeGreaterThanOrEqual(pastDecisions);

    const late = await withdrawal(accountId, 99);
    expect(late.entries).toHaveLength(1);
    expect(late.bytes).toBeLessThanOrEqual(withdrawalOplogMaxBytes);
    // Nothing in the move grows with the account: same keys' lengths, same bytes.
    expect(late.bytes).toBe(fresh.bytes);
  });

  it('grows by the metadata once: a withdrawal with 1 KiB of metadata logs that many bytes more, not two or three times', async () => {
    const accountId = id30('acct-', 2);
    await h.fundedAccount(accountId, 1_000);
    const metadata = JSON.stringify({ note: 'm'.repeat(1_000) });
    const plain = await withdrawal(accountId, 200);
    const annotated = await oplogOf(async () => {
      expect((await h.service.withdraw({ accountId, amount: 1, requestId: id30('w-', 201), metadata })).kind).toBe(
        'withdrawSuccess',
      );
    });
    const grown = annotated.bytes - plain.bytes;
    // The metadata's text, its field name and a string's length prefix: stored on the request only.
    expect(grown).toBeGreaterThanOrEqual(metadata.length);
    expect(grown).toBeLessThan(metadata.length + 64);
    console.log(
      `oplogCost: a withdrawal logs ${plain.bytes} bytes, ${annotated.bytes} with ${metadata.length} bytes of metadata (+${grown})`,
    );
  });
});
