import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';

/** The checked-in SDL, emitted by `npm run schema`. */
export const SCHEMA_FILE_PATH = fileURLToPath(new URL('../../schema/schema.graphql', import.meta.url));

/** Deterministic SDL: sorted, so the checked-in file changes only when the schema does. */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
