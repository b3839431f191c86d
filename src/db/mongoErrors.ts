import { MongoBulkWriteError, MongoServerError } from 'mongodb';

// mongod's code for a unique-index violation (error_codes.yml: DuplicateKey).
const duplicateKeyCode = 11000;

export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === duplicateKeyCode;
}

/** True when every write of a failed insertMany hit an existing key, and nothing else went wrong. */
export function isOnlyDuplicateKeys(error: unknown): boolean {
  if (!(error instanceof MongoBulkWriteError)) return isDuplicateKey(error);
  if (error.writeConcernError) return false;
  return [error.writeErrors].flat().every((writeError) => writeError.code === duplicateKeyCode);
}
