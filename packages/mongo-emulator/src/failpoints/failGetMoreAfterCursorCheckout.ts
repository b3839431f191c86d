import { CommandError, ErrorCodes } from '../errors.ts';
import type { Document } from '../engine/types.ts';

/**
 * mongod's `failGetMoreAfterCursorCheckout` (getmore_cmd.cpp): once a getMore holds its cursor
 * it fails with `errorCode` (InternalError when absent), and the cursor is deleted. It matches
 * clients as failCommand would for `getMore` (`appName`, `namespace`); it sets no error labels
 * of its own (mongod's label builder adds them, e.g. ResumableChangeStreamError), and ignores
 * `closeConnection`.
 */
export interface GetMoreFailureData {
  errorCode: number;
  appName?: string;
  namespace?: string;
}

export function parseGetMoreFailureData(data: unknown): GetMoreFailureData {
  if (data === undefined) return { errorCode: ErrorCodes.InternalError };
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new CommandError('BadValue', "'data' must be an object for failGetMoreAfterCursorCheckout");
  }
  const d = data as Document;
  return {
    errorCode: d.errorCode === undefined ? ErrorCodes.InternalError : Number(d.errorCode),
    appName: typeof d.appName === 'string' ? d.appName : undefined,
    namespace: typeof d.namespace === 'string' ? d.namespace : undefined,
  };
}

/** The error a getMore caught by the fail point answers with. */
export function getMoreFailure(errorCode: number): CommandError {
  return CommandError.withCode(errorCode, "Hit the 'failGetMoreAfterCursorCheckout' failpoint");
}
