// Proves the typed SDK talks to the real server: its generated documents go out, typed data comes
// back, and GraphQL errors are thrown as PreconditionError with their code, never retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, PreconditionError } from '../../packages/sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { testMongoEngine } from '../support/mongo.ts';

describe('sdk', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('runs a generated query and returns its typed data', async () => {
    const api = createClient({ url: app.url, apiKey: app.keys.dashboard });
    const health = await api.health();
    expect(health.engine).toBe(testMongoEngine().kind);
  });

  it('throws GraphQL errors with their code, after one attempt', async () => {
    const api = createClient({ url: app.url, apiKey: 'not-a-key-of-this-server' });
    const failure = await api.health().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PreconditionError);
    expect(failure).toMatchObject({ code: 'UNAUTHENTICATED', attempts: 1 });
    expect((failure as PreconditionError).errors[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
