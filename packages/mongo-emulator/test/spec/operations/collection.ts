// Collection entity operations (CRUD, bulk, indexes, change streams), mapped onto the driver.
import type { AnyBulkWriteOperation, Collection, Document, IndexSpecification, MongoClient } from 'mongodb';
import { plain } from '../commonOptions.ts';
import { SkipTest, unsupported } from '../outcomes.ts';
import { Arguments, type OperationHandler } from './context.ts';
import { bulkWriteResultDocument, resultDocument } from './results.ts';
import { openChangeStream } from './changeStreams.ts';

type Handler = OperationHandler<Collection>;

function returnDocument(args: Arguments): Record<string, unknown> {
  const value = args.optional<string>('returnDocument');
  const options = args.options();
  if (value === undefined) return options;
  const lower = value.toLowerCase();
  if (lower !== 'before' && lower !== 'after') throw new Error(`returnDocument must be Before or After, got ${value}`);
  return { ...options, returnDocument: lower };
}

// One write model of bulkWrite: `{ insertOne: { document } }` etc. The document-valued fields keep
// their BSON types, the options become plain values.
function writeModel(request: Record<string, unknown>, context: Parameters<Handler>[2]): AnyBulkWriteOperation {
  const [type, spec] = Object.entries(request)[0] ?? [];
  if (type === undefined) throw new Error('empty bulkWrite request');
  const modelArgs = new Arguments(spec as Record<string, unknown>, context.entities);
  const model: Record<string, unknown> = {};
  for (const field of ['document', 'filter', 'update', 'replacement', 'arrayFilters']) {
    const value = modelArgs.optional(field);
    if (value !== undefined) model[field] = value;
  }
  Object.assign(model, modelArgs.options());
  return { [type]: model } as unknown as AnyBulkWriteOperation;
}

/**
 * mongod 5.0+ runs an aggregate ending in $out or $merge on a secondary and sends its writes to
 * the primary; the emulator's secondaries answer NotWritablePrimary. Whether the driver picks a
 * secondary depends on which members it has discovered by then, so the test would pass or fail by
 * timing: on a set with secondaries it is skipped with this reason instead.
 */
async function writeStageOnSecondary(
  collection: Collection,
  pipeline: Document[],
  runnerClient: MongoClient,
): Promise<boolean> {
  const last = pipeline[pipeline.length - 1] ?? {};
  if (!('$out' in last) && !('$merge' in last)) return false;
  if ((collection.readPreference?.mode ?? 'primary') === 'primary') return false;
  // Asked through the runner's own client: the test's client observes its commands.
  const hello = await runnerClient.db('admin').command({ hello: 1 });
  return Array.isArray(hello['hosts']) && hello['hosts'].length > 1;
}

export const collectionOperations: Record<string, Handler> = {
  async aggregate(collection, args, context) {
    const pipeline = args.required<Document[]>('pipeline');
    if (await writeStageOnSecondary(collection, pipeline, context.internalClient)) {
      throw new SkipTest('emulator gap: $out/$merge on a secondary (mongod 5.0+ writes through the primary)');
    }
    return { value: await collection.aggregate(pipeline, args.options()).toArray(), documentList: true };
  },
  async bulkWrite(collection, args, context) {
    const requests = args.required<Array<Record<string, unknown>>>('requests').map((r) => writeModel(r, context));
    return { value: bulkWriteResultDocument(await collection.bulkWrite(requests, args.options())) };
  },
  async count(collection, args) {
    const filter = args.optional<Document>('filter') ?? {};
    return { value: await collection.count(filter, args.options()) };
  },
  async countDocuments(collection, args) {
    const filter = args.optional<Document>('filter') ?? {};
    return { value: await collection.countDocuments(filter, args.options()) };
  },
  async estimatedDocumentCount(collection, args) {
    return { value: await collection.estimatedDocumentCount(args.options()) };
  },
  async distinct(collection, args) {
    const fieldName = args.required<string>('fieldName');
    const filter = args.optional<Document>('filter') ?? {};
    return { value: await collection.distinct(fieldName, filter, args.options()) };
  },
  async createChangeStream(collection, args) {
    const pipeline = args.optional<Document[]>('pipeline') ?? [];
    return { value: await openChangeStream(collection.watch(pipeline, args.options())) };
  },
  async createFindCursor(collection, args) {
    const filter = args.optional<Document>('filter') ?? {};
    const cursor = collection.find(filter, args.options());
    // hasNext runs `find` and buffers the first batch without consuming a document.
    await cursor.hasNext();
    return { value: cursor };
  },
  async createIndex(collection, args) {
    const keys = plain(args.required('keys')) as IndexSpecification;
    return { value: await collection.createIndex(keys, args.options()) };
  },
  async dropIndex(collection, args) {
    const name = args.required<string>('name');
    return { value: await collection.dropIndex(name, args.options()) };
  },
  async dropIndexes(collection, args) {
    return { value: await collection.dropIndexes(args.options()) };
  },
  async deleteMany(collection, args) {
    const filter = args.required<Document>('filter');
    return { value: resultDocument(await collection.deleteMany(filter, args.options())) };
  },
  async deleteOne(collection, args) {
    const filter = args.required<Document>('filter');
    return { value: resultDocument(await collection.deleteOne(filter, args.options())) };
  },
  async drop(collection, args) {
    return { value: await collection.drop(args.options()) };
  },
  async find(collection, args) {
    const filter = args.optional<Document>('filter') ?? {};
    return { value: await collection.find(filter, args.options()).toArray(), documentList: true };
  },
  async findOne(collection, args) {
    const filter = args.optional<Document>('filter') ?? {};
    return { value: await collection.findOne(filter, args.options()) };
  },
  async findOneAndDelete(collection, args) {
    const filter = args.required<Document>('filter');
    return { value: await collection.findOneAndDelete(filter, args.options()) };
  },
  async findOneAndReplace(collection, args) {
    const filter = args.required<Document>('filter');
    const replacement = args.required<Document>('replacement');
    return { value: await collection.findOneAndReplace(filter, replacement, returnDocument(args)) };
  },
  async findOneAndUpdate(collection, args) {
    const filter = args.required<Document>('filter');
    const update = args.required<Document>('update');
    return { value: await collection.findOneAndUpdate(filter, update, returnDocument(args)) };
  },
  async insertMany(collection, args) {
    const documents = args.required<Document[]>('documents');
    return { value: resultDocument(await collection.insertMany(documents, args.options())) };
  },
  async insertOne(collection, args) {
    const document = args.required<Document>('document');
    return { value: resultDocument(await collection.insertOne(document, args.options())) };
  },
  async listIndexes(collection, args) {
    return { value: await collection.listIndexes(args.options()).toArray(), documentList: true };
  },
  async listIndexNames(collection, args) {
    const indexes = await collection.listIndexes(args.options()).toArray();
    return { value: indexes.map((index) => index.name) };
  },
  async rename(collection, args) {
    const to = args.required<string>('to');
    await collection.rename(to, args.options());
    return { value: undefined };
  },
  async replaceOne(collection, args) {
    const filter = args.required<Document>('filter');
    const replacement = args.required<Document>('replacement');
    return { value: resultDocument(await collection.replaceOne(filter, replacement, args.options())) };
  },
  async updateMany(collection, args) {
    const filter = args.required<Document>('filter');
    const update = args.required<Document>('update');
    return { value: resultDocument(await collection.updateMany(filter, update, args.options())) };
  },
  async updateOne(collection, args) {
    const filter = args.required<Document>('filter');
    const update = args.required<Document>('update');
    return { value: resultDocument(await collection.updateOne(filter, update, args.options())) };
  },
  async watch() {
    unsupported('the watch operation (test files must use createChangeStream)');
  },
};
