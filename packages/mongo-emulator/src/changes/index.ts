export { ChangeStreams, DEFAULT_AWAIT_DATA_TIMEOUT_MS, type ChangeStreamsOptions } from './ChangeStreams.ts';
export { isChangeStreamPipeline } from './streamSpec.ts';
export {
  createIndexesEvents,
  dropIndexesEvents,
  modifyEvent,
  viewCreateEvent,
  viewDropEvent,
} from './namespaceEvents.ts';
export { aggregateCurrentOp, currentOperations, isCurrentOpPipeline } from './currentOp.ts';
export { oplogWindowDocument } from './oplogWindow.ts';
export { aggregateOplog, findInOplog, isOplog, oplogCollectionInfo, oplogCollStats } from './oplogCollection.ts';
export type { Oplog, OplogEntry, OplogWindow, TransactionInfo } from './Oplog.ts';
