// `submitMoves` of 100 withdrawals at c=4, in moves/s, against the plain driver's withdrawals at
// c=32 on the same accounts: a batch is one transaction of six commands where the plain driver
// sends three majority writes per withdrawal (issue 25: moves/s ≥ 2× the plain driver's).
import { outcomeLabel, sized } from '../context.ts';
import { SUBMIT_MOVES } from '../documents.ts';
import { fundAccounts } from '../fundAccounts.ts';
import { measure } from '../measure.ts';
import { apiToRawRatio, atLeastOpsPerSecond, type Line, type Measured } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const AMOUNT_MINOR = 1;
const MOVES_PER_BATCH = 100;
const BATCH_CONCURRENCY = 4;
const RAW_CONCURRENCY = 32;
const DURATION_MAX_MS = 60_000;
/** Moves/s of the batches against the plain driver's withdrawals/s. */
const MOVES_TO_RAW_RATIO_MIN = 2;
/** Twice the 900 withdrawals/s goal line of the single moves (scenarios/index.ts). */
const MOVES_PER_SECOND_MIN = 1_800;

export const submitMovesScenario: Scenario = {
  name: 'submit-moves-c4',
  describe: (mode) =>
    `${sized(mode, { full: 40, quick: 2 })} submitMoves of ${MOVES_PER_BATCH} withdrawals at c=${BATCH_CONCURRENCY} over ` +
    `${sized(mode, { full: 512, quick: 32 })} accounts (moves/s), then the plain driver at c=${RAW_CONCURRENCY} on as many withdrawals`,
  async run(context) {
    const batches = sized(context.mode, { full: 40, quick: 2 });
    const moves = batches * MOVES_PER_BATCH;
    const ids = await fundAccounts(
      context,
      'submit-moves',
      sized(context.mode, { full: 512, quick: 32 }),
      moves * AMOUNT_MINOR,
    );
    const target = atLeastOpsPerSecond(
      MOVES_PER_SECOND_MIN,
      `≥ ${MOVES_PER_SECOND_MIN} moves/s in batches of ${MOVES_PER_BATCH} at c=${BATCH_CONCURRENCY}`,
    );
    const perBatch = await measure({
      name: 'submit-moves-c4',
      target,
      plan: { concurrency: BATCH_CONCURRENCY, opsMax: batches, durationMaxMs: DURATION_MAX_MS },
      expected: 'SubmitMovesSuccess',
      async operation(b) {
        const batch = Array.from({ length: MOVES_PER_BATCH }, (_, m) => {
          const i = b * MOVES_PER_BATCH + m;
          return {
            kind: 'WITHDRAW',
            accountId: ids[i % ids.length],
            amount: AMOUNT_MINOR,
            requestId: `${context.runId}-sm-${i}`,
          };
        });
        const answer = await context.pool.post(context.keys.service, SUBMIT_MOVES, {
          input: { atomic: false, moves: batch },
        });
        const label = outcomeLabel(answer, 'submitMoves');
        if (label !== 'SubmitMovesSuccess') return { label };
        const results = (answer.data!['submitMoves'] as { results: { __typename: string }[] }).results;
        const applied = results.filter((result) => result.__typename === 'WithdrawSuccess').length;
        context.book.withdrawnMinor += applied * AMOUNT_MINOR;
        return { label: applied === MOVES_PER_BATCH ? 'SubmitMovesSuccess' : 'partial' };
      },
    });
    // The line counts moves, not requests; its latencies stay those of whole batches.
    const api: Measured = {
      ...perBatch,
      ops: perBatch.ops * MOVES_PER_BATCH,
      errors: perBatch.errors * MOVES_PER_BATCH,
      note: `moves; p50/p99 per batch of ${MOVES_PER_BATCH}`,
    };
    await context.raw.fund(ids, moves * AMOUNT_MINOR);
    const raw = await measure({
      name: `raw-withdraw-c${RAW_CONCURRENCY}-for-batches`,
      target: atLeastOpsPerSecond(0, 'baseline'),
      plan: { concurrency: RAW_CONCURRENCY, opsMax: moves, durationMaxMs: DURATION_MAX_MS },
      expected: 'WithdrawSuccess',
      operation: async (i) => ({
        label: await context.raw.withdraw(ids[i % ids.length]!, AMOUNT_MINOR, `${context.runId}-raw-sm-${i}`),
      }),
    });
    const comparison: Line = {
      kind: 'comparison',
      label: 'moves/raw',
      name: 'api/raw-submit-moves',
      api,
      raw,
      target: {
        text: `batched moves/s ≥ ${MOVES_TO_RAW_RATIO_MIN}× plain driver's at c=${RAW_CONCURRENCY}`,
        met: (a, r) => apiToRawRatio(a, r) >= MOVES_TO_RAW_RATIO_MIN,
      },
    };
    return [api, raw, comparison];
  },
};
