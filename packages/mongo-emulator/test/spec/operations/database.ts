// Database entity operations: commands, catalogue listing and creation, change streams.
import type { Db, Document } from 'mongodb';
import { unsupported } from '../outcomes.ts';
import type { OperationHandler } from './context.ts';
import { openChangeStream } from './changeStreams.ts';

type Handler = OperationHandler<Db>;

export const databaseOperations: Record<string, Handler> = {
  async aggregate(db, args) {
    const pipeline = args.required<Document[]>('pipeline');
    return { value: await db.aggregate(pipeline, args.options()).toArray(), documentList: true };
  },
  async createChangeStream(db, args) {
    const pipeline = args.optional<Document[]>('pipeline') ?? [];
    return { value: await openChangeStream(db.watch(pipeline, args.options())) };
  },
  async createCollection(db, args) {
    const name = args.required<string>('collection');
    await db.createCollection(name, args.options());
    return { value: undefined };
  },
  async dropCollection(db, args) {
    const name = args.required<string>('collection');
    return { value: await db.dropCollection(name, args.options()) };
  },
  async listCollections(db, args) {
    const filter = args.optional<Document>('filter') ?? {};
    return { value: await db.listCollections(filter, args.options()).toArray(), documentList: true };
  },
  async listCollectionObjects(db, args) {
    const filter = args.optional<Document>('filter') ?? {};
    return { value: await db.listCollections(filter, args.options()).toArray(), documentList: true };
  },
  async listCollectionNames(db, args) {
    // The Enumerating Collections spec: names only, through listCollections with nameOnly.
    const filter = args.optional<Document>('filter') ?? {};
    const collections = await db.listCollections(filter, { ...args.options(), nameOnly: true }).toArray();
    return { value: collections.map((c) => c.name) };
  },
  async modifyCollection(db, args) {
    // The driver has no collMod helper; this is the command such a helper would send.
    const name = args.required<string>('collection');
    const { session, ...rest } = args.options();
    return {
      value: await db.command({ collMod: name, ...rest }, session === undefined ? {} : { session: session as never }),
    };
  },
  async runCommand(db, args) {
    const command = args.required<Document>('command');
    args.optional('commandName');
    return { value: await db.command(command, args.options()) };
  },
  async runCursorCommand(db, args) {
    const command = args.required<Document>('command');
    args.optional('commandName');
    return { value: await db.runCursorCommand(command, args.options()).toArray(), documentList: true };
  },
  async createCommandCursor(db, args) {
    const command = args.required<Document>('command');
    args.optional('commandName');
    const cursor = db.runCursorCommand(command, args.options());
    await cursor.hasNext();
    return { value: cursor };
  },
  async watch() {
    unsupported('the watch operation (test files must use createChangeStream)');
  },
};
