import type { ClientSession } from 'mongodb';
import { DbLimits } from './limits.ts';
import { isMaxTimeExpired } from './mongoErrors.ts';

/** How a read runs: every feature's read takes these, and the GraphQL layer builds them per request (`readOptions(ctx)`, src/graphql/consistency.ts). */
export interface ReadOptions {
  /** A causally consistent session: reads see at least what it has seen (read-your-writes, `@consistentAfter`). */
  session?: ClientSession | undefined;
}

/** What one read command takes from `consistentRead` (spread into find/count/aggregate options). */
export interface ReadCommandOptions {
  session?: ClientSession;
  maxTimeMS?: number;
  readPreference?: 'primary';
}

/**
 * Runs one read as `options` ask (R2). Without a session it is a plain read. With a causally
 * consistent session (a `@consistentAfter` token), the member the driver chose answers once it has
 * applied the token's time (mongod waits for `afterClusterTime`), but only for
 * `DbLimits.consistentReadWaitMs`: a lagging secondary then gives way to the primary, which has
 * every acknowledged write, so the reader neither sees a stale value nor waits on the lag.
 */
export async function consistentRead<T>(
  options: ReadOptions,
  read: (command: ReadCommandOptions) => Promise<T>,
): Promise<T> {
  const session = options.session;
  if (session === undefined) return read({});
  try {
    return await read({ session, maxTimeMS: DbLimits.consistentReadWaitMs });
  } catch (error) {
    // MaxTimeMSExpired: the maxTimeMS ran out while the member waited for afterClusterTime.
    if (!isMaxTimeExpired(error)) throw error;
    return read({ session, readPreference: 'primary' });
  }
}
