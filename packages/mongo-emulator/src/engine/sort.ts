// Sorting documents as mongod does: by the sort pattern's fields in order, a missing field as
// null, and an array field by its smallest element ascending or its largest descending.
import { CommandError } from '../errors.ts';
import { compareValues } from './compare.ts';
import { valuesAtPath } from './match.ts';
import { toDouble } from './numeric.ts';
import { collationComparator } from './collation.ts';
import type { Collation, Document } from './types.ts';

export type DocumentComparator = (a: Document, b: Document) => number;

/** The value a document sorts by on one field, for one direction. */
export function sortKey(doc: Document, path: string, direction: number): unknown {
  const values = valuesAtPath(doc, path, true).filter((v) => !Array.isArray(v));
  const raw = valuesAtPath(doc, path, false);
  if (values.length === 0) return raw.some((v) => Array.isArray(v)) ? undefined : null;
  let best = values[0] === undefined ? null : values[0];
  for (const v of values) {
    const value = v === undefined ? null : v;
    const c = compareValues(value, best);
    if (direction > 0 ? c < 0 : c > 0) best = value;
  }
  return best;
}

export function compileSort(spec: Document, collation?: Collation): DocumentComparator {
  const cmp = collationComparator(collation);
  const fields = Object.entries(spec).map(([path, dir]) => {
    if (typeof dir === 'object' && dir !== null && '$meta' in dir) return { path, direction: 1 };
    const direction = toDouble(dir);
    if (direction !== 1 && direction !== -1) {
      throw new CommandError('BadValue', `$sort key ordering must be 1 (for ascending) or -1 (for descending)`);
    }
    return { path, direction };
  });
  if (fields.length === 0) throw new CommandError('BadValue', '$sort stage must have at least one sort key');
  return (a, b) => {
    for (const { path, direction } of fields) {
      const c = cmp(sortKey(a, path, direction), sortKey(b, path, direction));
      if (c !== 0) return direction * c;
    }
    return 0;
  };
}
