// Proves src/sdk/generated.ts is what `npm run codegen` makes from the checked-in schema and the
// operations, so the SDK never drifts from the API. Run `npm run codegen` if this fails.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generate, loadCodegenConfig } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('src/sdk/generated.ts', () => {
  it('matches what codegen.yml generates (run `npm run codegen` if not)', async () => {
    const { config } = await loadCodegenConfig({ configFilePath: `${ROOT}codegen.yml` });
    const outputs = await generate({ ...config, cwd: ROOT, silent: true }, false);
    expect(outputs).toHaveLength(1);
    const [output] = outputs as Array<{ filename: string; content: string }>;
    expect(output?.filename).toMatch(/src\/sdk\/generated\.ts$/);
    expect(await readFile(`${ROOT}src/sdk/generated.ts`, 'utf8')).toBe(output?.content);
  });
});
