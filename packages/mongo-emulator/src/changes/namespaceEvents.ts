// The oplog entries of namespace commands that only `showExpandedEvents` streams report, with
// mongod 7.0's operationDescription (change_stream_event_transform.cpp): the `o` of the oplog
// entry less the command name, index specs wrapped in `indexes`.
import { cloneValue } from '../engine/clone.ts';
import type { Collection } from '../engine/collection.ts';
import type { Document } from '../engine/types.ts';
import type { OplogOperation } from './Oplog.ts';

type NamespaceEvent = Extract<OplogOperation, { op: 'create' | 'createIndexes' | 'dropIndexes' | 'modify' }>;

const ID_INDEX = { v: 2, key: { _id: 1 }, name: '_id_' };

export function createEvent(collection: Collection): NamespaceEvent {
  return {
    ...target(collection),
    op: 'create',
    operationDescription: { ...cloneValue(collection.options), idIndex: ID_INDEX },
  };
}

/**
 * New indexes as listed by listIndexes: one entry per index on an empty collection (mongod's
 * direct createIndexes), one for all of them after a two-phase build (commitIndexBuild).
 */
export function createIndexesEvents(collection: Collection, created: Document[], wasEmpty: boolean): NamespaceEvent[] {
  if (created.length === 0) return [];
  const groups = wasEmpty ? created.map((spec) => [spec]) : [created];
  return groups.map((indexes) => ({ ...target(collection), op: 'createIndexes', operationDescription: { indexes } }));
}

/** One entry per dropped index, as mongod logs them. */
export function dropIndexesEvents(collection: Collection, dropped: Document[]): NamespaceEvent[] {
  return dropped.map((spec) => ({
    ...target(collection),
    op: 'dropIndexes',
    operationDescription: { indexes: [spec] },
  }));
}

/** collMod: what it set, and the collection's options before it (o2.collectionOptions_old). */
export function modifyEvent(collection: Collection, changes: Document, optionsBefore: Document): NamespaceEvent {
  return {
    ...target(collection),
    op: 'modify',
    operationDescription: cloneValue(changes),
    stateBeforeChange: { collectionOptions: { uuid: collection.uuid, ...optionsBefore } },
  };
}

function target(collection: Collection): { db: string; coll: string; collectionUUID: Collection['uuid'] } {
  return { db: collection.db, coll: collection.name, collectionUUID: collection.uuid };
}

/** A view's creation, described as mongod describes it: its viewOn and pipeline, no UUID. */
export function viewCreateEvent(
  db: string,
  name: string,
  view: { viewOn: string; pipeline: Document[] },
): Extract<OplogOperation, { view: true }> {
  return {
    op: 'create',
    db,
    coll: name,
    collectionUUID: undefined,
    operationDescription: { viewOn: view.viewOn, pipeline: cloneValue(view.pipeline) },
    view: true,
  };
}

/** A view's drop: a `drop` event, reported only where its creation is. */
export function viewDropEvent(db: string, name: string): Extract<OplogOperation, { view: true }> {
  return { op: 'drop', db, coll: name, collectionUUID: undefined, view: true };
}
