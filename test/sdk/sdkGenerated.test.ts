// Proves the SDK cannot drift from the API: its generated files are what `npm run codegen` makes
// from the checked-in schema and operations, its trusted-documents manifest holds exactly the
// text it sends, and every root field of the schema has an operation (so a field added later
// fails here until its .graphql file exists). Run `npm run codegen` if this fails.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generate, loadCodegenConfig } from '@graphql-codegen/cli';
import {
  buildSchema,
  getNamedType,
  isUnionType,
  Kind,
  parse,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { MANIFEST_PATH, manifestText, sha256Hex } from '../../packages/sdk/codegen/trustedDocuments.ts';
import { mutations, queries, subscriptions } from '../../packages/sdk/src/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('packages/sdk generated files', () => {
  it('match what codegen.yml generates (run `npm run codegen` if not)', async () => {
    const { config } = await loadCodegenConfig({ configFilePath: `${ROOT}codegen.yml` });
    const outputs = (await generate({ ...config, cwd: ROOT, silent: true }, false)) as Array<{
      filename: string;
      content: string;
    }>;
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
    const sent = [queries, mutations, subscriptions].flatMap((table) =>
      Object.values(table).map((entry) => entry.document.toString()),
    );
    expect(Object.keys(manifest).sort()).toEqual(sent.map(sha256Hex).sort());
    for (const text of sent) expect(manifest[sha256Hex(text)]).toBe(text);
  });

  it('has one operation for every root field of schema/schema.graphql', async () => {
    const schema = buildSchema(await readFile(`${ROOT}schema/schema.graphql`, 'utf8'));
    const fieldsOf = (type: { getFields(): Record<string, unknown> } | null | undefined) =>
      Object.keys(type?.getFields() ?? {}).sort();
    expect({
      query: Object.keys(queries).sort(),
      mutation: Object.keys(mutations).sort(),
      subscription: Object.keys(subscriptions).sort(),
    }).toEqual({
      query: fieldsOf(schema.getQueryType()),
      mutation: fieldsOf(schema.getMutationType()),
      subscription: fieldsOf(schema.getSubscriptionType()),
    });
  });

  it('selects every member of every union it reads, so a member added to the schema fails here until its operation reads it', async () => {
    const schema = buildSchema(await readFile(`${ROOT}schema/schema.graphql`, 'utf8'));
    const missing: string[] = [];
    for (const [field, entry] of Object.entries({ ...queries, ...mutations, ...subscriptions })) {
      const document = parse(entry.document.toString());
      const fragments = new Map(
        document.definitions
          .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
          .map((d) => [d.name.value, d]),
      );
      // The type conditions a selection set covers, through the named fragments it spreads.
      const covered = (selectionSet: SelectionSetNode): string[] =>
        selectionSet.selections.flatMap((selection) => {
          if (selection.kind === Kind.INLINE_FRAGMENT)
            return selection.typeCondition ? [selection.typeCondition.name.value] : [];
          if (selection.kind === Kind.FRAGMENT_SPREAD)
            return covered(fragments.get(selection.name.value)!.selectionSet);
          return [];
        });
      const typeInfo = new TypeInfo(schema);
      visit(
        document,
        visitWithTypeInfo(typeInfo, {
          Field(node) {
            const type = typeInfo.getType() && getNamedType(typeInfo.getType());
            if (!node.selectionSet || !isUnionType(type)) return;
            const selected = new Set(covered(node.selectionSet));
            for (const member of type.getTypes())
              if (!selected.has(member.name)) missing.push(`${field}: ${node.name.value} ... on ${member.name}`);
          },
        }),
      );
    }
    expect(missing).toEqual([]);
  });

  it('gives every query and mutation its own method name on the client', () => {
    const names = [...Object.keys(queries), ...Object.keys(mutations)];
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('subscribe');
    expect(names).not.toContain('close');
  });
});
