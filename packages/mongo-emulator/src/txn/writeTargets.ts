import type { Catalog } from '../engine/catalog.ts';
import type { Collection } from '../engine/collection.ts';
import type { Document } from '../engine/types.ts';
import { idKeyOf, keysOfDocuments, uniqueIndexesOf, type LockKey } from './lockKeys.ts';

/**
 * The unique-index keys a plain (non-transactional) write command is about to touch, found
 * before it runs: the keys of the documents its filters select now, of the documents it
 * inserts, and the _id an upsert would create. Used to wait for transactions holding them.
 */
export function writeTargets(catalog: Catalog, db: string, name: string, command: Document): LockKey[] {
  const coll = command[name];
  if (typeof coll !== 'string') return [];
  const ns = `${db}.${coll}`;
  const collection = catalog.getCollection(db, coll);
  const indexes = uniqueIndexesOf(collection);
  const keys: LockKey[] = [];
  const select = (filter: unknown, options: { limit: number; sort?: Document }, upsert: boolean) => {
    const found = safeFind(collection, filter, options);
    keys.push(...keysOfDocuments(ns, indexes, found));
    const id = (filter as Document | null)?._id;
    if (found.length === 0 && upsert && id !== undefined && !isOperatorObject(id)) keys.push(idKeyOf(ns, id));
  };
  switch (name) {
    case 'insert':
      keys.push(...keysOfDocuments(ns, indexes, listOf(command.documents)));
      break;
    case 'update':
      for (const s of listOf(command.updates)) select(s.q, { limit: s.multi ? 0 : 1 }, s.upsert === true);
      break;
    case 'delete':
      for (const s of listOf(command.deletes)) select(s.q, { limit: Number(s.limit) === 1 ? 1 : 0 }, false);
      break;
    case 'findAndModify':
    case 'findandmodify':
      select(command.query ?? {}, { limit: 1, sort: command.sort as Document | undefined }, command.upsert === true);
      break;
  }
  return keys;
}

function safeFind(
  collection: Collection | undefined,
  filter: unknown,
  options: { limit: number; sort?: Document },
): Document[] {
  if (!collection || filter === null || typeof filter !== 'object') return [];
  try {
    return collection.find(filter as Document, options);
  } catch {
    // An invalid filter fails the command itself, with mongod's error; it touches nothing.
    return [];
  }
}

function listOf(value: unknown): Document[] {
  return Array.isArray(value) ? value.filter((v): v is Document => v !== null && typeof v === 'object') : [];
}

function isOperatorObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && Object.keys(value).some((k) => k.startsWith('$'));
}
