import { abortTransaction } from './abortTransaction.ts';
import { aggregate } from './aggregate.ts';
import { buildInfo } from './buildInfo.ts';
import { collMod } from './collMod.ts';
import { collStats } from './collStats.ts';
import { commitTransaction } from './commitTransaction.ts';
import { configureFailPoint } from './configureFailPoint.ts';
import { connectionStatus } from './connectionStatus.ts';
import { count } from './count.ts';
import { create } from './create.ts';
import { createIndexes } from './createIndexes.ts';
import { currentOp } from './currentOp.ts';
import { deleteCommand } from './delete.ts';
import { distinct } from './distinct.ts';
import { drop } from './drop.ts';
import { dropDatabase } from './dropDatabase.ts';
import { dropIndexes } from './dropIndexes.ts';
import { endSessions } from './endSessions.ts';
import { find } from './find.ts';
import { findAndModify } from './findAndModify.ts';
import { getCmdLineOpts } from './getCmdLineOpts.ts';
import { getMore } from './getMore.ts';
import { getParameter } from './getParameter.ts';
import { setParameter } from './setParameter.ts';
import { shutdown } from './shutdown.ts';
import { hello } from './hello.ts';
import { hostInfo } from './hostInfo.ts';
import { insert } from './insert.ts';
import { killAllSessions } from './killAllSessions.ts';
import { killCursors } from './killCursors.ts';
import { killSessions } from './killSessions.ts';
import { listCollections } from './listCollections.ts';
import { listDatabases } from './listDatabases.ts';
import { listIndexes } from './listIndexes.ts';
import { ping } from './ping.ts';
import { refreshSessions } from './refreshSessions.ts';
import { renameCollection } from './renameCollection.ts';
import { replSetFreeze } from './replSetFreeze.ts';
import { replSetGetStatus } from './replSetGetStatus.ts';
import { replSetGetConfig } from './replSetGetConfig.ts';
import { replSetHeartbeat } from './replSetHeartbeat.ts';
import { replSetInitiate } from './replSetInitiate.ts';
import { replSetReconfig } from './replSetReconfig.ts';
import { replSetRequestVotes } from './replSetRequestVotes.ts';
import { replSetStepDown } from './replSetStepDown.ts';
import { replSetStepUp } from './replSetStepUp.ts';
import { replSetUpdatePosition } from './replSetUpdatePosition.ts';
import { serverStatus } from './serverStatus.ts';
import { update } from './update.ts';
import { whatsmyuri } from './whatsmyuri.ts';
import type { CommandDefinition } from './types.ts';

/** Every command the emulator answers, sorted by name. */
export const SUPPORTED_COMMANDS: readonly CommandDefinition[] = [
  abortTransaction,
  aggregate,
  buildInfo,
  collMod,
  collStats,
  commitTransaction,
  configureFailPoint,
  connectionStatus,
  count,
  create,
  createIndexes,
  currentOp,
  deleteCommand,
  distinct,
  drop,
  dropDatabase,
  dropIndexes,
  endSessions,
  find,
  findAndModify,
  getCmdLineOpts,
  getMore,
  getParameter,
  hello,
  hostInfo,
  insert,
  killAllSessions,
  killCursors,
  killSessions,
  listCollections,
  listDatabases,
  listIndexes,
  ping,
  refreshSessions,
  renameCollection,
  replSetFreeze,
  replSetGetConfig,
  replSetGetStatus,
  replSetHeartbeat,
  replSetInitiate,
  replSetReconfig,
  replSetRequestVotes,
  replSetStepDown,
  replSetStepUp,
  replSetUpdatePosition,
  serverStatus,
  setParameter,
  shutdown,
  update,
  whatsmyuri,
];

/**
 * Commands mongod has that the emulator refuses on purpose, with the reason given to the
 * client, so that the answer is CommandNotSupported rather than a misleading CommandNotFound.
 */
const UNSUPPORTED: Readonly<Record<string, string>> = Object.freeze({
  authenticate: 'mongo-emulator has no authentication',
  compact: 'mongo-emulator has no storage to compact',
  eval: 'server-side JavaScript is not supported',
  // The engine plans reads over indexes (engine/planner.ts) but keeps no plan tree to describe.
  explain: 'explain is not supported by mongo-emulator: its planner records no plan to report',
  getLog: 'mongo-emulator keeps no server log',
  mapReduce: 'mapReduce is not supported by mongo-emulator; use aggregate',
  saslContinue: 'mongo-emulator has no authentication',
  saslStart: 'mongo-emulator has no authentication',
});

export type CommandLookup =
  | { kind: 'supported'; definition: CommandDefinition }
  | { kind: 'unsupported'; reason: string }
  | { kind: 'unknown' };

export class CommandRegistry {
  private readonly byName = new Map<string, CommandDefinition>();

  constructor(definitions: readonly CommandDefinition[] = SUPPORTED_COMMANDS) {
    const canonical = definitions.map((d) => d.names[0]!.toLowerCase());
    if (canonical.some((name, i) => i > 0 && name < canonical[i - 1]!)) {
      throw new Error(`command registry must be sorted by name: ${canonical.join(', ')}`);
    }
    for (const definition of definitions) {
      for (const name of definition.names) {
        if (this.byName.has(name)) throw new Error(`command ${name} registered twice`);
        this.byName.set(name, definition);
      }
    }
  }

  /** Case-sensitive, as in mongod: only the aliases a definition lists are accepted. */
  lookup(name: string): CommandLookup {
    const definition = this.byName.get(name);
    if (definition) return { kind: 'supported', definition };
    const reason = Object.hasOwn(UNSUPPORTED, name) ? UNSUPPORTED[name] : undefined;
    if (reason !== undefined) return { kind: 'unsupported', reason };
    return { kind: 'unknown' };
  }

  /** Sorted names of every supported command (aliases included). */
  names(): string[] {
    return [...this.byName.keys()].sort();
  }
}
