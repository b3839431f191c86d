import type { Document } from '../../engine/types.ts';

/** Fields any command may carry (mongod's generic_argument.idl) that are not its own options. */
const GENERIC_ARGUMENTS: ReadonlySet<string> = new Set([
  '$db',
  'lsid',
  'txnNumber',
  'autocommit',
  'startTransaction',
  'readConcern',
  '$clusterTime',
  'writeConcern',
  'comment',
  '$readPreference',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'maxTimeMS',
]);

/** The command's own options: every field but its name and the generic arguments. */
export function ownOptions(command: Document, name: string): Document {
  return Object.fromEntries(Object.entries(command).filter(([key]) => key !== name && !GENERIC_ARGUMENTS.has(key)));
}
