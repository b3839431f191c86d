// Withdrawals with distinct requestIds: each is one transaction (conditional debit, the request
// under its key, the entry, commit). "hot" puts the load on a few accounts, so concurrent debits
// meet on one document (they take turns per account inside the API process); "spread" over
// many, so they rarely do.
import { outcomeLabel, sized } from '../context.ts';
import { WITHDRAW } from '../documents.ts';
import { fundAccounts } from '../fundAccounts.ts';
import { measure } from '../measure.ts';
import type { Comparison, Line, Target } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const AMOUNT_MINOR = 1;
const DURATION_MAX_MS = 60_000;

export interface WithdrawShape {
  name: string;
  concurrency: number;
  accounts: { full: number; quick: number };
  ops: { full: number; quick: number };
  target: Target;
  /** Also run the plain-driver baseline on the same account ids and load, and print api/raw. */
  raw?: { target: Target; comparison: Comparison['target'] };
}

export function withdrawScenario(shape: WithdrawShape): Scenario {
  return {
    name: shape.name,
    describe: (mode) =>
      `${sized(mode, shape.ops)} withdrawals at c=${shape.concurrency} over ${sized(mode, shape.accounts)} account(s), distinct requestIds`,
    async run(context) {
      const opsMax = sized(context.mode, shape.ops);
      // Enough for every withdrawal to land on one account: a refusal here would be a bug, not load.
      const ids = await fundAccounts(context, shape.name, sized(context.mode, shape.accounts), opsMax * AMOUNT_MINOR);
      const measured = await measure({
        name: shape.name,
        target: shape.target,
        plan: { concurrency: shape.concurrency, opsMax, durationMaxMs: DURATION_MAX_MS },
        expected: 'WithdrawSuccess',
        async operation(i) {
          const input = {
            accountId: ids[i % ids.length],
            amount: AMOUNT_MINOR,
            requestId: `${context.runId}-${shape.name}-${i}`,
          };
          const label = outcomeLabel(await context.pool.post(context.keys.service, WITHDRAW, { input }), 'withdraw');
          if (label === 'WithdrawSuccess') context.book.withdrawnMinor += AMOUNT_MINOR;
          return { label };
        },
      });
      if (!shape.raw) return [measured];
      // Same ids, same funding, same concurrency, same count, right after the API's line.
      await context.raw.fund(ids, opsMax * AMOUNT_MINOR);
      const raw = await measure({
        name: `raw-${shape.name}`,
        target: shape.raw.target,
        plan: { concurrency: shape.concurrency, opsMax, durationMaxMs: DURATION_MAX_MS },
        expected: 'WithdrawSuccess',
        operation: async (i) => ({
          label: await context.raw.withdraw(
            ids[i % ids.length]!,
            AMOUNT_MINOR,
            `${context.runId}-raw-${shape.name}-${i}`,
          ),
        }),
      });
      const comparison: Line = {
        kind: 'comparison',
        name: `api/raw-${shape.name}`,
        api: measured,
        raw,
        target: shape.raw.comparison,
      };
      return [measured, raw, comparison];
    },
  };
}
