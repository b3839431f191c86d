// How a collection reads: plan the query over its indexes, walk the plan's candidates, filter,
// sort what the plan did not order, then skip and limit. Also count (with mongod's COUNT_SCAN
// when the index alone answers) and distinct. Reads change nothing; collection.ts copies what
// leaves the engine.
import { ObjectId, type Timestamp } from 'bson';
import type { BTree } from './btree.ts';
import { collationComparator } from './collation.ts';
import type { Index } from './indexes.ts';
import { compileFilter, valuesAtPath } from './match.ts';
import { planQuery, type Plan } from './planner.ts';
import { walkPlan } from './planWalk.ts';
import { compileSort } from './sort.ts';
import type { Collation, Document } from './types.ts';

/** What a read needs of its collection: the stored versions by record id, the indexes, the time. */
export interface ReadSource {
  readonly records: BTree<number, Document>;
  readonly indexes: readonly Index[];
  readonly clock: { now: Date; clusterTime: Timestamp };
}

export interface SelectOptions {
  sort?: Document;
  skip?: number;
  limit?: number;
  hint?: string | Document;
  collation?: Collation;
  let?: Document;
}

export interface CountOptions {
  skip?: number;
  limit?: number;
  hint?: string | Document;
  collation?: Collation;
}

export type Row = [recordId: number, doc: Document];

/** What a read examined: how tests and benchmarks see the planner at work. */
export interface ReadWork {
  lastExamined: number;
  /** The index the read walked, or undefined for a collection scan. */
  lastIndexUsed: string | undefined;
}

/** The rows a read selects (stored versions, not copies), in result order, with skip and limit applied. */
export function selectRows(source: ReadSource, filter: Document, options: SelectOptions, work: ReadWork): Row[] {
  const { clock } = source;
  const test = compileFilter(filter, {
    now: clock.now,
    clusterTime: clock.clusterTime,
    variables: options.let,
    collation: options.collation,
  });
  const sort = options.sort && Object.keys(options.sort).length > 0 ? options.sort : undefined;
  const variables = { NOW: clock.now, CLUSTER_TIME: clock.clusterTime, ...options.let };
  const plan = planQuery(filter, source.indexes as Index[], {
    sort,
    hint: options.hint,
    collation: options.collation,
    variables,
  });
  const skip = options.skip ?? 0;
  const limit = options.limit ?? 0;
  const stopAfter = limit > 0 && (!sort || plan.ordered) ? skip + limit : Infinity;
  const rows: Row[] = [];
  let examined = 0;
  for (const row of candidates(source.records, plan)) {
    examined++;
    if (test(row[1])) rows.push(row);
    if (rows.length >= stopAfter) break;
  }
  work.lastExamined = examined;
  work.lastIndexUsed = plan.index?.name;
  if (sort && !plan.ordered) {
    const cmp = compileSort(sort, options.collation);
    rows.sort((a, b) => cmp(a[1], b[1]));
  }
  return rows.slice(skip, limit > 0 ? skip + limit : undefined);
}

function* candidates(records: BTree<number, Document>, plan: Plan): Generator<Row> {
  if (!plan.index) {
    yield* records.entries();
    return;
  }
  for (const id of walkPlan(plan.index, plan)) yield [id, records.get(id)!];
}

/** The number of documents `filter` matches, by COUNT_SCAN when it can, else by reading them. */
export function countDocuments(source: ReadSource, filter: Document, options: CountOptions, work: ReadWork): number {
  return countKeys(source, filter, options, work) ?? selectRows(source, filter, options, work).length;
}

/**
 * mongod's COUNT_SCAN: a count whose filter is only equalities of scalars on the fields of one
 * plain index (not multikey, sparse, partial, collated or special) is the number of keys in the
 * index's ranges, with no document read. Undefined when the count needs the documents.
 */
function countKeys(source: ReadSource, filter: Document, options: CountOptions, work: ReadWork): number | undefined {
  const entries = Object.entries(filter);
  if (
    options.collation ||
    entries.length === 0 ||
    !entries.every(([key, value]) => !key.startsWith('$') && isCountableScalar(value))
  )
    return undefined;
  const plan = planQuery(filter, source.indexes as Index[], { hint: options.hint, variables: {} });
  const index = plan.index;
  if (!index || index.multikey || index.spec.sparse || index.spec.partialFilterExpression || index.spec.collation)
    return undefined;
  if (!Object.values(index.spec.key).every((direction) => typeof direction === 'number')) return undefined;
  // Equalities on a prefix of the index's fields are point bounds that say all the filter says.
  const prefix = new Set(index.fields.slice(0, entries.length).map(({ path }) => path));
  if (!entries.every(([key]) => prefix.has(key))) return undefined;
  const skip = options.skip ?? 0;
  const limit = options.limit ?? 0;
  const stopAfter = limit > 0 ? skip + limit : Infinity;
  // The tree's own range walk, counting: no key is compared or yielded one by one.
  let keys = 0;
  const counted = (): { break: true } | undefined => (++keys >= stopAfter ? { break: true } : undefined);
  for (const { start, end } of plan.ranges) {
    if (keys >= stopAfter) break;
    index.tree.forRange(start, end, true, counted);
  }
  work.lastExamined = keys;
  work.lastIndexUsed = index.name;
  return Math.max(0, limit > 0 ? Math.min(keys - skip, limit) : keys - skip);
}

/**
 * distinct as mongod answers it: values that compare equal under the collation are one value
 * (the first met stands for them), listed in the collation's order. Values are not copied.
 */
export function distinctValues(
  source: ReadSource,
  key: string,
  filter: Document,
  options: { collation?: Collation },
  work: ReadWork,
): unknown[] {
  const compare = collationComparator(options.collation);
  const out: unknown[] = [];
  for (const [, d] of selectRows(source, filter, options, work)) {
    for (const v of valuesAtPath(d, key, true)) {
      if (v === undefined || Array.isArray(v)) continue;
      if (!out.some((o) => compare(o, v) === 0)) out.push(v);
    }
  }
  return out.sort(compare);
}

/** A value an equality matches exactly as its index key: no arrays, documents, null, regex or NaN. */
function isCountableScalar(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return !Number.isNaN(value);
  return value instanceof ObjectId || (value instanceof Date && !Number.isNaN(value.getTime()));
}
