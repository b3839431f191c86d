// The scalars of the API. Every amount and balance is `SafeInt` (integer minor units up to
// 2^53-1, never floats); every instant is `DateTime` (ISO-8601). Use them as
// `@Field(() => SafeInt)` / `@Field(() => DateTime)`; free-form payloads are `JSON`. A sum over
// many accounts (totals, volumes) can pass 2^53-1 although every balance is bounded: it is a
// `BigIntString`, exact at any size (docs/design.md: "never a rounded float and never an error").
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { GraphQLDateTime, GraphQLJSON, GraphQLSafeInt } from 'graphql-scalars';

export const SafeInt = GraphQLSafeInt;
export const DateTime = GraphQLDateTime;
export const JSONScalar = GraphQLJSON;

const INTEGER_TEXT = /^-?(0|[1-9][0-9]*)$/;
/** Digits a BigIntString input may have: far past any sum of money, short of a parsing cost. */
const BIG_INT_STRING_DIGITS_MAX = 100;

function bigIntOf(text: string): bigint {
  if (text.length > BIG_INT_STRING_DIGITS_MAX + 1 || !INTEGER_TEXT.test(text)) {
    throw new GraphQLError(`BigIntString must be an integer as a decimal string of at most ${BIG_INT_STRING_DIGITS_MAX} digits, such as "18014398509481982"`);
  }
  return BigInt(text);
}

export const BigIntString = new GraphQLScalarType<bigint, string>({
  name: 'BigIntString',
  description: 'An exact integer of any size as a decimal string, e.g. "18014398509481982": sums of money (integer minor units) over many accounts, which can pass 2^53-1. Read it with BigInt(value).',
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
