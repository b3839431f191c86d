// Replays of one requestId whose withdrawal already applied: the DuplicateReplayed path, which
// reads the stored outcome and moves no money.
import { outcomeLabel, sized } from '../context.ts';
import { WITHDRAW } from '../documents.ts';
import { fundAccounts } from '../fundAccounts.ts';
import { measure } from '../measure.ts';
import { p99AtMostMs } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const NAME = 'replay';
const CONCURRENCY = 1;
const OPS = { full: 2_000, quick: 16 };
const AMOUNT_MINOR = 500;
const DURATION_MAX_MS = 60_000;
/** A retry reads the stored outcome: it must stay cheaper than a first attempt. */
const P99_MS_MAX = 20;

export const replayScenario: Scenario = {
  name: NAME,
  describe: (mode) => `${sized(mode, OPS)} replays of one applied withdrawal's requestId at c=${CONCURRENCY}`,
  async run(context) {
    const [accountId] = await fundAccounts(context, NAME, 1, AMOUNT_MINOR);
    const input = { accountId, amount: AMOUNT_MINOR, requestId: `${context.runId}-${NAME}` };
    const first = outcomeLabel(await context.pool.post(context.keys.service, WITHDRAW, { input }), 'withdraw');
    if (first !== 'WithdrawSuccess') throw new Error(`set-up of ${NAME}: expected WithdrawSuccess, got ${first}`);
    context.book.withdrawnMinor += AMOUNT_MINOR;

    const measured = await measure({
      name: NAME,
      target: p99AtMostMs(P99_MS_MAX, `p99 ≤ ${P99_MS_MAX} ms per replay`),
      plan: { concurrency: CONCURRENCY, opsMax: sized(context.mode, OPS), durationMaxMs: DURATION_MAX_MS },
      expected: 'DuplicateReplayed',
      async operation() {
        return { label: outcomeLabel(await context.pool.post(context.keys.service, WITHDRAW, { input }), 'withdraw') };
      },
    });
    return [measured];
  },
};
