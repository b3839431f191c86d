import { currentOperations } from '../changes/index.ts';
import { compileFilter } from '../engine/match.ts';
import type { CommandDefinition } from './types.ts';

/** Fields of the command that are not part of its filter. */
const NOT_FILTER_FIELDS = new Set([
  'currentOp',
  '$all',
  '$ownOps',
  'comment',
  '$db',
  'lsid',
  '$clusterTime',
  '$readPreference',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
]);

/**
 * `currentOp`: the operations in progress that match the command's other fields as a filter.
 * Commands finish synchronously here, so what can be in progress is a change stream's getMore
 * waiting for events (idle cursors are listed only by `$currentOp` with `idleCursors: true`).
 */
export const currentOp: CommandDefinition = {
  names: ['currentOp'],
  adminOnly: true,
  run({ command, server }) {
    const filter = Object.fromEntries(Object.entries(command).filter(([field]) => !NOT_FILTER_FIELDS.has(field)));
    const clock = server.catalog.clock();
    const test = compileFilter(filter, { now: clock.now, clusterTime: clock.clusterTime });
    return { inprog: currentOperations(server.changeStreams, server.node.address, false).filter((op) => test(op)) };
  },
};
