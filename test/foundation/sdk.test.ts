// Proves the typed SDK talks to the real server: generated documents go out, typed data comes
// back, and GraphQL errors are thrown with their code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreconditionClient, HealthDocument, PreconditionRequestError } from '../../src/sdk/index.ts';
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
    const api = createPreconditionClient({ url: app.url, apiKey: app.keys.dashboard });
    const { health } = await api.request(HealthDocument);
    expect(health.engine).toBe(testMongoEngine().kind);
  });

  it('throws GraphQL errors with their code', async () => {
    const api = createPreconditionClient({ url: app.url, apiKey: 'not-a-key-of-this-server' });
    const failure = await api.request(HealthDocument).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PreconditionRequestError);
    expect((failure as PreconditionRequestError).code).toBe('UNAUTHENTICATED');
  });
});
