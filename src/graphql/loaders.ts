// Per-request DataLoaders: created fresh for every request (and every WebSocket operation), so a
// cache never outlives one operation. A feature adds one line: `accountById: accountLoader(db),`.
import type { Db } from 'mongodb';
import { accountLoader } from '../ledger/graphql/accountLoader.ts';

export function createLoaders(db: Db) {
  return {
    accountById: accountLoader(db),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
