// A dashboard's read: one account and the newest page of 50 journal entries.
import { outcomeLabel, sized } from '../context.ts';
import { ENTRIES_PAGE } from '../documents.ts';
import { deposit, fundAccounts, runSetup } from '../fundAccounts.ts';
import { measure } from '../measure.ts';
import { p99AtMostMs } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const NAME = 'entries-page';
const CONCURRENCY = 8;
const OPS = { full: 3_000, quick: 16 };
const PAGE_SIZE = 50;
/** More entries than one page, so the page is full and hasNextPage is true. */
const ENTRIES = 60;
const DURATION_MAX_MS = 60_000;
/** A dashboard page load stays interactive. */
const P99_MS_MAX = 100;

export const entriesPageScenario: Scenario = {
  name: NAME,
  describe: (mode) => `${sized(mode, OPS)} reads of account { entries(first: ${PAGE_SIZE}) } at c=${CONCURRENCY}`,
  async run(context) {
    const [accountId] = await fundAccounts(context, NAME, 1, 1);
    await runSetup(ENTRIES - 1, (i) => deposit(context, accountId!, 1, `${accountId}-entry-${i}`));

    const measured = await measure({
      name: NAME,
      target: p99AtMostMs(P99_MS_MAX, `p99 ≤ ${P99_MS_MAX} ms per page at c=${CONCURRENCY}`),
      plan: { concurrency: CONCURRENCY, opsMax: sized(context.mode, OPS), durationMaxMs: DURATION_MAX_MS },
      expected: 'Account',
      async operation() {
        const answer = await context.pool.post(context.keys.dashboard, ENTRIES_PAGE, { id: accountId });
        const label = outcomeLabel(answer, 'account');
        const items = (answer.data?.['account'] as { entries?: { items?: unknown[] } } | undefined)?.entries?.items;
        return { label: label === 'Account' && items?.length !== PAGE_SIZE ? 'short-page' : label };
      },
    });
    return [measured];
  },
};
