import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

// The README's ledger session is executed, not only printed: every ```graphql block between the
// ledger-session markers is sent in order with a service key, and its answer must equal the
// ```json block that follows it.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { SEED_DEMO: '0' } });
});
afterAll(async () => {
  await app.close();
});

async function readSession(): Promise<{ query: string; expected: unknown }[]> {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const session = /<!-- ledger-session:start -->([\s\S]*?)<!-- ledger-session:end -->/.exec(readme)?.[1];
  if (session === undefined) throw new Error('README.md has no ledger session');
  const steps = [...session.matchAll(/```graphql\n([\s\S]*?)```\s*```json\n([\s\S]*?)```/g)];
  return steps.map(([, query, json]) => ({ query: query!, expected: JSON.parse(json!) }));
}

describe('README ledger session', () => {
  it('answers every step exactly as the README shows', async () => {
    const steps = await readSession();
    expect(steps.length).toBeGreaterThanOrEqual(6);
    for (const { query, expected } of steps) {
      const response = await app.gql(query, {}, { key: 'service' });
      expect({ query, errors: response.errors, data: response.data }).toEqual({
        query,
        errors: undefined,
        data: expected,
      });
    }
  });
});
