// Update documents: operators, replacement and pipeline. (Naive first cut over mingo.)
import { update as mingoUpdate, aggregate } from 'mingo';
import type { Document } from './types.ts';
import { cloneValue } from './clone.ts';
import { CommandError } from '../errors.ts';

export interface UpdateContext {
  now: Date;
  arrayFilters?: Document[];
  variables?: Document;
}

export function isOperatorUpdate(u: Document): boolean {
  const first = Object.keys(u)[0];
  return first !== undefined && first.startsWith('$');
}

/** Returns the updated copy of `doc`; `doc` itself is never touched. */
export function applyUpdate(doc: Document, u: Document | Document[], ctx: UpdateContext): Document {
  const copy = cloneValue(doc);
  if (Array.isArray(u)) {
    return aggregate([copy], u, { variables: ctx.variables ?? {} })[0] as Document;
  }
  if (Object.keys(u).length === 0) {
    throw new CommandError('FailedToParse', 'Update document requires atomic operators');
  }
  if (isOperatorUpdate(u)) {
    mingoUpdate(copy, u, ctx.arrayFilters);
    return copy;
  }
  return { _id: doc._id, ...cloneValue(u) };
}
