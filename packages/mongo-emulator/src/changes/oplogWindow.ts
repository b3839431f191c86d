import type { Document } from '../engine/types.ts';
import type { Oplog } from './Oplog.ts';

/**
 * The oplog window, as serverStatus's `oplog` section names its ends (earliestOptime,
 * latestOptime), with the wall times and both bounds (entries, bytes): a change stream can resume from any point
 * inside it and from none before it.
 */
export function oplogWindowDocument(oplog: Oplog): Document {
  const window = oplog.window()!;
  return {
    earliestOptime: window.earliest.ts,
    latestOptime: window.latest.ts,
    earliestWallTime: window.earliest.wallTime,
    latestWallTime: window.latest.wallTime,
    entries: window.entries,
    maxEntries: window.maxEntries,
    sizeBytes: window.bytes,
    maxSizeBytes: window.maxBytes,
  };
}
