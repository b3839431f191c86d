// @module-tag processes
// The payout worker's configuration (workers/payouts/config.ts): defaults, every wrong variable
// named with what it expected, the API key never echoed; and the process itself refusing to start
// on bad configuration, with that message and exit code 2.
import { describe, expect, it } from 'vitest';
import { loadPayoutWorkerConfig, PayoutWorkerConfigError } from '../../workers/payouts/config.ts';
import { spawnNode } from '../support/app.ts';
import { workerScriptArgs } from './support/payoutRun.ts';

const valid = {
  API_URL: 'http://127.0.0.1:4000/graphql',
  API_KEY: 'worker-key-1',
  PAYOUT_PROVIDER_URL: 'https://payouts.example.com',
};

describe('loadPayoutWorkerConfig', () => {
  it('reads the three required variables and fills the optional ones with defaults', () => {
    expect(loadPayoutWorkerConfig(valid)).toEqual({
      apiUrl: valid.API_URL,
      apiKey: valid.API_KEY,
      providerUrl: valid.PAYOUT_PROVIDER_URL,
      concurrency: 4,
      leaseSeconds: 30,
      providerTimeoutMs: 10_000,
      shutdownGraceMs: 10_000,
      pollMaxMs: 5_000,
      workerId: undefined,
      logLevel: 'info',
    });
  });

  it('takes the optional variables, an empty one meaning unset', () => {
    const config = loadPayoutWorkerConfig({
      ...valid,
      PAYOUT_WORKER_CONCURRENCY: '16',
      PAYOUT_WORKER_LEASE_SECONDS: '5',
      PAYOUT_PROVIDER_TIMEOUT_MS: '2500',
      PAYOUT_WORKER_SHUTDOWN_GRACE_MS: '0',
      PAYOUT_WORKER_POLL_MAX_MS: '',
      PAYOUT_WORKER_ID: 'payouts-eu-1',
      PAYOUT_WORKER_LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      concurrency: 16,
      leaseSeconds: 5,
      providerTimeoutMs: 2_500,
      shutdownGraceMs: 0,
      pollMaxMs: 5_000,
      workerId: 'payouts-eu-1',
      logLevel: 'debug',
    });
  });

  it('names every missing or wrong variable with what it expected, and never echoes the key', () => {
    const secret = 'Bearer s3cret-value';
    let error: unknown;
    try {
      loadPayoutWorkerConfig({
        API_URL: 'localhost:4000',
        API_KEY: secret,
        PAYOUT_WORKER_CONCURRENCY: '0',
        PAYOUT_WORKER_LEASE_SECONDS: '1.5',
        PAYOUT_WORKER_LOG_LEVEL: 'loud',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PayoutWorkerConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid payout worker configuration:\n/);
    expect(message).toMatch(/API_URL: expected an http:\/\/ or https:\/\/ URL/);
    expect(message).toMatch(/API_KEY: expected the bare key/);
    expect(message).toMatch(/PAYOUT_PROVIDER_URL: required; expected an http:\/\/ or https:\/\/ URL/);
    expect(message).toMatch(/PAYOUT_WORKER_CONCURRENCY: expected an integer between 1 and 256/);
    expect(message).toMatch(/PAYOUT_WORKER_LEASE_SECONDS: expected an integer between 1 and 3600/);
    expect(message).toMatch(/PAYOUT_WORKER_LOG_LEVEL: /);
    expect(message).not.toContain('s3cret');
    expect(() => loadPayoutWorkerConfig({ ...valid, API_URL: 'ftp://example.com/graphql' })).toThrow(
      /API_URL: expected an http/,
    );
    expect(() => loadPayoutWorkerConfig({ ...valid, API_KEY: undefined })).toThrow(
      /API_KEY: required; expected an API key of the worker role/,
    );
  });
});

describe('npm run worker:payouts with bad configuration', () => {
  it('exits with code 2 and the message, before any call', async () => {
    const worker = spawnNode(workerScriptArgs(), { API_URL: valid.API_URL, PAYOUT_PROVIDER_URL: 'not a url' });
    const exit = await worker.exited;
    expect(exit.code).toBe(2);
    expect(worker.stderr()).toMatch(
      /Invalid payout worker configuration:\n {2}API_KEY: required.*\n {2}PAYOUT_PROVIDER_URL: expected an http/,
    );
    expect(worker.stdout()).toBe('');
  });
});
