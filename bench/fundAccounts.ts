// Untimed set-up: opens accounts and funds each with one deposit, through the API like a client.
import type { BenchContext } from './context.ts';
import { outcomeLabel } from './context.ts';
import { DEPOSIT, OPEN_ACCOUNT } from './documents.ts';
import { runLoad } from './runLoad.ts';

const SETUP_CONCURRENCY = 8;
const SETUP_DURATION_MAX_MS = 120_000;

/** Opens `count` EUR accounts named `<prefix>-<n>` holding `fundingMinor` each; returns their ids. */
export async function fundAccounts(
  context: BenchContext,
  prefix: string,
  count: number,
  fundingMinor: number,
): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${context.runId}-${prefix}-${i}`);
  await runSetup(count, async (i) => {
    const accountId = ids[i]!;
    const opened = await context.pool.post(context.keys.service, OPEN_ACCOUNT, {
      input: { accountId, currency: 'EUR' },
    });
    expectOutcome(outcomeLabel(opened, 'openAccount'), 'OpenAccountSuccess', accountId);
    await deposit(context, accountId, fundingMinor, `${accountId}-funding`);
  });
  return ids;
}

export async function deposit(
  context: BenchContext,
  accountId: string,
  amount: number,
  requestId: string,
): Promise<void> {
  const answer = await context.pool.post(context.keys.service, DEPOSIT, { input: { accountId, amount, requestId } });
  expectOutcome(outcomeLabel(answer, 'deposit'), 'DepositSuccess', requestId);
  context.book.depositedMinor += amount;
}

/** Runs set-up steps with bounded concurrency; any failure stops the bench, it is not a figure. */
export async function runSetup(count: number, step: (index: number) => Promise<void>): Promise<void> {
  const plan = { concurrency: SETUP_CONCURRENCY, opsMax: count, durationMaxMs: SETUP_DURATION_MAX_MS };
  const run = await runLoad(plan, (i) =>
    step(i).then(
      () => ({ label: 'ok' }),
      (error: unknown) => ({ label: error instanceof Error ? error.message : String(error) }),
    ),
  );
  const failures = [...run.tally].filter(([label]) => label !== 'ok');
  if (failures.length > 0 || run.started < count) {
    throw new Error(`set-up failed: ${run.started}/${count} steps started, ${JSON.stringify(failures)}`);
  }
}

function expectOutcome(label: string, expected: string, what: string): void {
  if (label !== expected) throw new Error(`set-up of ${what}: expected ${expected}, got ${label}`);
}
