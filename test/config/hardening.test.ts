// Proves the hardening settings are read and validated like every other variable: documented
// defaults, and a wrong value refused with a message naming the variable (main exits 78 on it).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('hardening configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.limits).toMatchObject({
      graphqlDepthMax: 10,
      graphqlAliasesMax: 30,
      graphqlCostMax: 12_000,
      graphqlTokensMax: 2_400,
      graphqlDirectivesMax: 10,
      graphqlBatchMax: 10,
    });
    expect(config.trustedDocuments).toMatchObject({ mode: 'off', adminAdHoc: false });
    expect(config.trustedDocuments.manifestPath).toMatch(/packages\/sdk\/trusted-documents\.json$/);
    expect(config.rateLimits?.service).toEqual({ perSecond: 5_000, burst: 10_000 });
  });

  it.each([
    [{ GRAPHQL_DEPTH_MAX: '0' }, 'GRAPHQL_DEPTH_MAX: expected an integer between 1 and 100'],
    [{ GRAPHQL_ALIASES_MAX: 'many' }, 'GRAPHQL_ALIASES_MAX: expected an integer between 0 and 1000'],
    [{ GRAPHQL_COST_MAX: '0' }, 'GRAPHQL_COST_MAX: expected an integer between 1 and 1000000'],
    [{ GRAPHQL_TOKENS_MAX: '1.5' }, 'GRAPHQL_TOKENS_MAX: expected an integer between 1 and 100000'],
    [{ GRAPHQL_DIRECTIVES_MAX: '-1' }, 'GRAPHQL_DIRECTIVES_MAX: expected an integer between 0 and 1000'],
    [{ GRAPHQL_BATCH_MAX: '101' }, 'GRAPHQL_BATCH_MAX: expected an integer between 1 and 100'],
    [{ TRUSTED_DOCUMENTS_ADMIN_ADHOC: 'yes' }, 'TRUSTED_DOCUMENTS_ADMIN_ADHOC: expected 0 or 1'],
  ])('refuses %o, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
