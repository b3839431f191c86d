import { CommandError, codeNameOf } from '../errors.ts';
import type { Document } from '../engine/types.ts';

/** What one firing of `failCommand` does to the command it caught. */
export interface FailCommandAction {
  blockTimeMS?: number;
  closeConnection: boolean;
  errorCode?: number;
  /** Replaces mongod's automatic labels when given (even empty). */
  errorLabels?: string[];
  writeConcernError?: Document;
}

export interface FailCommandData {
  failCommands: string[];
  appName?: string;
  namespace?: string;
  failInternalCommands: boolean;
  action: FailCommandAction;
}

/** Validates `data` of `configureFailPoint: 'failCommand'` as mongod does before enabling it. */
export function parseFailCommandData(data: unknown): FailCommandData {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new CommandError('BadValue', "'data' must be an object for failCommand");
  }
  const d = data as Document;
  if (!Array.isArray(d.failCommands) || !d.failCommands.every((c) => typeof c === 'string')) {
    throw new CommandError('BadValue', "failCommand requires 'failCommands', an array of command names");
  }
  const action: FailCommandAction = { closeConnection: d.closeConnection === true };
  if (d.blockConnection === true) {
    const blockTimeMS = Number(d.blockTimeMS);
    if (!Number.isInteger(blockTimeMS) || blockTimeMS < 0) {
      throw new CommandError('BadValue', "'blockTimeMS' must be a non-negative integer when 'blockConnection' is true");
    }
    action.blockTimeMS = blockTimeMS;
  }
  if (d.errorCode !== undefined) action.errorCode = Number(d.errorCode);
  if (Array.isArray(d.errorLabels)) action.errorLabels = d.errorLabels.map(String);
  if (d.writeConcernError !== undefined) action.writeConcernError = d.writeConcernError as Document;
  return {
    failCommands: d.failCommands as string[],
    appName: typeof d.appName === 'string' ? d.appName : undefined,
    namespace: typeof d.namespace === 'string' ? d.namespace : undefined,
    failInternalCommands: d.failInternalCommands === true,
    action,
  };
}

/** The error reply failCommand answers with: any code, named as mongod names it. */
export function failCommandErrorReply(action: FailCommandAction): Document {
  const code = action.errorCode!;
  const reply: Document = {
    ok: 0,
    errmsg: "Failing command via 'failCommand' failpoint",
    code,
    codeName: codeNameOf(code),
  };
  if (action.errorLabels !== undefined) reply.errorLabels = action.errorLabels;
  return reply;
}
