// The writing stages $out and $merge, applied by the catalog after the rest of the pipeline ran.
// $merge writes document by document through the target's normal write path (so unique indexes
// and observers see each write, and a `whenMatched: 'fail'` duplicate is a real E11000).
import { CommandError } from '../errors.ts';
import type { Collection } from './collection.ts';
import { isPlainObject } from './updatePath.ts';
import type { Document } from './types.ts';

export interface OutputTarget {
  db: string;
  coll: string;
}

/** The writing stage that ends a pipeline, if any; one anywhere else is refused. */
export function splitOutputStage(pipeline: Document[]): { body: Document[]; output?: Document } {
  pipeline.forEach((stage, i) => {
    const name = Object.keys(stage)[0];
    if ((name === '$out' || name === '$merge') && i !== pipeline.length - 1) {
      throw new CommandError('Location40601', `${name} can only be the final stage in the pipeline`);
    }
  });
  const last = pipeline[pipeline.length - 1];
  if (last && ('$out' in last || '$merge' in last)) return { body: pipeline.slice(0, -1), output: last };
  return { body: pipeline };
}

export function outputTarget(db: string, spec: unknown): OutputTarget {
  if (typeof spec === 'string') return { db, coll: spec };
  if (isPlainObject(spec) && typeof spec.coll === 'string')
    return { db: typeof spec.db === 'string' ? spec.db : db, coll: spec.coll };
  throw new CommandError('FailedToParse', 'the target of $out/$merge must be a collection name or {db, coll}');
}

function onFields(spec: Document): string[] {
  if (spec.on === undefined) return ['_id'];
  return Array.isArray(spec.on) ? spec.on.map(String) : [String(spec.on)];
}

/** Applies `$merge` of `docs` into `target`. */
export function mergeInto(target: Collection, spec: Document, docs: Document[]): void {
  const on = onFields(spec);
  const whenMatched = spec.whenMatched ?? 'merge';
  const whenNotMatched = spec.whenNotMatched ?? 'insert';
  for (const doc of docs) {
    const key = Object.fromEntries(on.map((f) => [f, doc[f] ?? null]));
    const existing = on.every((f) => doc[f] !== undefined) ? target.find(key, { limit: 1 })[0] : undefined;
    if (!existing) {
      if (whenNotMatched === 'insert') target.insertOne(doc);
      else if (whenNotMatched === 'fail') {
        throw new CommandError(
          'Location13113',
          '$merge could not find a matching document in the target collection for at least one document in the source collection',
        );
      }
      continue;
    }
    const { _id: _ignored, ...fields } = doc;
    const q = { _id: existing._id };
    if (whenMatched === 'fail') target.insertOne(doc);
    else if (whenMatched === 'replace') target.update({ q, u: fields });
    else if (whenMatched === 'merge') {
      if (Object.keys(fields).length > 0) target.update({ q, u: { $set: fields } });
    } else if (Array.isArray(whenMatched)) {
      target.update({ q, u: whenMatched as Document[], let: { ...(spec.let as Document | undefined), new: doc } });
    } else if (whenMatched !== 'keepExisting') {
      throw new CommandError(
        'BadValue',
        `Enumeration value '${String(whenMatched)}' for field '$merge.whenMatched' is not a valid value.`,
      );
    }
  }
}
