import { Timestamp } from 'bson';
import type { Document } from '../../engine/types.ts';
import { CommandError } from '../../errors.ts';
import type { ClusterClock } from '../../session/ClusterClock.ts';
import { isPlainObject } from '../../engine/updatePath.ts';

const LEVELS: ReadonlySet<string> = new Set(['local', 'majority', 'linearizable', 'available', 'snapshot']);

/**
 * Checks `readConcern` as mongod's read_concern_args/read_concern_mongod do. Every write is
 * applied and majority-committed at once on this one node, so a valid `afterClusterTime` never
 * waits; one ahead of the node's clock is refused, as mongod refuses it.
 */
export function checkReadConcern(command: Document, clock: ClusterClock): void {
  const readConcern = command.readConcern;
  if (readConcern === undefined) return;
  if (!isPlainObject(readConcern)) throw new CommandError('FailedToParse', 'readConcern field should be an object');
  const { level, afterClusterTime } = readConcern;
  if (level !== undefined && !LEVELS.has(String(level))) {
    throw new CommandError(
      'BadValue',
      `Enumeration value '${String(level)}' for field 'readConcern.level' is not a valid value.`,
    );
  }
  if (afterClusterTime === undefined) return;
  if (!(afterClusterTime instanceof Timestamp)) {
    throw new CommandError(
      'TypeMismatch',
      "BSON field 'readConcern.afterClusterTime' is the wrong type, expected type 'timestamp'",
    );
  }
  if (level === 'linearizable')
    throw new CommandError('InvalidOptions', 'afterClusterTime is not allowed for linearizable read concern');
  const current = clock.now();
  if (afterClusterTime.greaterThan(current)) {
    throw new CommandError(
      'InvalidOptions',
      `readConcern afterClusterTime value must not be greater than the current clusterTime. Requested clusterTime: ${format(afterClusterTime)}; current clusterTime: ${format(current)}`,
    );
  }
}

function format(ts: Timestamp): string {
  return `Timestamp(${ts.t}, ${ts.i})`;
}
