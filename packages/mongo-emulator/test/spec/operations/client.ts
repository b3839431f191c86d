// Client entity operations: database enumeration, cluster change streams, close.
import type { Document } from 'mongodb';
import type { ClientEntity } from '../clientEntity.ts';
import { unsupported } from '../outcomes.ts';
import type { OperationHandler } from './context.ts';
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
    await entity.close();
    return { value: undefined };
  },
  async clientBulkWrite() {
    unsupported('clientBulkWrite');
  },
  async watch() {
    unsupported('the watch operation (test files must use createChangeStream)');
  },
};
