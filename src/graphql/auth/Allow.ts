import { Authorized, Extensions } from 'type-graphql';
import type { Right } from '../../access/roles.ts';

/** The key under which a root field records its right in the built schema. */
export const RIGHT_EXTENSION = 'right';

/**
 * The access rule of a root field: `@Allow(Rights.moveMoney)`. Every Query, Mutation and
 * Subscription must carry exactly one; `buildAppSchema` refuses a schema where one does not.
 * It records the right twice on purpose: for type-graphql's auth checker (which guards both
 * `resolve` and a subscription's `subscribe`), and as a field extension that the schema walk reads.
 */
export function Allow(right: Right): MethodDecorator {
  const authorized = Authorized(right);
  const extension = Extensions({ [RIGHT_EXTENSION]: right });
  return (target, propertyKey, descriptor) => {
    authorized(target, propertyKey, descriptor);
    extension(target, propertyKey, descriptor);
  };
}
