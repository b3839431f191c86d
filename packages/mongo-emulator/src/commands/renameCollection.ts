import type { Namespace } from '../engine/catalog.ts';
import { CommandError } from '../errors.ts';
import { bsonTypeName } from '../engine/bsonTypeName.ts';
import { optionalBoolean } from '../engine/documentFields.ts';
import type { CommandDefinition } from './types.ts';

/** `renameCollection` (admin): `{renameCollection: 'db.from', to: 'db.to', dropTarget?}`. */
export const renameCollection: CommandDefinition = {
  names: ['renameCollection'],
  acceptsWriteConcern: true,
  adminOnly: true,
  run({ command, server }) {
    const from = fullNamespace(command.renameCollection, 'source');
    if (command.to === undefined)
      throw new CommandError('Location40414', "BSON field 'renameCollection.to' is missing but a required field");
    const to = fullNamespace(command.to, 'target');
    const { catalog } = server;
    const collectionUUID = catalog.getCollection(from.db, from.coll)?.uuid;
    const target = catalog.getCollection(to.db, to.coll)?.uuid;
    catalog.renameCollection(from, to, { dropTarget: optionalBoolean(command, 'dropTarget') ?? false });
    server.changeStreams.recordCommand({
      op: 'rename',
      db: from.db,
      coll: from.coll,
      to,
      collectionUUID,
      dropTarget: target,
    });
    return {};
  },
};

function fullNamespace(value: unknown, role: 'source' | 'target'): Namespace {
  if (typeof value !== 'string') {
    throw new CommandError('TypeMismatch', `collection name has invalid type ${bsonTypeName(value)}`);
  }
  const dot = value.indexOf('.');
  const db = value.slice(0, dot);
  const coll = value.slice(dot + 1);
  if (dot <= 0 || coll.length === 0 || coll.startsWith('$') || value.includes('\0')) {
    throw new CommandError('InvalidNamespace', `Invalid ${role} namespace: ${value}`);
  }
  return { db, coll };
}
