// The scalars of the API. Every amount and balance is `SafeInt` (integer minor units up to
// 2^53-1, never floats); every instant is `DateTime` (ISO-8601). Use them as
// `@Field(() => SafeInt)` / `@Field(() => DateTime)`; free-form payloads are `JSON`.
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { GraphQLDateTime, GraphQLJSON, GraphQLSafeInt } from 'graphql-scalars';

/**
 * graphql-scalars' SafeInt with refusals that say what to send: its own message for `"100"` is
 * "SafeInt cannot represent non-integer value: 100", which reads as if 100 were wrong. The name,
 * description and serialization are its own, so the schema is unchanged.
 */
function explainedRefusal(shown: string, value: unknown): string | null {
  if (typeof value === 'string') {
    return `SafeInt: amounts are integers in minor units; send ${/^-?\d+$/.test(value.trim()) ? value.trim() : '100'}, not ${JSON.stringify(value)}`;
  }
  if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) {
    return `SafeInt: amounts are integers in minor units (5.00 EUR is 500); got ${shown}`;
  }
  return null;
}

const safeIntConfig = GraphQLSafeInt.toConfig();

function literalValue(node: ValueNode): unknown {
  if (node.kind === Kind.STRING) return node.value;
  if (node.kind === Kind.FLOAT) return Number(node.value);
  return undefined;
}

export const SafeInt = new GraphQLScalarType({
  ...safeIntConfig,
  parseValue(value) {
    const refusal = explainedRefusal(String(value), value);
    if (refusal) throw new GraphQLError(refusal);
    return safeIntConfig.parseValue!(value);
  },
  parseLiteral(node, variables) {
    const refusal = explainedRefusal(node.kind === Kind.FLOAT ? node.value : String(literalValue(node)), literalValue(node));
    if (refusal) throw new GraphQLError(refusal, { nodes: node });
    return safeIntConfig.parseLiteral!(node, variables);
  },
});
export const DateTime = GraphQLDateTime;
export const JSONScalar = GraphQLJSON;
