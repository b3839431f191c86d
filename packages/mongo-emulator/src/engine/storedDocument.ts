// The rule that lets versions share structure: a stored document, and everything reachable from
// it, is never mutated by anyone. An update builds the next version copy-on-write (updatePath.ts
// Draft), sharing every subtree it does not touch with the previous one, so a previous version
// stays valid as-is for change records, pre-images, transaction snapshots and write history.
// Whatever leaves the engine for a caller that may mutate it is a copy (cloneValue).
//
// With freezeDocuments (the catalog's option; the emulator's entry turns it on for
// EMULATOR_FREEZE_DOCUMENTS=1, which the test suite sets) each stored version is frozen, so a
// mutation anywhere throws a TypeError (ES modules are strict) at the culprit instead of
// corrupting history silently. Freezing stops at subtrees already frozen, so it costs what the
// write copied. bson class instances and Dates are left alone: nothing in the engine mutates them.
import { isPlainObject } from './updatePath.ts';
import type { Document } from './types.ts';

/** Marks `doc` as a stored version: from here on nobody may mutate it (frozen when `freeze`, the debug mode). */
export function storeVersion(doc: Document, freeze: boolean): Document {
  if (freeze) deepFreeze(doc);
  return doc;
}

function deepFreeze(value: unknown): void {
  if (!(Array.isArray(value) || isPlainObject(value)) || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
