// Claims across groups (W9): what the turns across a kind's groups cost a claim. Four lines, each
// a kind of its own seeded untimed in the database with more PENDING items than the line claims:
// `work-claim-kinds` (no group: the plain walk of the kind, as before groups), then 1, 10 and
// 1,000 groups waiting. Each op is one `claimWorkItems` with `max: 1` by one of 16 workers (items
// are claimed, not completed: the claim's cost alone). A grouped claim costs one seek to learn
// that the kind has groups, then one seek per group dealt (the next group's head) and, when fewer
// groups wait than the batch, one read per group: bounded by the batch, not by the groups.
import { ObjectId } from 'mongodb';
import { outcomeLabel, sized, type BenchContext } from '../context.ts';
import { measure } from '../measure.ts';
import { atLeastOpsPerSecond, type Measured } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const NAME = 'work-claim';
const CLAIMS = { full: 2_000, quick: 48 };
const WORKERS = 16;
const DURATION_MAX_MS = 120_000;
const LEASE_SECONDS = 600;
/** A claim must keep up with draining the withdrawal peak's payouts, as `work-drain` does. */
const CLAIMS_PER_SECOND_MIN = 200;
const CLAIM_MANY = `mutation ($input: ClaimWorkItemsInput!) { claimWorkItems(input: $input) { __typename ... on ClaimWorkItemsSuccess { items { id } } } }`;

export const workGroupsScenario: Scenario = {
  name: NAME,
  describe: (mode) =>
    `claimWorkItems(max 1) ${sized(mode, CLAIMS)} times by ${WORKERS} workers: a kind without groups, then 1, 10 and 1,000 groups waiting`,
  async run(context) {
    const claims = sized(context.mode, CLAIMS);
    const lines: Measured[] = [];
    for (const groups of [0, 1, 10, 1_000]) {
      const kind = `bench-groups-${groups}-${context.runId}`;
      await seed(context, kind, groups, claims + WORKERS * 2);
      lines.push(await claimLine(context, kind, groups === 0 ? `${NAME}-kinds` : `${NAME}-groups-${groups}`, claims));
    }
    return lines;
  },
};

/** `items` PENDING items of `kind`, due, spread over `groups` groups (none when 0): as createWorkItem leaves them. */
async function seed(context: BenchContext, kind: string, groups: number, items: number): Promise<void> {
  const now = new Date();
  const docs = Array.from({ length: Math.max(items, groups) }, (_, i) => ({
    _id: new ObjectId(),
    idempotencyKey: `client:${kind}-${i}`,
    kind,
    payload: { i },
    status: 'PENDING',
    previousStatus: null,
    version: 1,
    lockedBy: null,
    leaseExpiresAt: null,
    leaseDurationMs: null,
    attempts: 0,
    maxAttempts: 5,
    availableAt: new Date(now.getTime() - 60_000 + i),
    priority: 0,
    runAt: null,
    ...(groups === 0 ? {} : { group: `tenant-${String(i % groups).padStart(4, '0')}` }),
    result: null,
    lastCompletion: null,
    history: [{ from: null, to: 'PENDING', version: 1, at: now, workerId: null }],
    createdAt: now,
    updatedAt: now,
  }));
  for (let from = 0; from < docs.length; from += 1_000)
    await context.db.collection('workItems').insertMany(docs.slice(from, from + 1_000));
}

function claimLine(context: BenchContext, kind: string, name: string, claims: number): Promise<Measured> {
  return measure({
    name,
    target: atLeastOpsPerSecond(CLAIMS_PER_SECOND_MIN, `≥ ${CLAIMS_PER_SECOND_MIN} claims/s by ${WORKERS} workers`),
    plan: { concurrency: WORKERS, opsMax: claims, durationMaxMs: DURATION_MAX_MS },
    expected: 'ClaimWorkItemsSuccess',
    async operation(_i, lane) {
      const startedMs = performance.now();
      const answer = await context.pool.post(context.keys.worker, CLAIM_MANY, {
        input: { kinds: [kind], workerId: `${name}-${lane}`, max: 1, leaseSeconds: LEASE_SECONDS },
      });
      const label = outcomeLabel(answer, 'claimWorkItems');
      // A batch of one whose only candidate another worker took first comes back empty: a lost race, not a claim.
      const items = (answer.data?.['claimWorkItems'] as { items?: unknown[] } | undefined)?.items;
      return {
        label: label === 'ClaimWorkItemsSuccess' && items?.length === 0 ? 'ConflictLost' : label,
        latencyMs: performance.now() - startedMs,
      };
    },
    tolerated: ['ConflictLost'],
  });
}
