// Operations a legitimate client could send, built from the schema: for each root field, the one
// that selects every field of its result, every union member spelled out, each type once per
// path. These are the largest operations a real client has reason to send; the query limits are
// sized from them (src/server/queryLimits.ts), and the fuzz tests reuse the walk.
import { readFileSync } from 'node:fs';
import {
  getNamedType,
  isInterfaceType,
  isLeafType,
  isObjectType,
  isUnionType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

/** The selection set of `type` with every field, each type visited once per path. */
export function fullSelection(type: GraphQLNamedType, path: readonly string[] = []): string {
  if (isLeafType(type)) return '';
  if (path.includes(type.name)) return '{ __typename }';
  const inner = [...path, type.name];
  if (isUnionType(type)) {
    return `{ __typename ${type
      .getTypes()
      .map((member) => `... on ${member.name} ${fullSelection(member, inner)}`)
      .join(' ')} }`;
  }
  if (isObjectType(type) || isInterfaceType(type)) {
    const fields = Object.values(type.getFields()) as Array<GraphQLField<unknown, unknown>>;
    return `{ ${fields.map((field) => `${field.name} ${fullSelection(getNamedType(field.type), inner)}`).join(' ')} }`;
  }
  return '';
}

/** One exhaustive operation per root field (arguments left out: the limits do not look at them). */
export function exhaustiveOperations(schema: GraphQLSchema): Array<{ name: string; document: string }> {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  return roots.flatMap((root) => {
    if (!root) return [];
    const keyword =
      root === schema.getQueryType() ? 'query' : root === schema.getMutationType() ? 'mutation' : 'subscription';
    return Object.values(root.getFields()).map((field) => ({
      name: `${keyword} ${field.name}`,
      document: `${keyword} { ${field.name} ${fullSelection(getNamedType(field.type))} }`,
    }));
  });
}

/** The README's GraphQL blocks. */
export function readmeOperations(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  return [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}
