// @module-tag processes
// Proves `npm run worker:payouts` as an operator runs it (issue 37 item 8, and item 2 for the
// worker): started by npm, it logs each payout it made at info; a key the API refuses stops it at
// once with exit code 77 and a message saying which key to set, instead of polling forever; the
// API does not log an idle worker's NothingToClaim at info; SIGTERM to npm's pid (what a process
// manager sends) stops the worker cleanly.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnCommand, startAppProcess, type AppProcess, type MainProcess } from '../support/app.ts';
import { openAccount } from '../support/callers.ts';
import { testMongoUri } from '../support/mongo.ts';
import { startTestPayoutProvider, type TestPayoutProvider } from '../support/payoutProvider.ts';
import { waitFor } from '../support/waiting.ts';

let api: AppProcess;
let provider: TestPayoutProvider;
const workers: MainProcess[] = [];
beforeAll(async () => {
  [api, provider] = await Promise.all([
    startAppProcess({
      mongoUri: testMongoUri(),
      dbName: `test_worker_process_${randomBytes(4).toString('hex')}`,
      env: { LOG_LEVEL: 'info' },
    }),
    startTestPayoutProvider(),
  ]);
}, 90_000);
afterEach(() => {
  for (const worker of workers.splice(0))
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
});
afterAll(async () => {
  await api?.stop();
  await provider?.stop();
});

function npmWorker(apiKey: string): MainProcess {
  const worker = spawnCommand('npm', ['run', 'worker:payouts'], {
    API_URL: api.url,
    API_KEY: apiKey,
    PAYOUT_PROVIDER_URL: provider.url,
    PAYOUT_WORKER_POLL_MAX_MS: '100',
  });
  workers.push(worker);
  return worker;
}

/** How many claimWorkItems calls the API has answered (its own counter, by the SDK's operation name). */
async function claimCalls(): Promise<number> {
  const text = await (await fetch(api.url.replace(/\/graphql$/, '/metrics'))).text();
  return [
    ...text.matchAll(
      /^graphql_operations_total\{type="mutation",outcome="[a-z_]+",operation="ClaimWorkItems"\} (\d+)$/gm,
    ),
  ].reduce((sum, [, n]) => sum + Number(n), 0);
}

describe('npm run worker:payouts', () => {
  it('logs each payout at info, leaves idle polls out of the API log at info, and stops on SIGTERM to npm', async () => {
    const worker = npmWorker(api.keys.worker);
    await worker.waitFor(/"msg":"payout worker started"/, 60_000);
    await openAccount(api, 'worker-process-acct');
    await api.gql(
      'mutation { deposit(input: { accountId: "worker-process-acct", amount: 1000, requestId: "wp-dep" }) { __typename } }',
      {},
      { key: 'service' },
    );
    const withdrawal = await api.gql(
      'mutation { withdraw(input: { accountId: "worker-process-acct", amount: 300, requestId: "wp-wd" }) { __typename } }',
      {},
      { key: 'service' },
    );
    expect(withdrawal.data?.withdraw.__typename).toBe('WithdrawSuccess');

    const [done] = await worker.waitFor(/\{[^\n]*"msg":"payout done"[^\n]*\}/, 60_000);
    expect(JSON.parse(done!)).toMatchObject({
      level: 'info',
      key: expect.stringMatching(/^payout:/),
      result: { providerId: expect.any(String) },
    });
    expect(provider.snapshot().paid).toBe(1);

    // Idle now: let it poll a dozen more times, none of which the API writes at info.
    const polled = await claimCalls();
    await waitFor(async () => (await claimCalls()) >= polled + 12, 'a dozen idle polls', 30_000);
    expect(api.main.stdout()).toContain('"msg":"claimWorkItems: ClaimWorkItemsSuccess"');
    expect(api.main.stdout()).not.toContain('claimWorkItems: NothingToClaim');

    const [node] = execFileSync('ps', ['-o', 'pid=', '--ppid', String(worker.child.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
    expect(execFileSync('ps', ['-o', 'comm=', '-p', String(node)], { encoding: 'utf8' }).trim()).toBe('node');
    worker.child.kill('SIGTERM');
    await worker.waitFor(/"msg":"payout worker stopped"/, 20_000);
    expect((await worker.exited).code).toBe(0);
    await waitFor(
      () => {
        try {
          return execFileSync('ps', ['-o', 'stat=', '-p', String(node)], { encoding: 'utf8' })
            .trim()
            .startsWith('Z');
        } catch {
          return true; // gone
        }
      },
      'the worker node process gone',
      20_000,
    );
  }, 180_000);

  it('stops at once with exit code 77 and says which key to set when the API refuses its key', async () => {
    const worker = npmWorker('not-a-key-of-this-api-0123456789');
    const exit = await worker.exited;
    expect(exit.code, `${worker.stdout()}\n${worker.stderr()}`).toBe(77);
    expect(worker.stderr()).toContain(
      `payout worker: the API at ${api.url} refused API_KEY (UNAUTHENTICATED: Unknown API key`,
    );
    expect(worker.stderr()).toContain('set API_KEY to a key of the worker role');
    expect(worker.stdout()).not.toContain('payout worker error');
  }, 120_000);

  it('stops the same way on a key whose role may not claim', async () => {
    const worker = npmWorker(api.keys.dashboard);
    expect((await worker.exited).code).toBe(77);
    // Whichever the API refuses first: the claim, or the subscription that wakes the worker.
    expect(worker.stderr()).toMatch(
      /refused API_KEY \(FORBIDDEN: (Role dashboard may not use claimWorkItems|role dashboard may open no subscription)/,
    );
  }, 120_000);
});
