// Aggregation pipelines, run by mingo with MongoDB-exact $match and $sort and the expression
// overrides of expression.ts. Stage names are checked first so an unknown stage fails as mongod.
import type { Timestamp } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { Context } from 'mingo/core';
import { Lazy, type Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { CommandError } from '../errors.ts';
import { bindSystemVariables, computeOptions, engineContext, translateMingoErrors } from './expression.ts';
import { compileFilter } from './match.ts';
import { cloneValue } from './clone.ts';
import { compileSort } from './sort.ts';
import { isPlainObject } from './updatePath.ts';
import type { Collation, Document } from './types.ts';

export interface PipelineContext {
  now: Date;
  clusterTime: Timestamp;
  variables?: Document;
  collation?: Collation;
  /** Documents of another collection of the same database, for $lookup. */
  resolve(name: string): Document[];
}

const SUPPORTED_STAGES = new Set([
  '$match',
  '$project',
  '$addFields',
  '$set',
  '$unset',
  '$sort',
  '$limit',
  '$skip',
  '$group',
  '$count',
  '$lookup',
  '$unwind',
  '$replaceRoot',
  '$replaceWith',
  '$facet',
  '$sortByCount',
  '$bucket',
  '$bucketAuto',
  '$sample',
  '$documents',
  '$unionWith',
  '$redact',
  '$graphLookup',
  '$setWindowFields',
  '$densify',
  '$fill',
]);

/** Writing stages: recognised, but applied by the catalog rather than here. */
const OUTPUT_STAGES = new Set(['$out', '$merge']);

function checkStages(pipeline: Document[]): void {
  for (const stage of pipeline) {
    const names = Object.keys(stage);
    if (names.length !== 1) {
      throw new CommandError('Location40323', 'A pipeline stage specification object must contain exactly one field.');
    }
    const name = names[0]!;
    if (OUTPUT_STAGES.has(name)) {
      throw new CommandError('Location40601', `${name} can only be the final stage in the pipeline`);
    }
    if (!SUPPORTED_STAGES.has(name)) {
      throw new CommandError('Location40324', `Unrecognized pipeline stage name: '${name}'`);
    }
  }
}

/** The context of the aggregation being run: the overrides below read it (runs are synchronous). */
let active: PipelineContext | undefined;

function activeContext(): PipelineContext {
  if (!active) throw new Error('pipeline operator used outside aggregateDocuments');
  return active;
}

// Built once: the overrides find the run's clock and collation through `active`, so no context
// (a copy of every operator table) is made per aggregation.
const pipelineContext = Context.from(
  Context.init({
    pipeline: {
      $match: (coll: Iterator, filter: Document, options: Options) => {
        const ctx = activeContext();
        // $lookup's `let` variables live in the compute options' locals.
        const locals = (options as { local?: { variables?: Document } }).local?.variables;
        const variables = { ...options.variables, ...locals };
        const test = compileFilter(filter, {
          now: ctx.now,
          clusterTime: ctx.clusterTime,
          variables,
          collation: ctx.collation,
        });
        return coll.filter((doc) => test(doc as Document));
      },
      $sort: (coll: Iterator, spec: Document, _options: Options) => {
        const cmp = compileSort(spec, activeContext().collation);
        return coll.transform((docs) => Lazy((docs as Document[]).sort(cmp)));
      },
    },
  }),
  engineContext,
);

/**
 * $bucket as the $group + $sort it is defined to be (mingo files a value equal to an inner
 * boundary into the bucket below it).
 */
function expandBucket(spec: Document): Document[] {
  const bounds = spec.boundaries as unknown[];
  const branches = bounds.slice(0, -1).map((low, i) => ({
    case: { $and: [{ $gte: [spec.groupBy, low] }, { $lt: [spec.groupBy, bounds[i + 1]] }] },
    then: low,
  }));
  const id = { $switch: { branches, ...(spec.default !== undefined ? { default: spec.default } : {}) } };
  const output = (spec.output as Document | undefined) ?? { count: { $sum: 1 } };
  return [{ $group: { _id: id, ...output } }, { $sort: { _id: 1 } }];
}

function rewriteStages(pipeline: Document[]): Document[] {
  return pipeline.flatMap((stage) => ('$bucket' in stage ? expandBucket(stage.$bucket as Document) : [stage]));
}

export function aggregateDocuments(source: Document[], pipeline: Document[], ctx: PipelineContext): Document[] {
  checkStages(pipeline);
  const bound = bindSystemVariables(rewriteStages(pipeline), { now: ctx.now, clusterTime: ctx.clusterTime });
  const outer = active;
  active = ctx;
  try {
    return translateMingoErrors(
      () =>
        new Aggregator(
          bound,
          computeOptions(pipelineContext, { variables: { ...ctx.variables }, collectionResolver: ctx.resolve }),
        ).run(source) as Document[],
    );
  } finally {
    active = outer;
  }
}

/**
 * A pipeline prepared once and run on one document at a time: a change stream's, per event.
 * Leading `$match` stages that need no clock or variables are compiled once, and a final
 * `$project` that only includes paths is applied directly; anything else runs as
 * `aggregateDocuments`. Returns undefined when the document is filtered out.
 */
export function compileEventPipeline(
  pipeline: Document[],
): (doc: Document, ctx: PipelineContext) => Document | undefined {
  checkStages(pipeline);
  const tests: Array<(doc: Document) => boolean> = [];
  let i = 0;
  for (; i < pipeline.length && '$match' in pipeline[i]! && isStatic(pipeline[i]!.$match); i++) {
    try {
      tests.push(compileFilter(pipeline[i]!.$match as Document, { now: new Date(0), clusterTime: undefined }));
    } catch {
      break; // an invalid filter fails where it always did: when the first event meets it
    }
  }
  let rest = pipeline.slice(i);
  const last = rest.length === 1 ? (rest[0]!.$project as Document | undefined) : undefined;
  const include = isPlainObject(last) ? compileInclusion(last) : undefined;
  if (include) rest = [];
  return (doc, ctx) => {
    for (const test of tests) if (!test(doc)) return undefined;
    if (include) return include(doc);
    return rest.length === 0 ? doc : aggregateDocuments([cloneValue(doc)], rest, ctx)[0];
  };
}

/** No `$expr`, `$where` or `$$` variable anywhere: the filter means the same at any time. */
function isStatic(value: unknown): boolean {
  if (typeof value === 'string') return !value.startsWith('$$');
  if (Array.isArray(value)) return value.every(isStatic);
  if (isPlainObject(value))
    return Object.entries(value).every(
      ([key, v]) => key !== '$expr' && key !== '$where' && key !== '$function' && isStatic(v),
    );
  return true;
}

type InclusionTree = Map<string, true | InclusionTree>;

/**
 * An inclusion-only `$project` (every value 1 or true, `_id` possibly 0/false), as a function;
 * undefined for anything else (computed fields, exclusions, path collisions), which mingo runs.
 * The output keeps the input document's field order, as mongod's inclusion projection does.
 */
function compileInclusion(spec: Document): ((doc: Document) => Document) | undefined {
  const tree: InclusionTree = new Map();
  let keepId = true;
  let included = 0;
  for (const [path, value] of Object.entries(spec)) {
    const on = value === true || value === 1;
    const off = value === false || value === 0;
    if (path === '_id' && off) {
      keepId = false;
      continue;
    }
    const parts = path.split('.');
    if (!on || parts.some((part) => part === '' || part.startsWith('$'))) return undefined;
    let node = tree;
    for (const [n, part] of parts.entries()) {
      const existing = node.get(part);
      if (n === parts.length - 1) {
        if (existing !== undefined) return undefined; // a path collision: mongod's error, which mingo's path reports
        node.set(part, true);
      } else {
        if (existing === true) return undefined;
        const child: InclusionTree = existing ?? new Map();
        node.set(part, child);
        node = child;
      }
    }
    included += 1;
  }
  if (included === 0) return undefined;
  return (doc) => includeFields(doc, tree, keepId);
}

function includeFields(doc: Document, tree: InclusionTree, keepId: boolean): Document {
  const out: Document = {};
  for (const key of Object.keys(doc)) {
    const node = tree.get(key);
    if (node === undefined) {
      if (keepId && key === '_id') out._id = doc._id;
      continue;
    }
    const value = doc[key];
    if (node === true) out[key] = value;
    else if (isPlainObject(value)) out[key] = includeFields(value, node, false);
    else if (Array.isArray(value)) out[key] = includeInArray(value, node);
  }
  return out;
}

/** Through an array, a sub-path keeps the documents (projected) and nested arrays, and drops scalars. */
function includeInArray(values: unknown[], tree: InclusionTree): unknown[] {
  const out: unknown[] = [];
  for (const value of values) {
    if (isPlainObject(value)) out.push(includeFields(value, tree, false));
    else if (Array.isArray(value)) out.push(includeInArray(value, tree));
  }
  return out;
}
