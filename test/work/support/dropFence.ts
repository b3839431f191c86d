import type { Collection, Db, Document, Filter, FindOneAndUpdateOptions, UpdateFilter } from 'mongodb';

/**
 * A mutant with the fence dropped: a lease holder's write (heartbeat, completion) keeps the item
 * and its status in its filter but loses the holder and the version, so a worker whose lease was
 * taken over writes over the new holder. Built by wrapping the Db, the service's code unchanged.
 */
export function dropFence(db: Db): Db {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'collection')
        return (name: string, options?: Parameters<Db['collection']>[1]) => unfenced(target.collection(name, options));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function unfenced<T extends Document>(collection: Collection<T>): Collection<T> {
  const findOneAndUpdate = (
    filter: Filter<T>,
    update: UpdateFilter<T> | Document[],
    options: FindOneAndUpdateOptions = {},
  ) => {
    if (!('lockedBy' in filter)) return collection.findOneAndUpdate(filter, update, options);
    const { lockedBy: _holder, version: _version, ...rest } = filter as Record<string, unknown>;
    return collection.findOneAndUpdate(rest as Filter<T>, update, options);
  };
  return new Proxy(collection, {
    get(target, property) {
      if (property === 'findOneAndUpdate') return findOneAndUpdate;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
