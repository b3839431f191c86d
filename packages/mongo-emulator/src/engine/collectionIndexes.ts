// A collection's index DDL: createIndexes (mongod's conflict rules, and the build that refuses a
// unique index the documents already break) and dropIndexes. Both work on the collection's own
// index list in place; the caller counts the change (indexEpoch).
import { CommandError } from '../errors.ts';
import type { BTree } from './btree.ts';
import { valuesEqual } from './compare.ts';
import { formatDocument } from './format.ts';
import { Index } from './indexes.ts';
import { checkIndexSpec, indexOptionsEqual, listedSpec } from './indexSpec.ts';
import type { Document, IndexSpec } from './types.ts';

/** The collection an index DDL command works on: its namespace, documents and index list. */
export interface IndexedCollection {
  readonly db: string;
  readonly name: string;
  readonly records: BTree<number, Document>;
  /** Mutated in place. */
  readonly indexes: Index[];
}

/** Builds the indexes `specs` asks for that do not exist yet; all or none are added. */
export function createIndexes(
  target: IndexedCollection,
  specs: IndexSpec[],
): { numIndexesBefore: number; numIndexesAfter: number; note?: string } {
  const indexes = target.indexes;
  const numIndexesBefore = indexes.length;
  const fresh: Index[] = [];
  for (const spec of specs) {
    checkIndexSpec(spec);
    const existing = [...indexes, ...fresh];
    const sameName = existing.find((i) => i.name === spec.name);
    const sameKey = existing.filter((i) => valuesEqual(i.spec.key, spec.key));
    if (sameName) {
      if (valuesEqual(sameName.spec.key, spec.key) && indexOptionsEqual(sameName.spec, spec)) continue;
      if (valuesEqual(sameName.spec.key, spec.key)) {
        throw new CommandError(
          'IndexOptionsConflict',
          `An equivalent index already exists with the same name but different options. Requested index: ${formatDocument(listedSpec(spec))}, existing index: ${formatDocument(listedSpec(sameName.spec))}`,
        );
      }
      throw new CommandError(
        'IndexKeySpecsConflict',
        `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${formatDocument(listedSpec(spec))}, existing index: ${formatDocument(listedSpec(sameName.spec))}`,
      );
    }
    const twin = sameKey[0];
    if (twin && indexOptionsEqual(twin.spec, spec)) {
      throw new CommandError('IndexOptionsConflict', `Index already exists with a different name: ${twin.name}`);
    }
    if (twin && !twin.spec.partialFilterExpression && !spec.partialFilterExpression) {
      throw new CommandError(
        'IndexOptionsConflict',
        `An equivalent index already exists with a different name and options. Requested index: ${formatDocument(listedSpec(spec))}, existing index: ${formatDocument(listedSpec(twin.spec))}`,
      );
    }
    fresh.push(buildIndex(target, spec));
  }
  indexes.push(...fresh);
  const numIndexesAfter = indexes.length;
  return fresh.length === 0
    ? { numIndexesBefore, numIndexesAfter, note: 'all indexes already exist' }
    : { numIndexesBefore, numIndexesAfter };
}

/** Drops the named indexes (by name, key pattern, a list of names, or '*': all but _id_). */
export function dropIndexes(target: IndexedCollection, which: string | string[] | Document): { nIndexesWas: number } {
  const indexes = target.indexes;
  const nIndexesWas = indexes.length;
  if (which === '*') {
    indexes.splice(1);
    return { nIndexesWas };
  }
  const targets = (Array.isArray(which) ? which : [which]).map((w) => {
    const found =
      typeof w === 'string' ? indexes.find((i) => i.name === w) : indexes.find((i) => valuesEqual(i.spec.key, w));
    if (!found) {
      throw typeof w === 'string'
        ? new CommandError('IndexNotFound', `index not found with name [${w}]`)
        : new CommandError('IndexNotFound', `can't find index with key: ${formatDocument(w)}`);
    }
    if (found.name === '_id_') throw new CommandError('InvalidOptions', 'cannot drop _id index');
    return found;
  });
  for (const t of targets) indexes.splice(indexes.indexOf(t), 1);
  return { nIndexesWas };
}

function buildIndex(target: IndexedCollection, spec: IndexSpec): Index {
  const index = new Index(spec);
  for (const [id, doc] of target.records.entries()) {
    if (index.unique) {
      for (const key of index.keysOf(doc)) {
        if (index.findDuplicate(id, key) !== undefined) throw index.duplicateKeyError(target.db, target.name, key);
      }
    }
    index.insert(id, doc);
  }
  return index;
}
