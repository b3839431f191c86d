// The updateDescription of a change event, computed by diffing the document before and after,
// in the shape mongod derives from its v2 oplog diffs: dotted paths into embedded documents,
// `field.<index>` for changed array elements, truncatedArrays for arrays that shrank. Versions
// share untouched subtrees (storedDocument.ts), so a subtree held by both by reference is skipped
// unread, and updatedFields hold the new version's own (immutable) values, uncopied.
import { valuesEqual } from './compare.ts';
import { isPlainObject } from './updatePath.ts';
import type { ChangeRecord, Document } from './types.ts';

export interface UpdateDescription {
  updatedFields: Document;
  removedFields: string[];
  truncatedArrays: { field: string; newSize: number }[];
}

export function describeUpdate(before: Document, after: Document): UpdateDescription {
  const out: UpdateDescription = { updatedFields: {}, removedFields: [], truncatedArrays: [] };
  diffObjects(before, after, '', out);
  return out;
}

type UpdateChange = Extract<ChangeRecord, { op: 'update' }>;

// One descriptor for every record: its getter diffs the record's own versions on first read and
// keeps the result, so a write no stream ever reads is never diffed.
const lazyDescription: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: UpdateChange): UpdateDescription {
    const description = describeUpdate(this.fullDocumentBefore, this.fullDocument);
    Object.defineProperty(this, 'updateDescription', { value: description, enumerable: true });
    return description;
  },
};

/** The update record of `before` → `after`, whose updateDescription is diffed when first read. */
export function updateRecord(common: Omit<UpdateChange, 'op' | 'updateDescription'>): UpdateChange {
  const change = { op: 'update' as const, ...common };
  return Object.defineProperty(change, 'updateDescription', lazyDescription) as UpdateChange;
}

function diffObjects(before: Document, after: Document, prefix: string, out: UpdateDescription): void {
  for (const key of Object.keys(before)) {
    if (!(key in after)) out.removedFields.push(prefix + key);
  }
  for (const [key, value] of Object.entries(after)) {
    diffValues(before[key], value, prefix + key, out, key in before);
  }
}

function diffValues(old: unknown, value: unknown, path: string, out: UpdateDescription, existed: boolean): void {
  if (existed && (old === value || (valuesEqual(old, value) && typeof old === typeof value))) return;
  if (existed && isPlainObject(old) && isPlainObject(value)) {
    diffObjects(old, value, `${path}.`, out);
    return;
  }
  if (existed && Array.isArray(old) && Array.isArray(value)) {
    if (value.length < old.length) out.truncatedArrays.push({ field: path, newSize: value.length });
    value.forEach((el, i) => diffValues(old[i], el, `${path}.${i}`, out, i < old.length));
    return;
  }
  out.updatedFields[path] = value;
}
