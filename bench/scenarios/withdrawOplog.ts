// docs/design.md's cost rule, measured: the oplog bytes of one withdrawal on an account with 10,000 past
// decisions, all its entries together, read from local.oplog.rs as the server wrote them. A money
// move is one transaction, so its entries are the applyOps entries naming this database; the payout
// projection's inserts are plain entries and do not count.
import { BSON, type Timestamp } from 'mongodb';
import { outcomeLabel, sized } from '../context.ts';
import { WITHDRAW } from '../documents.ts';
import { deposit, fundAccounts, runSetup } from '../fundAccounts.ts';
import type { Measured, Target } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const NAME = 'oplog-bytes-withdraw';
/** The account's history before the measured withdrawals (docs/design.md: 10,000 past decisions). */
const PAST_DECISIONS = { full: 10_000, quick: 20 };
const MEASURED = { full: 100, quick: 5 };
/** Set-up runs in chunks, each within runSetup's own time budget. */
const SETUP_CHUNK = 1_000;
/** docs/design.md: at most 2 KiB for a withdrawal, all its oplog entries together. */
const BYTES_MAX = 2 * 1024;

export const withdrawOplogScenario: Scenario = {
  name: NAME,
  describe: (mode) =>
    `oplog bytes of ${sized(mode, MEASURED)} withdrawals on an account with ${sized(mode, PAST_DECISIONS)} past decisions`,
  async run(context) {
    const [accountId] = await fundAccounts(context, NAME, 1, 1_000_000);
    const past = sized(context.mode, PAST_DECISIONS);
    for (let start = 0; start < past; start += SETUP_CHUNK) {
      await runSetup(Math.min(SETUP_CHUNK, past - start), (i) =>
        deposit(context, accountId!, 1, `${accountId}-past-${start + i}`),
      );
    }

    const oplog = context.db.client.db('local').collection('oplog.rs');
    const ours = new RegExp(`^${context.db.databaseName}\\.`);
    const count = sized(context.mode, MEASURED);
    const bytes: number[] = [];
    const latenciesMs: number[] = [];
    let errors = 0;
    const startedMs = performance.now();
    for (let i = 0; i < count; i++) {
      const [last] = await oplog.find({}, { sort: { $natural: -1 }, limit: 1, projection: { ts: 1 } }).toArray();
      const sentMs = performance.now();
      const answer = await context.pool.post(context.keys.service, WITHDRAW, {
        input: { accountId, amount: 1, requestId: `${accountId}-w-${i}` },
      });
      latenciesMs.push(performance.now() - sentMs);
      if (outcomeLabel(answer, 'withdraw') !== 'WithdrawSuccess') {
        errors++;
        continue;
      }
      context.book.withdrawnMinor += 1;
      // Int64 fields must stay int64 when re-encoded, for the size to be the server's.
      const entries = await oplog
        .find({ ts: { $gt: last!['ts'] as Timestamp }, op: 'c', 'o.applyOps.ns': ours }, { promoteLongs: false })
        .toArray();
      bytes.push(entries.reduce((sum, entry) => sum + BSON.calculateObjectSize(entry), 0));
    }
    const seconds = (performance.now() - startedMs) / 1000;
    const largest = Math.max(...bytes);
    const target: Target = {
      text: `≤ ${BYTES_MAX} oplog bytes per withdrawal after ${past} decisions`,
      met: () => bytes.length > 0 && largest <= BYTES_MAX,
    };
    const measured: Measured = {
      name: NAME,
      ops: bytes.length,
      seconds,
      latenciesMs: Float64Array.from(latenciesMs).sort(),
      errors,
      target,
      note: `oplog bytes per withdrawal: min ${Math.min(...bytes)}, max ${largest} (account id ${accountId!.length} chars)`,
    };
    return [measured];
  },
};
