// After the run, the database must agree with itself and with what the API answered: a bench
// that corrupts money is worse than a slow one. Reads go to the primary of the bench's own,
// fresh database, so every document here was written by this run.
import type { Db } from 'mongodb';
import { collectionNames, type AccountDoc, type EntryDoc } from '../src/ledger/index.ts';
import { workItems } from '../src/work/index.ts';
import type { Book } from './context.ts';
import type { InvariantCheck } from './measured.ts';

export type { InvariantCheck } from './measured.ts';

const CREDIT_KINDS: ReadonlySet<EntryDoc['kind']> = new Set(['deposit', 'transferIn']);

export async function checkInvariants(db: Db, book: Book): Promise<InvariantCheck[]> {
  return [...(await checkLedger(db, book)), await checkWorkItems(db, book)];
}

async function checkLedger(db: Db, book: Book): Promise<InvariantCheck[]> {
  const accounts = await db.collection<AccountDoc>(collectionNames.accounts).find({}).toArray();
  const balances = new Map(accounts.map((account) => [account._id, Number(account.balance)]));
  // Accounts open at 0, so each balance is the running sum of its entries, in journal order.
  const running = new Map<string, number>();
  const brokenChains: string[] = [];
  const transferMinor = { out: 0, in: 0 };
  const entries = db.collection<EntryDoc>(collectionNames.entries).find({}).sort({ accountId: 1, versionAfter: 1 });
  for await (const entry of entries) {
    const amount = Number(entry.amount);
    const after = (running.get(entry.accountId) ?? 0) + (CREDIT_KINDS.has(entry.kind) ? amount : -amount);
    running.set(entry.accountId, after);
    if (Number(entry.balanceAfter) !== after)
      brokenChains.push(`${entry._id} balanceAfter ${entry.balanceAfter}, entries sum ${after}`);
    if (entry.kind === 'transferOut') transferMinor.out += amount;
    if (entry.kind === 'transferIn') transferMinor.in += amount;
  }
  const mismatched = accounts
    .filter((account) => balances.get(account._id) !== (running.get(account._id) ?? 0))
    .map(
      (account) => `${account._id} balance ${balances.get(account._id)}, entries sum ${running.get(account._id) ?? 0}`,
    );
  const negative = accounts.filter((account) => balances.get(account._id)! < 0).map((account) => account._id);
  const heldMinor = [...balances.values()].reduce((sum, balance) => sum + balance, 0);
  const answeredMinor = book.depositedMinor - book.withdrawnMinor;
  const pending = await db.collection(collectionNames.requests).countDocuments({ status: 'pending' });
  return [
    check('balances = opening (0) + entries', [...mismatched, ...brokenChains], `${accounts.length} accounts`),
    check('no negative balance', negative, `${accounts.length} accounts`),
    check(
      'money held = deposits − withdrawals the API answered',
      heldMinor === answeredMinor ? [] : [`held ${heldMinor}, answered ${answeredMinor}`],
      `${heldMinor} minor units`,
    ),
    check(
      'transfers conserve',
      transferMinor.out === transferMinor.in ? [] : [`out ${transferMinor.out}, in ${transferMinor.in}`],
      `${transferMinor.out} minor units moved`,
    ),
    check('no request left pending', pending === 0 ? [] : [`${pending} pending`], 'all decided'),
  ];
}

/** Each created item was completed exactly once: answered once, DONE at version 3 (claim, complete), one DONE transition. */
async function checkWorkItems(db: Db, book: Book): Promise<InvariantCheck> {
  const items = await workItems(db)
    .find({ kind: { $in: [...book.workKinds] } })
    .toArray();
  const problems: string[] = [];
  const completions = new Map<string, number>();
  for (const id of book.completedItemIds) completions.set(id, (completions.get(id) ?? 0) + 1);
  for (const [id, count] of completions) if (count > 1) problems.push(`${id} answered CompleteSuccess ${count} times`);
  for (const id of book.createdItemIds) if (!completions.has(id)) problems.push(`${id} created but never completed`);
  for (const item of items) {
    const doneTransitions = item.history.filter((step) => step.to === 'DONE').length;
    if (item.status !== 'DONE' || item.version !== 3 || doneTransitions !== 1) {
      problems.push(
        `${item._id.toHexString()} ${item.status} v${item.version} with ${doneTransitions} DONE transitions`,
      );
    }
  }
  if (items.length !== book.createdItemIds.size)
    problems.push(`${items.length} stored, ${book.createdItemIds.size} answered as created`);
  return check('each work item done exactly once', problems, `${items.length} items`);
}

function check(name: string, problems: string[], detail: string): InvariantCheck {
  return problems.length === 0
    ? { name, holds: true, detail }
    : { name, holds: false, detail: `${problems.length} broken, e.g. ${problems.slice(0, 3).join('; ')}` };
}
