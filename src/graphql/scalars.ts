// The scalars of the API. Every amount and balance is `SafeInt` (integer minor units up to
// 2^53-1, never floats); every instant is `DateTime` (ISO-8601). Use them as
// `@Field(() => SafeInt)` / `@Field(() => DateTime)`; free-form payloads are `JSON`. A sum over
// many accounts (totals, volumes) can pass 2^53-1 although every balance is bounded: it is a
// `BigIntString`, exact at any size (docs/design.md: "never a rounded float and never an error").
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
    const refusal = explainedRefusal(
      node.kind === Kind.FLOAT ? node.value : String(literalValue(node)),
      literalValue(node),
    );
    if (refusal) throw new GraphQLError(refusal, { nodes: node });
    return safeIntConfig.parseLiteral!(node, variables);
  },
});
export const DateTime = GraphQLDateTime;
export const JSONScalar = GraphQLJSON;

const INTEGER_TEXT = /^-?(0|[1-9][0-9]*)$/;
/** Digits a BigIntString input may have: far past any sum of money, short of a parsing cost. */
const BIG_INT_STRING_DIGITS_MAX = 100;

function bigIntOf(text: string): bigint {
  if (text.length > BIG_INT_STRING_DIGITS_MAX + 1 || !INTEGER_TEXT.test(text)) {
    throw new GraphQLError(
      `BigIntString must be an integer as a decimal string of at most ${BIG_INT_STRING_DIGITS_MAX} digits, such as "18014398509481982"`,
    );
  }
  return BigInt(text);
}

export const BigIntString = new GraphQLScalarType<bigint, string>({
  name: 'BigIntString',
  description:
    'An exact integer of any size as a decimal string, e.g. "18014398509481982": sums of money (integer minor units) over many accounts, which can pass 2^53-1. Read it with BigInt(value).',
  serialize(value) {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    if (typeof value === 'string') return bigIntOf(value).toString();
    throw new GraphQLError(`BigIntString cannot represent ${typeof value} ${String(value)}`);
  },
  parseValue(value) {
    if (typeof value !== 'string') throw new GraphQLError('BigIntString must be given as a string');
    return bigIntOf(value);
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('BigIntString must be given as a string', { nodes: ast });
    return bigIntOf(ast.value);
  },
});
