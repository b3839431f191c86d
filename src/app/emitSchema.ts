// `npm run schema`: writes schema/schema.graphql from the resolvers. A test fails when the
// checked-in file differs, so run this after changing any type or field.
import { writeFile } from 'node:fs/promises';
import { printAppSchema, SCHEMA_FILE_PATH } from './printAppSchema.ts';
import { buildAppSchema } from './schema.ts';

await writeFile(SCHEMA_FILE_PATH, printAppSchema(await buildAppSchema()));
console.log(`wrote ${SCHEMA_FILE_PATH}`);
