// Shared helpers for engine tests: a catalog with a fixed clock, and error capture.
import { Timestamp } from 'bson';
import { Catalog } from '../../src/engine/catalog.ts';
import type { Collection } from '../../src/engine/collection.ts';
import type { CommandError } from '../../src/errors.ts';

export const FIXED_NOW = new Date('2024-05-01T12:00:00Z');
export const FIXED_CLUSTER_TIME = new Timestamp({ t: 1714564800, i: 7 });

export function newCatalog(): Catalog {
  // Frozen versions, as the suite's emulator runs them: a mutation of shared history throws.
  return new Catalog({ clock: () => ({ now: FIXED_NOW, clusterTime: FIXED_CLUSTER_TIME }), freezeDocuments: true });
}

export function newCollection(name = 'c'): Collection {
  return newCatalog().getOrCreateCollection('db', name);
}

/** The CommandError a call throws (fails the test when it does not throw). */
export function errorOf(fn: () => unknown): CommandError {
  try {
    fn();
  } catch (e) {
    return e as CommandError;
  }
  throw new Error('expected the call to throw');
}
