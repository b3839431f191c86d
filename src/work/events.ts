import type { Db, Document } from 'mongodb';
import { WorkStatus, workItems, type WorkItemDoc } from './model.ts';
import type { ChangeFeed, FeedSpec } from '../fanout/index.ts';

// Work-item transitions as subscribers see them. Status, previousStatus and version come from the
// change itself (the inserted document, or `updateDescription.updatedFields`), never from a
// looked-up current document, so each event tells exactly the transition it stands for and
// events of one item arrive in version order (S1). The lookup only supplies `kind`, which never
// changes after creation, so the subscription can filter by it.

export interface WorkItemStatusEvent {
  itemId: string;
  kind: string;
  status: WorkStatus;
  previousStatus: WorkStatus | null;
  version: number;
  at: Date;
}

/** Inserts (creations) and updates that bumped `version` (transitions; heartbeats bump nothing). */
const TRANSITIONS_ONLY: Document[] = [
  {
    $match: {
      $or: [
        { operationType: 'insert' },
        { operationType: 'update', 'updateDescription.updatedFields.version': { $exists: true } },
      ],
    },
  },
  // Only what an event needs travels: payloads and results can be large.
  {
    $project: {
      operationType: 1,
      documentKey: 1,
      wallTime: 1,
      'updateDescription.updatedFields.status': 1,
      'updateDescription.updatedFields.previousStatus': 1,
      'updateDescription.updatedFields.version': 1,
      'updateDescription.updatedFields.updatedAt': 1,
      'fullDocument.kind': 1,
      'fullDocument.status': 1,
      'fullDocument.previousStatus': 1,
      'fullDocument.version': 1,
      'fullDocument.createdAt': 1,
    },
  },
];

export function workItemFeedSpec(db: Db): FeedSpec<WorkItemStatusEvent> {
  return {
    name: 'workItems',
    collection: db.collection(workItems(db).collectionName),
    pipeline: TRANSITIONS_ONLY,
    options: { fullDocument: 'updateLookup' },
    toEvent: toWorkItemStatusEvent,
  };
}

export function toWorkItemStatusEvent(change: Document): WorkItemStatusEvent | null {
  const itemId = String(change['documentKey']?._id);
  const doc = change['fullDocument'] as Partial<WorkItemDoc> | null | undefined;
  const wallTime = change['wallTime'] instanceof Date ? change['wallTime'] : new Date();
  if (change['operationType'] === 'insert') {
    if (!doc?.status || typeof doc.version !== 'number' || !doc.kind) return null;
    return {
      itemId,
      kind: doc.kind,
      status: doc.status,
      previousStatus: doc.previousStatus ?? null,
      version: doc.version,
      at: doc.createdAt ?? wallTime,
    };
  }
  const fields = change['updateDescription']?.updatedFields as Partial<WorkItemDoc> | undefined;
  if (!fields || typeof fields.version !== 'number' || !doc?.kind) return null;
  return {
    itemId,
    kind: doc.kind,
    // A field the write left unchanged is absent from updatedFields. Every transition copies the
    // old status into previousStatus, so either is unchanged only when old and new status are
    // equal, and the transition table has one such edge: PROCESSING → PROCESSING (a reclaim).
    status: fields.status ?? WorkStatus.PROCESSING,
    previousStatus: fields.previousStatus ?? WorkStatus.PROCESSING,
    version: fields.version,
    at: fields.updatedAt ?? wallTime,
  };
}

/** The work items' live feed, as its subscription reads it (the app's LiveFeeds, src/app/liveFeeds.ts, is one). */
export interface WorkItemFeeds {
  /** False when this process runs no watchers: a subscription is then refused. */
  readonly running: boolean;
  workItems: ChangeFeed<WorkItemStatusEvent>;
}
