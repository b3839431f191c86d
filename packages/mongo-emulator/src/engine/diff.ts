// The update record of a change: its `$v: 2` oplog delta (deltaDiff.ts) and the change-stream
// updateDescription read back from that delta, as mongod derives the event from the oplog entry
// (change_stream_event_transform.cpp, change_stream_document_diff_parser.cpp). Both are made on
// first read and kept: the oplog reads the delta when it logs the write (for its size), a stream
// reads the description only when one reports the event.
import { deltaFromLog, deltaFromVersions, describeDelta, type UpdateDescription, type UpdateLog } from './deltaDiff.ts';
import type { ChangeRecord, Document } from './types.ts';

export type { UpdateDescription } from './deltaDiff.ts';

type UpdateChange = Extract<ChangeRecord, { op: 'update' }>;

/** The records an operator update logged, kept for its delta; absent for pipeline updates. */
const logs = new WeakMap<object, UpdateLog>();

const lazyDelta: PropertyDescriptor = {
  enumerable: false,
  configurable: true,
  get(this: UpdateChange): Document {
    const log = logs.get(this);
    const delta = log ? deltaFromLog(this.fullDocument, log) : (deltaFromVersions(this.fullDocumentBefore, this.fullDocument) ?? {});
    Object.defineProperty(this, 'delta', { value: delta, enumerable: false });
    return delta;
  },
};

const lazyDescription: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: UpdateChange): UpdateDescription {
    const description = describeDelta(this.delta);
    Object.defineProperty(this, 'updateDescription', { value: description, enumerable: true });
    return description;
  },
};

/** The record of a transaction's update as the commit applies it: it logs the transaction's delta. */
export function replayedRecord(common: Omit<UpdateChange, 'op' | 'updateDescription' | 'delta'>, original: UpdateChange): ChangeRecord {
  const change = { op: 'update' as const, ...common };
  Object.defineProperty(change, 'delta', { value: original.delta, enumerable: false });
  return Object.defineProperty(change, 'updateDescription', lazyDescription) as UpdateChange;
}

/**
 * The update record of `before` → `after`. `log` holds what an operator update logged; without
 * it (a pipeline) the versions are diffed. A pipeline whose diff would not be smaller than the new
 * document is logged as a replacement, and reported as one (pipeline_executor.cpp).
 */
export function updateRecord(common: Omit<UpdateChange, 'op' | 'updateDescription' | 'delta'>, log: UpdateLog | undefined): ChangeRecord {
  if (!log) {
    const delta = deltaFromVersions(common.fullDocumentBefore, common.fullDocument);
    if (!delta) return { op: 'replace', ...common };
    const change = { op: 'update' as const, ...common };
    Object.defineProperty(change, 'delta', { value: delta, enumerable: false });
    return Object.defineProperty(change, 'updateDescription', lazyDescription) as UpdateChange;
  }
  const change = { op: 'update' as const, ...common };
  logs.set(change, log);
  Object.defineProperty(change, 'delta', lazyDelta);
  return Object.defineProperty(change, 'updateDescription', lazyDescription) as UpdateChange;
}
