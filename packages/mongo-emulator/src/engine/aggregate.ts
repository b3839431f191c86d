// Aggregation pipelines. (Naive first cut over mingo.)
import type { Timestamp } from 'bson';
import { aggregate } from 'mingo';
import { CommandError } from '../errors.ts';
import type { Document } from './types.ts';

export interface PipelineContext {
  now: Date;
  clusterTime: Timestamp;
  variables?: Document;
  /** Documents of another collection of the same database, for $lookup. */
  resolve(name: string): Document[];
}

export function aggregateDocuments(source: Document[], pipeline: Document[], ctx: PipelineContext): Document[] {
  for (const stage of pipeline) {
    const name = Object.keys(stage)[0] ?? '';
    if (!KNOWN_STAGES.has(name)) {
      throw new CommandError('Location40324', `Unrecognized pipeline stage name: '${name}'`);
    }
  }
  return aggregate(source, pipeline, {
    variables: { ...ctx.variables, NOW: ctx.now, CLUSTER_TIME: ctx.clusterTime },
    collectionResolver: ctx.resolve,
  }) as Document[];
}

const KNOWN_STAGES = new Set([
  '$match', '$project', '$addFields', '$set', '$unset', '$sort', '$limit', '$skip', '$group', '$count',
  '$lookup', '$unwind', '$replaceRoot', '$replaceWith', '$facet', '$sortByCount', '$bucket', '$sample',
  '$documents',
]);
