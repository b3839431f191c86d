// Micro-benchmark of the storage/query engine, called directly (no wire). Run with
// `npx tsx packages/mongo-emulator/bench/engine.bench.ts`; prints one line per figure.
// The headline is the claim: findAndModify over 100,000 work items with an index walk.
// Each figure is the median of BATCHES batches, so other processes on the machine skew it less.
import { Catalog } from '../src/engine/catalog.ts';

const ITEMS = 100_000;
const CLAIMS = 2_000;
const LOOKUPS = 10_000;
const BATCHES = 5;

function timeIt(label: string, count: number, fn: (i: number) => void): void {
  const perBatch = Math.max(1, Math.floor(count / BATCHES));
  const perOpUs: number[] = [];
  let i = 0;
  const start = process.hrtime.bigint();
  for (let b = 0; b < BATCHES && i < count; b++) {
    const batchStart = process.hrtime.bigint();
    const end = b === BATCHES - 1 ? count : Math.min(count, i + perBatch);
    const n = end - i;
    for (; i < end; i++) fn(i);
    perOpUs.push(Number(process.hrtime.bigint() - batchStart) / 1e3 / n);
  }
  const totalMs = Number(process.hrtime.bigint() - start) / 1e6;
  const median = perOpUs.sort((a, b) => a - b)[Math.floor(perOpUs.length / 2)]!;
  console.log(
    `${label.padEnd(58)} ${String(count).padStart(7)} ops  ${totalMs.toFixed(1).padStart(9)} ms  median ${median.toFixed(2).padStart(9)} µs/op`,
  );
}

const catalog = new Catalog();
const items = catalog.getOrCreateCollection('bench', 'workItems');
items.createIndexes([{ key: { status: 1, kind: 1, availableAt: 1 }, name: 'claim' }]);
items.createIndexes([{ key: { idempotencyKey: 1 }, name: 'idempotencyKey_1', unique: true }]);
const base = Date.now() - ITEMS;
const kinds = ['payout', 'email', 'report', 'x'];

timeIt('insertOne (2 secondary indexes, one unique)', ITEMS, (i) => {
  items.insertOne({
    idempotencyKey: `k:${i}`,
    status: i % 3 === 0 ? 'PENDING' : 'DONE',
    kind: kinds[i % kinds.length],
    availableAt: new Date(base + i),
    version: 1n,
  });
});

const now = new Date();
let examinedMax = 0;
timeIt('claim: findAndModify eq,eq,range + sort + $inc (index walk)', CLAIMS, () => {
  items.findAndModify({
    query: { status: 'PENDING', kind: 'x', availableAt: { $lte: now } },
    sort: { availableAt: 1 },
    update: { $set: { status: 'PROCESSING', leaseUntil: now }, $inc: { version: 1n } },
    new: true,
  });
  examinedMax = Math.max(examinedMax, items.lastExamined);
});
console.log(`  documents examined per claim (max): ${examinedMax}`);

timeIt('find by unique key (index point)', LOOKUPS, (i) => {
  items.find({ idempotencyKey: `k:${(i * 7919) % ITEMS}` });
});

timeIt('find by _id equality (index point)', LOOKUPS, (i) => {
  items.find({ _id: `missing-${i}` });
});

timeIt('find on an unindexed field (collection scan)', 20, (i) => {
  items.find({ version: BigInt(i + 100) });
});

timeIt('aggregate $match+$group over the collection', 5, () => {
  catalog.aggregate('bench', 'workItems', [
    { $match: { status: 'DONE' } },
    { $group: { _id: '$kind', n: { $sum: 1 } } },
  ]);
});

let duplicates = 0;
timeIt('insertOne refused by the unique index (E11000)', LOOKUPS, (i) => {
  try {
    items.insertOne({ idempotencyKey: `k:${i}` });
  } catch {
    duplicates++;
  }
});
console.log(`  duplicates refused: ${duplicates}`);

// Writes to one document carrying a 1,000-element array of small records (the ledger's account
// `trace`): what a write costs should follow the paths it changes, not the document's size.
const TRACE_LENGTH = 1_000;
const TRACE_WRITES = 2_000;
const accounts = catalog.getOrCreateCollection('bench', 'accounts');
const traceRecord = (i: number) => ({ r: `req:${i}`, d: BigInt(-i) });
accounts.insertOne({
  _id: 'big',
  balance: 0n,
  version: 0n,
  trace: Array.from({ length: TRACE_LENGTH }, (_, i) => traceRecord(i)),
});
accounts.insertOne({
  _id: 'small',
  balance: 0n,
  version: 0n,
  trace: Array.from({ length: 100 }, (_, i) => traceRecord(i)),
});

for (const id of ['small', 'big']) {
  timeIt(`$inc on a document with a ${id === 'big' ? '1,000' : '100'}-element trace`, TRACE_WRITES, () => {
    accounts.update({ q: { _id: id }, u: { $inc: { balance: 1n, version: 1n } } });
  });
}

timeIt('$push $each + $slice -1000 on the 1,000-element trace', TRACE_WRITES, (i) => {
  accounts.update({
    q: { _id: 'big' },
    u: { $push: { trace: { $each: [traceRecord(TRACE_LENGTH + i)], $slice: -TRACE_LENGTH } } },
  });
});

timeIt('ledger decision: findAndModify $inc+$push, projection trace $slice -1', TRACE_WRITES, (i) => {
  const key = `dec:${i}`;
  accounts.findAndModify({
    query: { _id: 'big', 'trace.r': { $ne: key } },
    update: {
      $inc: { balance: -1n, version: 1n },
      $push: { trace: { $each: [{ r: key, d: -1n }], $slice: -TRACE_LENGTH } },
    },
    fields: { balance: 1, version: 1, trace: { $slice: -1 } },
    new: true,
  });
});
