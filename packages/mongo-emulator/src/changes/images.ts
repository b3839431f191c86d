// Pre- and post-images (mongod 6.0+): a collection with `changeStreamPreAndPostImages: {enabled:
// true}` records, with each update, replace and delete, the document as it was just before that
// change. A stream asking `fullDocumentBeforeChange` gets that pre-image; one asking `fullDocument:
// 'whenAvailable' | 'required'` gets an update's post-image, which mongod computes from the
// pre-image and the change, so it exists exactly when the pre-image does. A write made while the
// option was off has no images: null, or NoMatchingDocument (47) when the stream requires one
// (document_source_change_stream_add_pre_image.cpp / add_post_image.cpp).
import { cloneValue } from '../engine/clone.ts';
import { formatDocument } from '../engine/format.ts';
import type { ChangeRecord, Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import type { OplogEntry, OplogOperation } from './Oplog.ts';

type CrudOperation = Extract<OplogOperation, { op: 'crud' }>;
import type { FullDocumentBeforeChangeMode, FullDocumentMode } from './streamSpec.ts';

/** Whether a collection's options make its writes record images. */
export function recordsImages(options: Document | undefined): boolean {
  const setting = options?.changeStreamPreAndPostImages as Document | undefined;
  return setting?.enabled === true;
}

/** `fullDocumentBeforeChange` of an update, replace or delete event; undefined when the stream asks none. */
export function preImage(
  entry: OplogEntry,
  operation: CrudOperation,
  change: Exclude<ChangeRecord, { op: 'insert' }>,
  mode: FullDocumentBeforeChangeMode,
): Document | null | undefined {
  if (mode === 'off') return undefined;
  if (operation.imagesRecorded) return cloneValue(change.fullDocumentBefore);
  if (mode === 'required')
    throw imageNotFound('a pre-image for all update, delete and replace events', 'pre-image', entry, change);
  return null;
}

/** `fullDocument` of an update event for 'whenAvailable' and 'required': the document right after it. */
export function postImage(
  entry: OplogEntry,
  operation: CrudOperation,
  change: Extract<ChangeRecord, { op: 'update' }>,
  mode: Extract<FullDocumentMode, 'whenAvailable' | 'required'>,
): Document | null {
  if (operation.imagesRecorded) return cloneValue(change.fullDocument);
  if (mode === 'required') throw imageNotFound('a post-image for all update events', 'post-image', entry, change);
  return null;
}

function imageNotFound(what: string, image: string, entry: OplogEntry, change: ChangeRecord): CommandError {
  const event: Document = { operationType: change.op, ns: { db: change.db, coll: change.coll }, clusterTime: entry.ts };
  if (entry.txn) event.txnNumber = entry.txn.txnNumber;
  return new CommandError(
    'NoMatchingDocument',
    `Change stream was configured to require ${what}, but the ${image} was not found for event: ${formatDocument(event)}`,
  );
}
