// Query filters. (Naive first cut: mingo's Query; replaced by a MongoDB-exact matcher.)
import { Query } from 'mingo';
import type { Document } from './types.ts';

export type Predicate = (doc: Document) => boolean;

export interface MatchContext {
  now: Date;
  variables?: Document;
}

export function compileFilter(filter: Document, ctx: MatchContext): Predicate {
  const q = new Query(filter, { variables: ctx.variables ?? {} });
  return (doc) => q.test(doc);
}
