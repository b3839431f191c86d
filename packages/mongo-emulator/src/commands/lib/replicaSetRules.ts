// Where a command may run on a replica-set member, as mongod's Command::secondaryAllowed
// (AllowedOnSecondary kNever / kOptIn / kAlways) and service_entry_point_common.cpp's checks:
// writes only on the primary (NotWritablePrimary), reads on a secondary only with secondaryOk
// (NotPrimaryNoSecondaryOk), and neither on a member that is not primary or secondary
// (NotPrimaryOrSecondary). Everything else (hello, replSet*, getMore, killCursors, fail points...)
// runs anywhere.
import type { Document } from '../../engine/types.ts';
import { CommandError } from '../../errors.ts';
import { MemberState } from '../../repl/memberState.ts';
import type { ReplCoordinator } from '../../repl/ReplCoordinator.ts';

const NEVER_ON_SECONDARY: ReadonlySet<string> = new Set([
  'abortTransaction',
  'appendOplogNote',
  'collMod',
  'commitTransaction',
  'create',
  'createIndexes',
  'delete',
  'drop',
  'dropDatabase',
  'dropIndexes',
  'findAndModify',
  'insert',
  'renameCollection',
  'update',
]);
const OPT_IN_ON_SECONDARY: ReadonlySet<string> = new Set([
  'aggregate',
  'collStats',
  'count',
  'dbStats',
  'distinct',
  'find',
  'listCollections',
  'listDatabases',
  'listIndexes',
]);

/** secondaryOk, as mongod reads it off an OP_MSG: a read preference other than primary. */
export function secondaryOk(command: Document): boolean {
  const readPreference = command.$readPreference as Document | undefined;
  return readPreference !== undefined && readPreference.mode !== 'primary';
}

export function checkCanRunHere(repl: ReplCoordinator, name: string, command: Document): void {
  if (repl.isPrimary) return;
  if (NEVER_ON_SECONDARY.has(name) || (name === 'aggregate' && writesOut(command)))
    throw new CommandError('NotWritablePrimary', 'not primary');
  if (!OPT_IN_ON_SECONDARY.has(name)) return;
  if (repl.state !== MemberState.SECONDARY)
    throw new CommandError('NotPrimaryOrSecondary', 'node is not in primary or recovering state');
  if (!secondaryOk(command)) throw new CommandError('NotPrimaryNoSecondaryOk', 'not primary and secondaryOk=false');
}

function writesOut(command: Document): boolean {
  const pipeline = command.pipeline as Document[] | undefined;
  const last = pipeline?.[pipeline.length - 1];
  return last !== undefined && ('$out' in last || '$merge' in last);
}
