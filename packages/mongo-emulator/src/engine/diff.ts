// The update record of a change: its `$v: 2` oplog delta (deltaDiff.ts) and the change-stream
// updateDescription read back from that delta, as mongod derives the event from the oplog entry
// (change_stream_event_transform.cpp, change_stream_document_diff_parser.cpp). Both are made on
// first read and kept: the oplog reads the delta when it logs the write (for its size), a stream
// reads the description only when one reports the event. A class with prototype getters: a
// per-record defineProperty cost each write more than the delta itself.
import { deltaFromLog, deltaFromVersions, describeDelta, type UpdateDescription, type UpdateLog } from './deltaDiff.ts';
import type { ChangeRecord, Document } from './types.ts';

export type { UpdateDescription } from './deltaDiff.ts';

type UpdateChange = Extract<ChangeRecord, { op: 'update' }>;
type Common = Omit<UpdateChange, 'op' | 'updateDescription' | 'delta'>;

class UpdateRecord implements UpdateChange {
  readonly op = 'update' as const;
  readonly db: string;
  readonly coll: string;
  readonly documentKey: Document;
  readonly fullDocumentBefore: Document;
  readonly fullDocument: Document;
  /** What the operators logged; undefined once the delta is made, or for a given delta. */
  #log: UpdateLog | undefined;
  #delta: Document | undefined;
  #description: UpdateDescription | undefined;

  constructor(common: Common, log: UpdateLog | undefined, delta: Document | undefined) {
    this.db = common.db;
    this.coll = common.coll;
    this.documentKey = common.documentKey;
    this.fullDocumentBefore = common.fullDocumentBefore;
    this.fullDocument = common.fullDocument;
    this.#log = log;
    this.#delta = delta;
  }

  get delta(): Document {
    if (this.#delta === undefined) {
      this.#delta = deltaFromLog(this.fullDocument, this.#log!);
      this.#log = undefined;
    }
    return this.#delta;
  }

  get updateDescription(): UpdateDescription {
    return (this.#description ??= describeDelta(this.delta));
  }
}

/**
 * The update record of `before` → `after`. `log` holds what an operator update logged; without
 * it (a pipeline) the versions are diffed. A pipeline whose diff would not be smaller than the new
 * document is logged as a replacement, and reported as one (pipeline_executor.cpp).
 */
export function updateRecord(common: Common, log: UpdateLog | undefined): ChangeRecord {
  if (log) return new UpdateRecord(common, log, undefined);
  const delta = deltaFromVersions(common.fullDocumentBefore, common.fullDocument);
  return delta ? new UpdateRecord(common, undefined, delta) : { op: 'replace', ...common };
}
