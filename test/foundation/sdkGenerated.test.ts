// Proves the SDK cannot drift from the API: its generated files are what `npm run codegen` makes
// from the checked-in schema and operations, its trusted-documents manifest holds exactly the
// text it sends, and every root field of the schema has an operation (so a field added later
// fails here until its .graphql file exists). Run `npm run codegen` if this fails.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generate, loadCodegenConfig } from '@graphql-codegen/cli';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { MANIFEST_PATH, manifestText, sha256Hex } from '../../packages/sdk/codegen/trustedDocuments.ts';
import { mutations, queries, subscriptions } from '../../packages/sdk/src/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('packages/sdk generated files', () => {
  it('match what codegen.yml generates (run `npm run codegen` if not)', async () => {
    const { config } = await loadCodegenConfig({ configFilePath: `${ROOT}codegen.yml` });
    const outputs = (await generate({ ...config, cwd: ROOT, silent: true }, false)) as Array<{ filename: string; content: string }>;
    expect(outputs.map((output) => output.filename.replace(ROOT, '')).sort()).toEqual([
      'packages/sdk/src/generated/graphql.ts',
      'packages/sdk/src/generated/operations.ts',
    ]);
    for (const output of outputs) {
      expect(await readFile(output.filename, 'utf8'), output.filename).toBe(output.content);
    }
  });

  it('trusted-documents.json maps the sha256 of each text the SDK sends to that text, and nothing else', async () => {
    expect(await readFile(MANIFEST_PATH, 'utf8')).toBe(manifestText());
    const manifest = JSON.parse(await readFile(MANIFEST_PATH, 'utf8')) as Record<string, string>;
    const sent = [queries, mutations, subscriptions].flatMap((table) => Object.values(table).map((entry) => entry.document.toString()));
    expect(Object.keys(manifest).sort()).toEqual(sent.map(sha256Hex).sort());
    for (const text of sent) expect(manifest[sha256Hex(text)]).toBe(text);
  });

  it('has one operation for every root field of schema/schema.graphql', async () => {
    const schema = buildSchema(await readFile(`${ROOT}schema/schema.graphql`, 'utf8'));
    const fieldsOf = (type: { getFields(): Record<string, unknown> } | null | undefined) => Object.keys(type?.getFields() ?? {}).sort();
    expect({ query: Object.keys(queries).sort(), mutation: Object.keys(mutations).sort(), subscription: Object.keys(subscriptions).sort() }).toEqual({
      query: fieldsOf(schema.getQueryType()),
      mutation: fieldsOf(schema.getMutationType()),
      subscription: fieldsOf(schema.getSubscriptionType()),
    });
  });

  it('gives every query and mutation its own method name on the client', () => {
    const names = [...Object.keys(queries), ...Object.keys(mutations)];
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('subscribe');
    expect(names).not.toContain('close');
  });
});
