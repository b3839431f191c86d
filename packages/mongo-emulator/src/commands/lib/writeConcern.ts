import { CommandError } from '../../errors.ts';
import type { Document } from '../../engine/types.ts';

/** Data-bearing members of this replica set: the emulator is a one-node set. */
const DATA_BEARING_NODES = 1;

/**
 * Validates a command's writeConcern up front (a malformed one fails the command) and returns
 * the writeConcernError a one-node replica set attaches AFTER applying the write, if any: on
 * mongod, `w: 2+` and unknown tag modes are not refused before the write, they fail to be
 * satisfied after it (UnsatisfiableWriteConcern 100, UnknownReplWriteConcern 79).
 */
export function checkWriteConcern(command: Document): Document | undefined {
  const writeConcern = command.writeConcern;
  if (writeConcern === undefined) return undefined;
  if (writeConcern === null || typeof writeConcern !== 'object' || Array.isArray(writeConcern)) {
    throw new CommandError('FailedToParse', 'writeConcern must be an object');
  }
  const { w, j, wtimeout } = writeConcern as Document;
  if (j !== undefined && typeof j !== 'boolean' && typeof j !== 'number') {
    throw new CommandError('FailedToParse', 'j must be numeric or a boolean value');
  }
  if (wtimeout !== undefined && typeof wtimeout !== 'number' && typeof wtimeout !== 'bigint') {
    throw new CommandError('FailedToParse', 'wtimeout must be a number');
  }
  if (w === undefined || w === 'majority') return undefined;
  if (typeof w === 'number' || typeof w === 'bigint') {
    const nodes = Number(w);
    if (!Number.isInteger(nodes) || nodes < 0)
      throw new CommandError(
        'FailedToParse',
        `w has to be a non-negative number and not greater than 50; found: ${nodes}`,
      );
    if (nodes <= DATA_BEARING_NODES) return undefined;
    return failure('UnsatisfiableWriteConcern', 100, 'Not enough data-bearing nodes', writeConcern as Document);
  }
  if (typeof w === 'string') {
    return failure(
      'UnknownReplWriteConcern',
      79,
      `No write concern mode named '${w}' found in replica set configuration`,
      writeConcern as Document,
    );
  }
  throw new CommandError('FailedToParse', 'w has to be a number or string');
}

function failure(codeName: string, code: number, errmsg: string, writeConcern: Document): Document {
  const asked = { ...writeConcern, wtimeout: writeConcern.wtimeout ?? 0, provenance: 'clientSupplied' };
  return { code, codeName, errmsg, errInfo: { writeConcern: asked } };
}
