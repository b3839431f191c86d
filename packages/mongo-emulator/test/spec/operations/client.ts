// Client entity operations: database enumeration, cluster change streams, close.
import type { Document } from 'mongodb';
import type { ClientEntity } from '../clientEntity.ts';
import { unsupported } from '../outcomes.ts';
import { Arguments, type OperationHandler } from './context.ts';
import { clientBulkWriteResultDocument } from './results.ts';
import { openChangeStream } from './changeStreams.ts';

type Handler = OperationHandler<ClientEntity>;

async function listDatabases(entity: ClientEntity, options: Record<string, unknown>): Promise<Document[]> {
  const result = await entity.client.db('admin').admin().listDatabases(options);
  return result.databases;
}

export const clientOperations: Record<string, Handler> = {
  async listDatabases(entity, args) {
    return { value: await listDatabases(entity, args.options()), documentList: true };
  },
  async listDatabaseObjects(entity, args) {
    return { value: await listDatabases(entity, args.options()), documentList: true };
  },
  async listDatabaseNames(entity, args) {
    const databases = await listDatabases(entity, { ...args.options(), nameOnly: true });
    return { value: databases.map((d) => d.name) };
  },
  async createChangeStream(entity, args) {
    const pipeline = args.optional<Document[]>('pipeline') ?? [];
    return { value: await openChangeStream(entity.client.watch(pipeline, args.options())) };
  },
  async close(entity) {
    await entity.closeObserved();
    return { value: undefined };
  },
  async clientBulkWrite(entity, args, context) {
    // `{ replaceOne: { namespace, ... } }` in the file is `{ name: 'replaceOne', namespace, ... }` in the driver.
    const models = args.required<Array<Record<string, unknown>>>('models').map((model) => {
      const [name, spec] = Object.entries(model)[0] ?? [];
      const modelArgs = new Arguments(spec as Record<string, unknown>, context.entities);
      const fields: Record<string, unknown> = { name };
      for (const field of ['document', 'filter', 'update', 'replacement', 'arrayFilters']) {
        const value = modelArgs.optional(field);
        if (value !== undefined) fields[field] = value;
      }
      return { ...fields, ...modelArgs.options() };
    });
    const result = await entity.client.bulkWrite(models as never, args.options());
    return { value: clientBulkWriteResultDocument(result) };
  },
  async watch() {
    unsupported('the watch operation (test files must use createChangeStream)');
  },
};
