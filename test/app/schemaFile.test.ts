// Proves the checked-in schema/schema.graphql is what the code emits: run `npm run schema` after
// changing any type or field, and commit the result.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { printAppSchema, SCHEMA_FILE_PATH } from '../../src/app/printAppSchema.ts';
import { buildAppSchema } from '../../src/app/schema.ts';

describe('schema/schema.graphql', () => {
  it('matches the schema the resolvers build (run `npm run schema` if not)', async () => {
    const emitted = printAppSchema(await buildAppSchema());
    const checkedIn = await readFile(SCHEMA_FILE_PATH, 'utf8');
    expect(checkedIn).toBe(emitted);
  });

  it('is emitted deterministically', async () => {
    expect(printAppSchema(await buildAppSchema())).toBe(printAppSchema(await buildAppSchema()));
  });
});
