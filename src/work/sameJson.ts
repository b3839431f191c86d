import { isDeepStrictEqual } from 'node:util';

/**
 * Whether two JSON values are equal as JSON: key order, prototypes (GraphQL's JSON scalar makes
 * null-prototype objects) and the BSON round trip do not count.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(asPlainJson(a), asPlainJson(b));
}

function asPlainJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}
