// find() projections. (Naive first cut over mingo.)
import { find } from 'mingo';
import type { Document } from './types.ts';

export function project(doc: Document, projection: Document | undefined): Document {
  if (!projection || Object.keys(projection).length === 0) return doc;
  return find([doc], {}, projection).all()[0] as Document;
}
