// Withdrawals with distinct requestIds: each is a claim of the key plus one conditional debit.
// "hot" spreads the load over a few accounts, so concurrent debits meet on one document;
// "spread" over many, so they rarely do.
import { outcomeLabel, sized } from '../context.ts';
import { WITHDRAW } from '../documents.ts';
import { fundAccounts } from '../fundAccounts.ts';
import { measure } from '../measure.ts';
import { atLeastOpsPerSecond } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const AMOUNT_MINOR = 1;
const DURATION_MS_MAX = 60_000;

export interface WithdrawShape {
  name: string;
  concurrency: number;
  accounts: number;
  ops: { full: number; quick: number };
  targetOpsPerSecond: number;
}

export function withdrawScenario(shape: WithdrawShape): Scenario {
  return {
    name: shape.name,
    describe: (mode) =>
      `${sized(mode, shape.ops)} withdrawals at c=${shape.concurrency} over ${shape.accounts} account(s), distinct requestIds`,
    async run(context) {
      const opsMax = sized(context.mode, shape.ops);
      // Enough for every withdrawal to land on one account: a refusal here would be a bug, not load.
      const ids = await fundAccounts(context, shape.name, shape.accounts, opsMax * AMOUNT_MINOR);
      const measured = await measure({
        name: shape.name,
        target: atLeastOpsPerSecond(shape.targetOpsPerSecond, `≥ ${shape.targetOpsPerSecond} withdrawals/s at c=${shape.concurrency}`),
        plan: { concurrency: shape.concurrency, opsMax, durationMsMax: DURATION_MS_MAX },
        expected: 'WithdrawSuccess',
        async operation(i) {
          const input = { accountId: ids[i % ids.length], amount: AMOUNT_MINOR, requestId: `${context.runId}-${shape.name}-${i}` };
          const label = outcomeLabel(await context.pool.post(context.keys.service, WITHDRAW, { input }), 'withdraw');
          if (label === 'WithdrawSuccess') context.book.withdrawnMinor += AMOUNT_MINOR;
          return { label };
        },
      });
      return [measured];
    },
  };
}
