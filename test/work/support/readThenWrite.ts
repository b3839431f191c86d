import type { Collection, Db, Document, Filter, FindOneAndUpdateOptions, UpdateFilter } from 'mongodb';

/**
 * The realistic bug, on purpose: every conditional write becomes "read the item, check it, then
 * write by _id only". The read uses the very precondition the service would have put in the
 * write (status, version, holder, expiry), so one call at a time behaves exactly like the real
 * service; but the check is made when reading, and whatever another writer did between the read
 * and the write is overwritten. Only the race harness can catch it, which is what the meta-test
 * proves. Used by wrapping the Db a service is built on, so the service's own code is unchanged.
 */
export function readThenWrite(db: Db): Db {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'collection') {
        return (name: string, options?: Parameters<Db['collection']>[1]) =>
          checkThenWrite(target.collection(name, options));
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function checkThenWrite<T extends Document>(collection: Collection<T>): Collection<T> {
  const findOneAndUpdate = async (
    filter: Filter<T>,
    update: UpdateFilter<T> | Document[],
    options: FindOneAndUpdateOptions = {},
  ) => {
    // An upsert creates (by idempotency key), it does not move an item between states: left as is.
    if (options.upsert) return collection.findOneAndUpdate(filter, update, options);
    const seen = await collection.findOne(filter, {
      ...(options.sort ? { sort: options.sort } : {}),
      ...(options.hint ? { hint: options.hint } : {}),
    });
    if (seen === null) return null;
    return collection.findOneAndUpdate({ _id: seen._id } as Filter<T>, update, {
      returnDocument: options.returnDocument ?? 'before',
    });
  };
  return new Proxy(collection, {
    get(target, property) {
      if (property === 'findOneAndUpdate') return findOneAndUpdate;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
