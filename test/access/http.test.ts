// Proves access control over HTTP: for every role, each probe operation is allowed exactly when
// docs/design.md's table says so; refused calls answer FORBIDDEN or UNAUTHENTICATED and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/access/roles.ts';
import { buildAppSchema } from '../../src/app/schema.ts';
import { AccessProbeResolver, PROBE_MUTATIONS, probeEffects } from '../support/accessProbe.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

// From docs/design.md's roles table: which probe mutations each role may run.
const ALLOWED_MUTATIONS: Record<Role, Array<keyof typeof PROBE_MUTATIONS>> = {
  dashboard: [],
  ops: ['requeueWork'],
  worker: ['processWork'],
  service: ['moveMoney', 'createWork', 'processWork'],
  admin: ['moveMoney', 'createWork', 'processWork', 'requeueWork'],
};

describe('access over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ schema: await buildAppSchema({ extraResolvers: [AccessProbeResolver] }) });
  });
  afterAll(async () => {
    await app?.close();
  });

  const effects = () => probeEffects(app.db);

  it.each(ROLES)('lets %s query', async (role) => {
    const res = await app.gql('{ probeQuery health { engine } }', {}, { key: role });
    expect(res.errors).toBeUndefined();
    expect(res.data.probeQuery).toBe(1);
  });

  describe.each(ROLES)('as %s', (role) => {
    it.each(Object.keys(PROBE_MUTATIONS) as Array<keyof typeof PROBE_MUTATIONS>)('%s mutation', async (right) => {
      const before = await effects();
      const res = await app.gql(PROBE_MUTATIONS[right], {}, { key: role });
      if (ALLOWED_MUTATIONS[role].includes(right)) {
        expect(res.errors).toBeUndefined();
        expect(await effects()).toBe(before + 1);
      } else {
        expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
        expect(res.data).toBeNull();
        expect(await effects()).toBe(before);
      }
    });
  });

  it.each([
    ['missing', {}, 'An API key is required'],
    ['malformed', { authorization: 'Token abc' }, 'Malformed Authorization header'],
    ['unknown', { authorization: 'Bearer not-a-key-of-this-server' }, 'Unknown API key'],
    ['empty bearer', { authorization: 'Bearer ' }, 'Malformed Authorization header'],
  ] as const)(
    'refuses a %s key as UNAUTHENTICATED, for queries and mutations alike',
    async (_name, options, message) => {
      const before = await effects();
      for (const query of ['{ probeQuery }', PROBE_MUTATIONS.moveMoney]) {
        const res = await app.gql(query, {}, { key: null, ...options });
        expect(res.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
        expect(res.errors?.[0]?.message).toContain(message);
        expect(res.data).toBeNull();
      }
      expect(await effects()).toBe(before);
    },
  );

  it('accepts the scheme name in any case', async () => {
    const res = await app.gql('{ probeQuery }', {}, { authorization: `bearer ${app.keys.dashboard}` });
    expect(res.data?.probeQuery).toBe(1);
  });
});
