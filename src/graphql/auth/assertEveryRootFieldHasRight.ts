import type { GraphQLSchema } from 'graphql';
import { RIGHT_EXTENSION } from './Allow.ts';
import { isRight, type Right } from '../../access/roles.ts';

export interface RootFieldRule {
  /** `Query.health`, `Mutation.withdraw`, ... */
  coordinate: string;
  right: Right | undefined;
}

/** Every root field (Query, Mutation, Subscription) with the right it declares, if any. */
export function listRootFieldRules(schema: GraphQLSchema): RootFieldRule[] {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  return roots.flatMap((root) =>
    root
      ? Object.values(root.getFields()).map((field) => {
          const right = field.extensions?.[RIGHT_EXTENSION];
          return { coordinate: `${root.name}.${field.name}`, right: isRight(right) ? right : undefined };
        })
      : [],
  );
}

/** Deny by default: a schema with a root field that names no right does not build. */
export function assertEveryRootFieldHasRight(schema: GraphQLSchema): void {
  const missing = listRootFieldRules(schema).filter((rule) => rule.right === undefined);
  if (missing.length > 0) {
    const names = missing.map((rule) => rule.coordinate).join(', ');
    throw new Error(`Root fields without an access rule (add @Allow(Rights.<right>)): ${names}`);
  }
}
