// One span per mutation root field, active while its resolver runs so that the MongoDB commands it
// sends are its children, and carrying the union member it answered (`graphql.result.member`).
// Installed on the schema only when tracing is on: with tracing off the resolvers are untouched.
import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { annotateActiveSpan, inSpan } from '../observability/tracing.ts';

const TRACED = Symbol('traced mutation resolver');

/** The union member (or object type) a resolver's answer is: type-graphql answers class instances. */
export function memberOf(result: unknown): string {
  if (result === null || result === undefined) return 'null';
  const typename = (result as { __typename?: unknown }).__typename;
  if (typeof typename === 'string') return typename;
  return (result as { constructor?: { name?: string } }).constructor?.name ?? typeof result;
}

/** Wraps each mutation root field's resolver of `schema` in its span; returns the same schema. */
export function traceMutations(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  if (!mutation || !isObjectType(mutation)) return schema;
  for (const field of Object.values(mutation.getFields())) {
    const resolve = field.resolve as (GraphQLFieldResolver<unknown, unknown> & { [TRACED]?: true }) | undefined;
    if (!resolve || resolve[TRACED]) continue;
    const traced: GraphQLFieldResolver<unknown, unknown> & { [TRACED]?: true } = (source, args, ctx, info) =>
      inSpan(
        `mutation ${info.fieldName}`,
        { attributes: { 'graphql.field.name': info.fieldName, 'graphql.operation.type': 'mutation' } },
        async () => {
          const result = await resolve(source, args, ctx, info);
          annotateActiveSpan({ 'graphql.result.member': memberOf(result) });
          return result;
        },
      );
    // The wrapped resolver's own marks (e.g. logMutationResults' "already logged") carry over, so a
    // schema shared by two apps is not wrapped twice by either.
    Object.assign(traced, resolve);
    traced[TRACED] = true;
    field.resolve = traced;
  }
  return schema;
}
