import type { Catalog } from '../../engine/catalog.ts';
import { compareValues } from '../../engine/compare.ts';
import type { Collation, Document, FindOptions } from '../../engine/types.ts';

// Reads of a view run as aggregations over its definition, as mongod rewrites find, count and
// distinct on a view into an aggregate.

export function findOnView(catalog: Catalog, db: string, view: string, filter: Document, options: FindOptions): Document[] {
  const pipeline: Document[] = [{ $match: filter }];
  if (options.sort) pipeline.push({ $sort: options.sort });
  if (options.skip) pipeline.push({ $skip: options.skip });
  if (options.limit) pipeline.push({ $limit: options.limit });
  if (options.projection && Object.keys(options.projection).length > 0) pipeline.push({ $project: options.projection });
  return catalog.aggregate(db, view, pipeline, { let: options.let, collation: options.collation });
}

export function countOnView(catalog: Catalog, db: string, view: string, query: Document, options: { skip?: number; limit?: number; collation?: Collation }): number {
  const pipeline: Document[] = [{ $match: query }];
  if (options.skip) pipeline.push({ $skip: options.skip });
  if (options.limit) pipeline.push({ $limit: options.limit });
  pipeline.push({ $count: 'n' });
  const [result] = catalog.aggregate(db, view, pipeline, { collation: options.collation });
  return Number(result?.n ?? 0);
}

export function distinctOnView(catalog: Catalog, db: string, view: string, key: string, query: Document, collation?: Collation): unknown[] {
  const pipeline: Document[] = [
    { $match: query },
    { $unwind: { path: `$${key}`, preserveNullAndEmptyArrays: true } },
    { $match: { [key]: { $exists: true } } }, // an empty array contributes nothing, an explicit null does
    { $group: { _id: null, values: { $addToSet: `$${key}` } } },
  ];
  const [result] = catalog.aggregate(db, view, pipeline, { collation });
  return ((result?.values as unknown[] | undefined) ?? []).sort(compareValues);
}
