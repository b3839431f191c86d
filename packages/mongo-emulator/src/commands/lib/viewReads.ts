import type { Catalog } from '../../engine/catalog.ts';
import { collationComparator } from '../../engine/collation.ts';
import { CommandError } from '../../errors.ts';
import type { Collation, Document, FindOptions } from '../../engine/types.ts';

// Reads of a view run as aggregations over its definition, as mongod rewrites find, count and
// distinct on a view into an aggregate.

/**
 * A read of a view runs with the view's default collation, which is always the simple one here
 * (views take no collation option); mongod refuses another (run_aggregate.cpp).
 */
export function checkViewCollation(collation: Collation | Document | undefined): void {
  if (collation !== undefined && collation.locale !== 'simple') {
    throw new CommandError('OptionNotSupportedOnView', "Cannot override a view's default collation");
  }
}

export function findOnView(
  catalog: Catalog,
  db: string,
  view: string,
  filter: Document,
  options: FindOptions,
): Document[] {
  checkViewCollation(options.collation);
  const pipeline: Document[] = [{ $match: filter }];
  if (options.sort) pipeline.push({ $sort: options.sort });
  if (options.skip) pipeline.push({ $skip: options.skip });
  if (options.limit) pipeline.push({ $limit: options.limit });
  if (options.projection && Object.keys(options.projection).length > 0) pipeline.push({ $project: options.projection });
  return catalog.aggregate(db, view, pipeline, { let: options.let, collation: options.collation });
}

export function countOnView(
  catalog: Catalog,
  db: string,
  view: string,
  query: Document,
  options: { skip?: number; limit?: number; collation?: Collation },
): number {
  checkViewCollation(options.collation);
  const pipeline: Document[] = [{ $match: query }];
  if (options.skip) pipeline.push({ $skip: options.skip });
  if (options.limit) pipeline.push({ $limit: options.limit });
  pipeline.push({ $count: 'n' });
  const [result] = catalog.aggregate(db, view, pipeline, { collation: options.collation });
  return Number(result?.n ?? 0);
}

export function distinctOnView(
  catalog: Catalog,
  db: string,
  view: string,
  key: string,
  query: Document,
  collation?: Collation,
): unknown[] {
  checkViewCollation(collation);
  const pipeline: Document[] = [
    { $match: query },
    { $unwind: { path: `$${key}`, preserveNullAndEmptyArrays: true } },
    { $match: { [key]: { $exists: true } } }, // an empty array contributes nothing, an explicit null does
    { $group: { _id: null, values: { $addToSet: `$${key}` } } },
  ];
  const [result] = catalog.aggregate(db, view, pipeline, { collation });
  // $addToSet kept values that differ by bytes; under the collation some of them are one value.
  const compare = collationComparator(collation);
  const values: unknown[] = [];
  for (const v of (result?.values as unknown[] | undefined) ?? [])
    if (!values.some((o) => compare(o, v) === 0)) values.push(v);
  return values.sort(compare);
}
