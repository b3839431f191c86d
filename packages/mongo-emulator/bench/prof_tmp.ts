import { Catalog } from '../src/engine/catalog.ts';
const catalog = new Catalog();
const items = catalog.getOrCreateCollection('bench', 'w');
items.createIndexes([{ key: { status: 1, kind: 1, availableAt: 1 }, name: 'claim' }]);
for (let i = 0; i < 100000; i++) items.insertOne({ status: i % 3 === 0 ? 'PENDING' : 'DONE', kind: ['a','x'][i % 2], availableAt: new Date(i), version: 1n });
const now = new Date();
const t = process.hrtime.bigint();
for (let i = 0; i < 2000; i++) items.findAndModify({ query: { status: 'PENDING', kind: 'x', availableAt: { $lte: now } }, sort: { availableAt: 1 }, update: { $set: { status: 'PROCESSING' }, $inc: { version: 1n } }, new: true });
console.log('fam', Number(process.hrtime.bigint() - t) / 1e3 / 2000, 'sel', Number((globalThis as any).tSel) / 1e3 / 2000, 'upd', Number((globalThis as any).tUpd) / 1e3 / 2000);
