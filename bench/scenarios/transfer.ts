// Transfers between many accounts: one transaction each (conditional debit, conditional credit,
// the request under its key, two entries, commit).
import { outcomeLabel, sized } from '../context.ts';
import { TRANSFER } from '../documents.ts';
import { fundAccounts } from '../fundAccounts.ts';
import { measure } from '../measure.ts';
import { atLeastOpsPerSecond } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const NAME = 'transfer-c32';
const CONCURRENCY = 32;
const ACCOUNTS = { full: 64, quick: 16 };
const OPS = { full: 3_000, quick: 32 };
const AMOUNT_MINOR = 1;
const DURATION_MAX_MS = 60_000;
/** Transfers are internal moves (sweeps, fees): well below the payout peak. */
const TARGET_OPS_PER_SECOND = 100;

export const transferScenario: Scenario = {
  name: NAME,
  describe: (mode) => `${sized(mode, OPS)} transfers at c=${CONCURRENCY} among ${sized(mode, ACCOUNTS)} accounts`,
  async run(context) {
    const opsMax = sized(context.mode, OPS);
    const accounts = sized(context.mode, ACCOUNTS);
    const ids = await fundAccounts(context, NAME, accounts, opsMax * AMOUNT_MINOR);
    const measured = await measure({
      name: NAME,
      target: atLeastOpsPerSecond(TARGET_OPS_PER_SECOND, `≥ ${TARGET_OPS_PER_SECOND} transfers/s at c=${CONCURRENCY}`),
      plan: { concurrency: CONCURRENCY, opsMax, durationMaxMs: DURATION_MAX_MS },
      expected: 'TransferSuccess',
      async operation(i) {
        // `to` is 1 to 13 places after `from`, fewer than there are accounts, so never `from` itself.
        const input = {
          fromAccountId: ids[i % accounts],
          toAccountId: ids[(i + 1 + 2 * (i % 7)) % accounts],
          amount: AMOUNT_MINOR,
          requestId: `${context.runId}-${NAME}-${i}`,
        };
        return { label: outcomeLabel(await context.pool.post(context.keys.service, TRANSFER, { input }), 'transfer') };
      },
    });
    return [measured];
  },
};
