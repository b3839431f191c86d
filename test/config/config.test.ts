// Proves that configuration is read in one place and that a wrong value stops start-up with a
// message naming the variable (and never echoing a secret).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

const KEY = 'k'.repeat(20);

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      host: '0.0.0.0',
      nodeEnv: 'development',
      logLevel: 'info',
      mongodbUri: undefined,
      mongodbDb: 'precondition',
      mongoEngine: undefined,
      apiKeys: undefined,
      limits: {
        mongoSocketTimeoutMs: 10_000,
        httpBodyLimitBytes: 1_048_576,
        httpHeadersTimeoutMs: 10_000,
        httpRequestTimeoutMs: 30_000,
        httpKeepAliveTimeoutMs: 5_000,
      },
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '' }).port).toBe(4000);
  });

  it('parses API_KEYS into tokens and roles', () => {
    const config = loadConfig({ API_KEYS: `${KEY}=service, ${'o'.repeat(16)}=ops` });
    expect(config.apiKeys).toEqual([
      { token: KEY, role: 'service' },
      { token: 'o'.repeat(16), role: 'ops' },
    ]);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT: expected an integer between 0 and 65535'],
    [{ PORT: '70000' }, 'PORT: expected an integer between 0 and 65535'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ MONGO_ENGINE: 'sqlite' }, 'MONGO_ENGINE'],
    [{ MONGODB_URI: 'postgres://x' }, 'MONGODB_URI: expected a mongodb:// or mongodb+srv:// connection string'],
    [{ MONGO_ENGINE: 'uri' }, 'MONGODB_URI: required when MONGO_ENGINE=uri'],
    [{ MONGO_SOCKET_TIMEOUT_MS: '5' }, 'MONGO_SOCKET_TIMEOUT_MS: expected an integer between 100 and 600000'],
    [
      { HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' },
      'HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS',
    ],
    [{ API_KEYS: `${KEY}=root` }, 'API_KEYS: entry 1: expected a role among dashboard, ops, worker, service, admin'],
    [{ API_KEYS: 'short=admin' }, 'API_KEYS: entry 1: expected a token of 16 to 512 characters'],
    [{ API_KEYS: `${KEY}=admin,${KEY}=ops` }, 'API_KEYS: entry 2: the same token appears twice'],
    [{ API_KEYS: 'no-role-at-all-here' }, 'API_KEYS: entry 1: expected token=role'],
  ])('refuses %o, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes a key in its error message', () => {
    const secret = 'super-secret-token-value';
    expect(() => loadConfig({ API_KEYS: `${secret}=root` })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(secret) }),
    );
  });

  it('refuses production without API_KEYS', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('API_KEYS: required when NODE_ENV=production');
    expect(loadConfig({ NODE_ENV: 'production', API_KEYS: `${KEY}=admin` }).nodeEnv).toBe('production');
  });
});

describe('the payout queue (PAYOUT_QUEUE, REDIS_URL, PAYOUT_QUEUE_NAME)', () => {
  it('defaults to work items', () => {
    expect(loadConfig({}).payoutQueue).toEqual({ kind: 'work-items' });
  });

  it('takes a BullMQ queue on REDIS_URL, named payouts unless PAYOUT_QUEUE_NAME says otherwise', () => {
    expect(loadConfig({ PAYOUT_QUEUE: 'bullmq', REDIS_URL: 'redis://127.0.0.1:6379' }).payoutQueue).toEqual({
      kind: 'bullmq',
      redisUrl: 'redis://127.0.0.1:6379',
      queueName: 'payouts',
    });
    expect(
      loadConfig({ PAYOUT_QUEUE: 'bullmq', REDIS_URL: 'rediss://u:p@cache:6380/2', PAYOUT_QUEUE_NAME: 'eu-payouts' })
        .payoutQueue,
    ).toMatchObject({ queueName: 'eu-payouts' });
  });

  it('refuses bullmq without REDIS_URL, an unknown queue kind, a URL that is not redis and a name with a colon, naming each variable', () => {
    expect(() => loadConfig({ PAYOUT_QUEUE: 'bullmq' })).toThrow(/REDIS_URL: required when PAYOUT_QUEUE=bullmq/);
    expect(() => loadConfig({ PAYOUT_QUEUE: 'kafka' })).toThrow(/PAYOUT_QUEUE: expected work-items or bullmq/);
    expect(() => loadConfig({ PAYOUT_QUEUE: 'bullmq', REDIS_URL: 'http://cache:6379' })).toThrow(
      /REDIS_URL: expected a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(() => loadConfig({ PAYOUT_QUEUE: 'bullmq', REDIS_URL: 'redis://cache', PAYOUT_QUEUE_NAME: 'a:b' })).toThrow(
      /PAYOUT_QUEUE_NAME: expected a queue name/,
    );
  });

  it('never echoes REDIS_URL, which may carry a password', () => {
    expect(() => loadConfig({ PAYOUT_QUEUE: 'bullmq', REDIS_URL: 'redis://:s3cret-pw@cache bad' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PAYOUT_QUEUE: 'bullmq', REDIS_URL: 'redis://:s3cret-pw@cache bad' });
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret-pw');
    }
  });
});
