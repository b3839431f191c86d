// The scalars of the API. Every amount and balance is `SafeInt` (integer minor units up to
// 2^53-1, never floats); every instant is `DateTime` (ISO-8601). Use them as
// `@Field(() => SafeInt)` / `@Field(() => DateTime)`; free-form payloads are `JSON`.
import { GraphQLDateTime, GraphQLJSON, GraphQLSafeInt } from 'graphql-scalars';

export const SafeInt = GraphQLSafeInt;
export const DateTime = GraphQLDateTime;
export const JSONScalar = GraphQLJSON;
