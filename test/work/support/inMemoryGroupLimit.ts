import type { Db, Document } from 'mongodb';
import { WORK_GROUP_PLACES_COLLECTION } from '../../../src/work/groupLimits.ts';

/**
 * The mutant of W9's mechanism: the group's places are counted in this process's memory instead
 * of in the claim's write. One process alone keeps the limit; two processes each let `limit` run,
 * and only a test across processes can tell. Used by wrapping the Db a service is built on, so the
 * service's own code is unchanged (as readThenWrite.ts does).
 */
export function inMemoryGroupLimit(db: Db): Db {
  const running = new Map<string, number>();
  const places = {
    async updateOne(filter: Document, update: Document | Document[]) {
      const id = String(filter['_id']);
      if (Array.isArray(update)) {
        // takeGroupPlace's conditional write: `{ $expr: { $lt: [<live holders>, limit] } }`.
        const limit = Number(filter['$expr']['$lt'][1]);
        const count = running.get(id) ?? 0;
        if (count >= limit) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
        running.set(id, count + 1);
        return { matchedCount: 1, modifiedCount: 1, upsertedCount: 0 };
      }
      // The group's document exists (no insert), and a completion's `$pull` frees a place.
      if ('$pull' in update) running.set(id, Math.max(0, (running.get(id) ?? 1) - 1));
      return { matchedCount: 1, modifiedCount: 1, upsertedCount: 0 };
    },
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'collection') {
        return (name: string, options?: Parameters<Db['collection']>[1]) =>
          name === WORK_GROUP_PLACES_COLLECTION ? places : target.collection(name, options);
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
