// Per-request DataLoaders: created fresh for every request (and every WebSocket operation), so a
// cache never outlives one operation. A feature adds one line: `accountById: accountLoader(db),`.
import type { ClientSession, Db } from 'mongodb';
import { accountLoader, moveAnnotationsLoader } from '../ledger/graphql/accountLoader.ts';

/** `readSession` is the request's causally consistent session, if it asked for one (`@consistentAfter`). */
export function createLoaders(db: Db, readSession: () => ClientSession | undefined = () => undefined) {
  return {
    accountById: accountLoader(db, readSession),
    moveAnnotations: moveAnnotationsLoader(db, readSession),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
