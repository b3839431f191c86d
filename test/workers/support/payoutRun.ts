// W7 with real processes: an API process (whose payout projection makes one PAYOUT item per
// applied withdrawal), payout worker processes as `npm run worker:payouts` runs them, and the
// test provider, which holds back the first answer for each key so that workers are caught
// mid-call. Each round applies a wave of withdrawals, then takes the worker holding one of the
// held calls (found by the item's lockedBy) and either SIGKILLs it (and starts a new one in its
// place) or SIGSTOPs it until another worker has taken the item over, then SIGCONTs it (a long
// GC pause: it comes back to a lease it no longer has). The figures say what happened; the
// checks say whether every applied withdrawal was paid exactly once.
import { randomBytes } from 'node:crypto';
import { workerScriptArgs } from '../../../bench/payoutWorkerProcess.ts';
import type { Db } from 'mongodb';
import { workItems, type WorkItemDoc } from '../../../src/work/index.ts';
import { spawnNode, type AppProcess, type MainProcess } from '../../support/app.ts';
import { startTestPayoutProvider, type ProviderSnapshot, type StoredPayout } from '../../support/payoutProvider.ts';
import { waitFor } from '../../support/waiting.ts';

/** `npm run worker:payouts` as package.json says it, less `node`: the test runs what users run. */
export { workerScriptArgs };

export type Disruption = 'kill' | 'pause';

export interface PayoutRunOptions {
  api: AppProcess;
  /** The API's database, read directly for the items' state and history. */
  db: Db;
  /** One wave of withdrawals per round, then one disruption. */
  rounds: Disruption[];
  withdrawalsPerWave: number;
  /** Worker processes running at once (each killed one is replaced). */
  workers: number;
  concurrency: number;
  leaseSeconds: number;
  /** How long the provider holds back the first answer of each key. */
  holdMs: number;
  /** The worker's node arguments (default: `npm run worker:payouts`'s); a meta-test runs a mutant. */
  workerArgs?: string[];
  /** How long everything may take once the rounds are done. */
  settleTimeoutMs: number;
}

export interface PayoutRunFigures {
  withdrawals: number;
  provider: Omit<ProviderSnapshot, 'payouts' | 'held'>;
  /** PROCESSING → PROCESSING transitions in the items' history: a worker took over another's expired lease. */
  leaseTakeovers: number;
  /** "payout lease lost" lines: a worker heard that its lease was gone (heartbeat or completion fenced). */
  leaseLostReported: number;
  kills: number;
  pauses: number;
  processesStarted: number;
  /** Attempts per item, as the items record them. */
  mostAttempts: number;
  elapsedMs: number;
}

export interface PayoutRunOutcome {
  figures: PayoutRunFigures;
  /** Each applied withdrawal: its entry id and amount, from the withdraw answers. */
  applied: Array<{ entryId: string; accountId: string; amount: number }>;
  payoutsByEntry: Map<string, StoredPayout[]>;
  items: WorkItemDoc[];
}

const OPEN = `mutation ($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }`;
const DEPOSIT = `mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }`;
const WITHDRAW = `mutation ($input: WithdrawInput!) { withdraw(input: $input) { __typename ... on WithdrawSuccess { entry { id amount } } } }`;

async function serviceCall(api: AppProcess, query: string, input: Record<string, unknown>): Promise<any> {
  const answer = await api.gql(query, { input }, { key: 'service' });
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}

/** Opens `accountId` with more money than any run withdraws. */
export async function openFundedAccount(api: AppProcess, accountId: string): Promise<void> {
  await serviceCall(api, OPEN, { accountId, currency: 'EUR' });
  await serviceCall(api, DEPOSIT, { accountId, amount: 1_000_000_000, requestId: `${accountId}-funding` });
}

/** One withdrawal through the API; returns its journal entry (the payout's entry). */
export async function withdrawOnce(
  api: AppProcess,
  accountId: string,
  amount: number,
  requestId: string,
): Promise<{ entryId: string; accountId: string; amount: number }> {
  const data = await serviceCall(api, WITHDRAW, { accountId, amount, requestId });
  if (data.withdraw.__typename !== 'WithdrawSuccess') throw new Error(`withdraw answered ${data.withdraw.__typename}`);
  return { entryId: String(data.withdraw.entry.id), accountId, amount: Number(data.withdraw.entry.amount) };
}

interface WorkerProcess {
  workerId: string;
  main: MainProcess;
  paused: boolean;
}

export async function runPayouts(options: PayoutRunOptions): Promise<PayoutRunOutcome> {
  const t0 = Date.now();
  const tag = randomBytes(4).toString('hex');
  const provider = await startTestPayoutProvider({
    delayMs: (call) => (call.attempt === 1 && call.outcome === 'paid' ? options.holdMs : 0),
  });
  const processes: WorkerProcess[] = [];
  const everyProcess: WorkerProcess[] = [];
  let started = 0;
  const start = (): WorkerProcess => {
    const workerId = `payout-test-${tag}-${++started}`;
    const main = spawnNode(options.workerArgs ?? workerScriptArgs(), {
      API_URL: options.api.url,
      API_KEY: options.api.keys.worker,
      PAYOUT_PROVIDER_URL: provider.url,
      PAYOUT_WORKER_ID: workerId,
      PAYOUT_WORKER_CONCURRENCY: String(options.concurrency),
      PAYOUT_WORKER_LEASE_SECONDS: String(options.leaseSeconds),
      PAYOUT_WORKER_POLL_MAX_MS: '250',
      PAYOUT_WORKER_SHUTDOWN_GRACE_MS: '2000',
    });
    const worker = { workerId, main, paused: false };
    everyProcess.push(worker);
    return worker;
  };
  const figures = { kills: 0, pauses: 0 };
  const applied: PayoutRunOutcome['applied'] = [];
  const accountId = `payout-run-${tag}`;
  try {
    for (let i = 0; i < options.workers; i++) processes.push(start());
    await Promise.all(processes.map((worker) => worker.main.waitFor(/payout worker started/, 60_000)));

    await openFundedAccount(options.api, accountId);

    const items = workItems(options.db);
    for (const [round, disruption] of options.rounds.entries()) {
      const wave = await Promise.all(
        Array.from({ length: options.withdrawalsPerWave }, (_, i) =>
          withdrawOnce(
            options.api,
            accountId,
            round * options.withdrawalsPerWave + i + 1,
            `${accountId}-w${round}-${i}`,
          ),
        ),
      );
      applied.push(...wave);
      // A call the provider is holding back, by a worker that runs: that worker is mid-call (and
      // stays so for a while yet: a call about to be answered could finish before the signal lands).
      const target = await waitFor(
        async () => {
          for (const call of provider.snapshot().held.filter((held) => held.heldMs < options.holdMs / 2)) {
            const item = await items.findOne({ kind: 'PAYOUT', 'payload.entryId': call.entryId, status: 'PROCESSING' });
            const holder = processes.find((worker) => worker.workerId === item?.lockedBy && !worker.paused);
            if (item && holder) return { item, holder };
          }
          return undefined;
        },
        `a worker mid-call to the provider (round ${round + 1})`,
        30_000,
      );
      const takenOver = () =>
        waitFor(
          async () => {
            const now = await items.findOne({ _id: target.item._id });
            return now !== null && now.version > target.item.version && now.lockedBy !== target.holder.workerId;
          },
          `item ${String(target.item._id)} to be taken from ${target.holder.workerId}`,
          30_000,
        );
      if (disruption === 'kill') {
        target.holder.main.child.kill('SIGKILL');
        await target.holder.main.exited;
        figures.kills++;
        processes.splice(processes.indexOf(target.holder), 1, start());
        await takenOver();
      } else {
        target.holder.main.child.kill('SIGSTOP');
        target.holder.paused = true;
        figures.pauses++;
        try {
          await takenOver();
        } finally {
          target.holder.main.child.kill('SIGCONT');
          target.holder.paused = false;
        }
        // Back, it finds its lease gone (a heartbeat or its completion is fenced) and completes nothing.
        const itemId = String(target.item._id);
        await waitFor(
          () =>
            target.holder.main
              .stdout()
              .split('\n')
              .some((line) => line.includes('"payout lease lost"') && line.includes(itemId)),
          `${target.holder.workerId} to report the lease of ${itemId} lost`,
          30_000,
        );
      }
    }

    // Every PAYOUT item of the run settled (DONE, or FAILED if it ran out of attempts).
    const entryIds = applied.map((payout) => payout.entryId);
    await waitFor(
      async () =>
        (await items.countDocuments({
          kind: 'PAYOUT',
          'payload.entryId': { $in: entryIds },
          status: { $in: ['DONE', 'FAILED'] },
        })) === entryIds.length,
      `${entryIds.length} PAYOUT items to be settled`,
      options.settleTimeoutMs,
    );
    const settled = await items.find({ kind: 'PAYOUT', 'payload.entryId': { $in: entryIds } }).toArray();
    const { payouts: _payouts, held: _held, ...counts } = provider.snapshot();
    return {
      applied,
      items: settled,
      payoutsByEntry: provider.payoutsByEntry(),
      figures: {
        withdrawals: applied.length,
        provider: counts,
        leaseTakeovers: settled.reduce(
          (sum, item) =>
            sum + item.history.filter((step) => step.from === 'PROCESSING' && step.to === 'PROCESSING').length,
          0,
        ),
        leaseLostReported: everyProcess.reduce(
          (sum, worker) => sum + (worker.main.stdout().match(/"payout lease lost"/g)?.length ?? 0),
          0,
        ),
        kills: figures.kills,
        pauses: figures.pauses,
        processesStarted: started,
        mostAttempts: Math.max(0, ...settled.map((item) => item.attempts)),
        elapsedMs: Date.now() - t0,
      },
    };
  } finally {
    for (const worker of everyProcess) {
      if (worker.main.child.exitCode === null && worker.main.child.signalCode === null) {
        worker.main.child.kill('SIGCONT');
        worker.main.child.kill('SIGTERM');
      }
    }
    await Promise.all(everyProcess.map((worker) => worker.main.exited));
    await provider.stop();
  }
}

/**
 * W7's check: every applied withdrawal has exactly one payout at the provider, for its amount and
 * account, and its PAYOUT item is DONE with that payout's id recorded; nothing else was paid.
 */
export function expectPaidExactlyOnce(outcome: PayoutRunOutcome, expect: typeof import('vitest').expect): void {
  const doublePaid = [...outcome.payoutsByEntry]
    .filter(([, payouts]) => payouts.length > 1)
    .map(([entryId, payouts]) => `${entryId}: ${payouts.map((p) => `${p.key} ${p.id}`).join(', ')}`);
  expect(doublePaid, 'entries paid more than once').toEqual([]);
  expect([...outcome.payoutsByEntry.keys()].sort(), 'entries paid').toEqual(
    outcome.applied.map((payout) => payout.entryId).sort(),
  );
  for (const { entryId, accountId, amount } of outcome.applied) {
    const [payout] = outcome.payoutsByEntry.get(entryId)!;
    expect(payout, entryId).toMatchObject({ key: `payout:${entryId}`, accountId, amount, currency: 'EUR' });
    const item = outcome.items.find((candidate) => (candidate.payload as { entryId: string }).entryId === entryId);
    expect(item?.status, `item of ${entryId}`).toBe('DONE');
    expect(item?.result, `item of ${entryId}`).toEqual({ providerId: payout!.id, key: `payout:${entryId}` });
  }
}
