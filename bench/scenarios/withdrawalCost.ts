// What one withdrawal costs the deployment end to end, for docs/scaling.md's capacity model: the
// engine's commands (serverStatus metrics.commands, counted by the engine for every client: the
// API, its payout projection, its feeds) and the oplog bytes, first for the money move and its
// payout (the projection runs while the withdrawals do, so they are counted together), then for a
// worker claiming and completing each payout. Figures per operation, independent of the machine's
// speed; the bench's own reads (serverStatus, the oplog, the wait for the payouts) are taken out.
import { BSON, type ObjectId, type Document, type Timestamp } from 'mongodb';
import { outcomeLabel, sized, type BenchContext } from '../context.ts';
import { CLAIM_WORK_ITEM, COMPLETE_WORK_ITEM, WITHDRAW } from '../documents.ts';
import { fundAccounts } from '../fundAccounts.ts';
import type { Measured, Target } from '../measured.ts';
import { runLoad } from '../runLoad.ts';
import type { Scenario } from '../scenario.ts';

const NAME = 'cost-per-withdrawal';
const WITHDRAWALS = { full: 1_000, quick: 20 };
const ACCOUNTS = { full: 64, quick: 4 };
const CONCURRENCY = 16;
const LOAD_DURATION_MAX_MS = 300_000;
/** How long the projection may take to turn the last withdrawal into its payout. */
const PAYOUTS_WAIT_MAX_MS = 120_000;
const PAYOUTS_POLL_MS = 100;
/** Commands that are monitoring, not work: driver heartbeats and this scenario's own reads. */
const NOT_WORK = new Set(['hello', 'isMaster', 'serverStatus']);

type CommandCounts = Map<string, number>;

/** The engine's per-command totals (serverStatus metrics.commands), one serverStatus command. */
async function commandTotals(context: BenchContext): Promise<CommandCounts> {
  const status = await context.db.admin().command({ serverStatus: 1 });
  const commands = (status['metrics']?.['commands'] ?? {}) as Record<string, { total: unknown }>;
  return new Map(Object.entries(commands).map(([name, { total }]) => [name, Number(total)]));
}

/** What ran between two readings, less `own` (the scenario's commands), per `per` operations. */
function perOperation(
  before: CommandCounts,
  after: CommandCounts,
  own: CommandCounts,
  per: number,
): { total: number; text: string } {
  const rows: [string, number][] = [];
  for (const [name, count] of after) {
    if (NOT_WORK.has(name)) continue;
    const ran = count - (before.get(name) ?? 0) - (own.get(name) ?? 0);
    if (ran > 0) rows.push([name, ran / per]);
  }
  rows.sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, n]) => sum + n, 0);
  return { total, text: rows.map(([name, n]) => `${name} ${n.toFixed(2)}`).join(', ') };
}

/** The oplog since `after` touching this database: money moves (applyOps) and plain entries apart. */
async function oplogSince(
  context: BenchContext,
  after: Timestamp,
): Promise<{ applyOps: number; plain: number; plainEntries: number }> {
  const oplog = context.db.client.db('local').collection('oplog.rs');
  const ours = new RegExp(`^${context.db.databaseName}\\.`);
  // Int64 fields must stay int64 when re-encoded, for the size to be the server's.
  const entries = await oplog
    .find(
      { ts: { $gt: after }, $or: [{ ns: ours }, { 'o.applyOps.ns': ours }] },
      { promoteLongs: false, batchSize: 1_000_000 },
    )
    .toArray();
  let applyOps = 0;
  let plain = 0;
  let plainEntries = 0;
  for (const entry of entries) {
    const bytes = BSON.calculateObjectSize(entry);
    if (entry['op'] === 'c' && entry['o']?.['applyOps']) applyOps += bytes;
    else {
      plain += bytes;
      plainEntries++;
    }
  }
  return { applyOps, plain, plainEntries };
}

async function lastOplogTime(context: BenchContext): Promise<Timestamp> {
  const oplog = context.db.client.db('local').collection('oplog.rs');
  const [last] = await oplog.find({}, { sort: { $natural: -1 }, limit: 1, projection: { ts: 1 } }).toArray();
  return last!['ts'] as Timestamp;
}

function count(own: CommandCounts, name: string, n = 1): void {
  own.set(name, (own.get(name) ?? 0) + n);
}

export const withdrawalCostScenario: Scenario = {
  name: NAME,
  describe: (mode) =>
    `engine commands and oplog bytes per withdrawal end to end: ${sized(mode, WITHDRAWALS)} withdrawals at c=${CONCURRENCY} with their payouts, then each payout claimed and completed`,
  async run(context) {
    const n = sized(context.mode, WITHDRAWALS);
    const accounts = await fundAccounts(context, NAME, sized(context.mode, ACCOUNTS), n);
    const items = context.db.collection('workItems');

    // The money moves, and the projection turning each into its payout.
    const own: CommandCounts = new Map();
    const moneyFrom = await lastOplogTime(context);
    const moneyBefore = await commandTotals(context);
    const entryIds: string[] = [];
    const moved = await runLoad(
      { concurrency: CONCURRENCY, opsMax: n, durationMaxMs: LOAD_DURATION_MAX_MS },
      async (i) => {
        const input = {
          accountId: accounts[i % accounts.length]!,
          amount: 1,
          requestId: `${context.runId}-${NAME}-w${i}`,
        };
        const answer = await context.pool.post(context.keys.service, WITHDRAW, { input });
        const label = outcomeLabel(answer, 'withdraw');
        if (label === 'WithdrawSuccess') {
          entryIds.push((answer.data!['withdraw'] as { entry: { id: string } }).entry.id);
          context.book.withdrawnMinor += 1;
        }
        return { label };
      },
    );
    const waitStartedMs = performance.now();
    let payouts: Document[] = [];
    for (;;) {
      count(own, 'find');
      payouts = await items
        .find(
          { kind: 'PAYOUT', 'payload.entryId': { $in: entryIds } },
          { projection: { _id: 1 }, batchSize: 1_000_000 },
        )
        .toArray();
      if (payouts.length >= entryIds.length) break;
      if (performance.now() - waitStartedMs > PAYOUTS_WAIT_MAX_MS)
        throw new Error(`${NAME}: ${payouts.length} of ${entryIds.length} payouts after ${PAYOUTS_WAIT_MAX_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, PAYOUTS_POLL_MS));
    }
    count(own, 'find'); // the oplog read below runs before the closing serverStatus
    const moneyOplog = await oplogSince(context, moneyFrom);
    const moneyAfter = await commandTotals(context);
    const moneyCommands = perOperation(moneyBefore, moneyAfter, own, entryIds.length);

    // A worker claims each payout by id and completes it.
    const workOwn: CommandCounts = new Map();
    const workFrom = await lastOplogTime(context);
    const workBefore = await commandTotals(context);
    const ids = payouts.map((payout) => (payout['_id'] as ObjectId).toHexString());
    const worked = await runLoad(
      { concurrency: CONCURRENCY, opsMax: ids.length, durationMaxMs: LOAD_DURATION_MAX_MS },
      async (i) => {
        const workerId = `${context.runId}-${NAME}-worker-${i % CONCURRENCY}`;
        const claimed = await context.pool.post(context.keys.worker, CLAIM_WORK_ITEM, {
          input: { workerId, id: ids[i] },
        });
        if (outcomeLabel(claimed, 'claimWorkItem') !== 'ClaimSuccess')
          return { label: outcomeLabel(claimed, 'claimWorkItem') };
        const item = (claimed.data!['claimWorkItem'] as { item: { id: string; version: number } }).item;
        const completed = await context.pool.post(context.keys.worker, COMPLETE_WORK_ITEM, {
          input: { id: item.id, workerId, version: item.version, outcome: 'DONE' },
        });
        const label = outcomeLabel(completed, 'completeWorkItem');
        if (label === 'CompleteSuccess') context.book.completedItemIds.push(item.id);
        return { label };
      },
    );
    count(workOwn, 'find');
    const workOplog = await oplogSince(context, workFrom);
    const workAfter = await commandTotals(context);
    const workCommands = perOperation(workBefore, workAfter, workOwn, ids.length);

    const completedCount = worked.tally.get('CompleteSuccess') ?? 0;
    const reference = (done: number, total: number): Target => ({
      text: "per-operation costs for docs/scaling.md's capacity model (every operation must succeed)",
      met: () => done === total,
    });
    const perWithdrawal = (bytes: number) => Math.round(bytes / Math.max(1, entryIds.length));
    const perPayout = (bytes: number) => Math.round(bytes / Math.max(1, ids.length));
    const lines: Measured[] = [
      {
        name: `${NAME}-money`,
        ops: entryIds.length,
        seconds: moved.seconds,
        latenciesMs: moved.latenciesMs,
        errors: moved.started - entryIds.length,
        target: reference(entryIds.length, n),
        note:
          `per withdrawal with its payout: ${moneyCommands.total.toFixed(2)} engine commands (${moneyCommands.text}); ` +
          `oplog ${perWithdrawal(moneyOplog.applyOps + moneyOplog.plain)} B (money move ${perWithdrawal(moneyOplog.applyOps)} B in applyOps, ` +
          `projection ${perWithdrawal(moneyOplog.plain)} B in ${(moneyOplog.plainEntries / Math.max(1, entryIds.length)).toFixed(2)} entries)`,
      },
      {
        name: `${NAME}-payout-work`,
        ops: completedCount,
        seconds: worked.seconds,
        latenciesMs: worked.latenciesMs,
        errors: worked.started - completedCount,
        target: reference(completedCount, ids.length),
        note:
          `per payout claimed and completed (2 requests): ${workCommands.total.toFixed(2)} engine commands (${workCommands.text}); ` +
          `oplog ${perPayout(workOplog.applyOps + workOplog.plain)} B in ${(workOplog.plainEntries / Math.max(1, ids.length)).toFixed(2)} entries`,
      },
    ];
    return lines;
  },
};
