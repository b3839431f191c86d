// Aggregation pipelines, run by mingo with MongoDB-exact $match and $sort and the expression
// overrides of expression.ts. Stage names are checked first so an unknown stage fails as mongod.
import type { Timestamp } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { Context } from 'mingo/core';
import { Lazy, type Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { CommandError } from '../errors.ts';
import { bindSystemVariables, engineContext, translateMingoErrors } from './expression.ts';
import { compileFilter } from './match.ts';
import { compileSort } from './sort.ts';
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
  '$match', '$project', '$addFields', '$set', '$unset', '$sort', '$limit', '$skip', '$group', '$count',
  '$lookup', '$unwind', '$replaceRoot', '$replaceWith', '$facet', '$sortByCount', '$bucket', '$bucketAuto',
  '$sample', '$documents', '$unionWith', '$redact', '$graphLookup', '$setWindowFields', '$densify', '$fill',
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

function pipelineOverrides(ctx: PipelineContext): Context {
  return Context.init({
    pipeline: {
      $match: (coll: Iterator, filter: Document, options: Options) => {
        // $lookup's `let` variables live in the compute options' locals.
        const locals = (options as { local?: { variables?: Document } }).local?.variables;
        const variables = { ...options.variables, ...locals };
        const test = compileFilter(filter, { now: ctx.now, clusterTime: ctx.clusterTime, variables, collation: ctx.collation });
        return coll.filter((doc) => test(doc as Document));
      },
      $sort: (coll: Iterator, spec: Document, _options: Options) => {
        const cmp = compileSort(spec, ctx.collation);
        return coll.transform((docs) => Lazy((docs as Document[]).sort(cmp)));
      },

    },
  });
}

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
  return translateMingoErrors(() =>
    new Aggregator(bound, {
      context: Context.from(pipelineOverrides(ctx), engineContext),
      variables: { ...ctx.variables },
      collectionResolver: ctx.resolve,
    }).run(source) as Document[],
  );
}
