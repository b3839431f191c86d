// Per-request DataLoaders: created fresh for every request (and every WebSocket operation), so a
// cache never outlives one operation. A feature adds one line: `accountById: accountLoader(db),`.
import type { Db } from 'mongodb';

export function createLoaders(_db: Db) {
  return {};
}

export type Loaders = ReturnType<typeof createLoaders>;
