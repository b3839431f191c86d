// Proves one error shape over HTTP and WebSocket: an unexpected fault is INTERNAL_SERVER_ERROR,
// its message hidden in production; client errors (FORBIDDEN, ...) pass through unchanged.
import { Query, Resolver } from 'type-graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Allow } from '../../src/graphql/auth/Allow.ts';
import { Rights } from '../../src/access/roles.ts';
import { buildAppSchema } from '../../src/app/schema.ts';
import { AccessProbeResolver, PROBE_MUTATIONS } from '../support/accessProbe.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

@Resolver()
class FaultProbeResolver {
  @Query(() => String)
  @Allow(Rights.query)
  probeFault(): string {
    throw new Error('E11000 something internal about db.accounts');
  }
}

describe.each(['development', 'production'] as const)('errors in %s', (nodeEnv) => {
  let app: TestApp;
  beforeAll(async () => {
    const schema = await buildAppSchema({ extraResolvers: [FaultProbeResolver, AccessProbeResolver] });
    app = await startTestApp({ schema, env: { NODE_ENV: nodeEnv } });
  });
  afterAll(async () => {
    await app?.close();
  });
  const expectedMessage =
    nodeEnv === 'production' ? 'Internal server error' : 'E11000 something internal about db.accounts';

  it('codes an unexpected fault INTERNAL_SERVER_ERROR over HTTP', async () => {
    const res = await app.gql('{ probeFault }', {}, { key: 'dashboard' });
    expect(res.errors?.[0]).toMatchObject({ message: expectedMessage, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    // A stack trace only when asked for (LOG_LEVEL=debug, outside production): see errorsSayWhatToDo.test.ts.
    expect('stacktrace' in (res.errors?.[0]?.extensions ?? {})).toBe(false);
  });

  it('codes an unexpected fault INTERNAL_SERVER_ERROR over WebSocket', async () => {
    const result = await app.ws('ops').execute('{ probeFault }');
    expect(result.errors?.[0]).toMatchObject({
      message: expectedMessage,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });

  it('passes client errors through unchanged', async () => {
    const res = await app.gql(PROBE_MUTATIONS.moveMoney, {}, { key: 'dashboard' });
    expect(res.errors?.[0]).toMatchObject({
      message: 'Role dashboard may not use probeMoveMoney (allowed: service, admin)',
      extensions: { code: 'FORBIDDEN' },
    });
  });
});
