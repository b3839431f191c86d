import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection, Db, Document } from 'mongodb';
import { collectionNames, type AccountDoc, type EntryDoc, type HoldDoc, type RequestDoc } from '../ledger/index.ts';
import { workItems, type WorkItemDoc } from '../work/index.ts';
import { KeyNamespace, namespacedKey } from '../work/index.ts';
import { MismatchKind, type Mismatch } from './model.ts';

// The audit's checks, each over one page of accounts or entries. They only read the ledger's and
// the work items' collections, and rely on no field but the stable ones: accounts {_id, balance,
// version, held, status}, entries {_id, requestId, accountId, kind, amount, versionAfter, createdAt,
// reversalOf}, requests {_id, requestId, status, firstSeenAt, params.amount, reversedAmount}, holds
// {accountId, status, amount}, work items {idempotencyKey}.

export interface AuditReaders {
  accounts: Collection<AccountDoc>;
  entries: Collection<EntryDoc>;
  requests: Collection<RequestDoc>;
  holds: Collection<HoldDoc>;
  workItems: Collection<WorkItemDoc>;
}

/** Primary, majority-committed reads: what the audit reports is what the ledger durably holds. */
export function auditReaders(db: Db): AuditReaders {
  const options = { readPreference: 'primary', readConcern: { level: 'majority' } } as const;
  return {
    accounts: db.collection<AccountDoc>(collectionNames.accounts, options),
    entries: db.collection<EntryDoc>(collectionNames.entries, options),
    requests: db.collection<RequestDoc>(collectionNames.requests, options),
    holds: db.collection<HoldDoc>(collectionNames.holds, options),
    workItems: workItems(db),
  };
}

const OPENING_BALANCE = 0n;

/** An entry's effect on its account's balance: deposit and transferIn add, withdrawal, transferOut and depositReversal subtract. */
const SIGNED_AMOUNT: Document = {
  $switch: {
    branches: [
      { case: { $in: ['$kind', ['deposit', 'transferIn']] }, then: '$amount' },
      {
        case: { $in: ['$kind', ['withdrawal', 'transferOut', 'depositReversal']] },
        then: { $multiply: ['$amount', -1] },
      },
    ],
    default: 0,
  },
};

function big(value: unknown): bigint {
  return value === null || value === undefined ? 0n : BigInt(String(value));
}

/** Sum of each account's entries, optionally only those at or below a version. */
async function journalSums(readers: AuditReaders, match: Document): Promise<Map<string, bigint>> {
  const rows = await readers.entries
    .aggregate<{ _id: string; sum: unknown }>([
      { $match: match },
      { $group: { _id: '$accountId', sum: { $sum: SIGNED_AMOUNT } } },
    ])
    .toArray();
  return new Map(rows.map((row) => [row._id, big(row.sum)]));
}

/**
 * Each balance equals its opening balance plus its entries, and none is negative. A disagreement
 * is read again after `recheckDelayMs`, summing only the entries up to the balance's own version
 * (`versionAfter <= version`), so a move that committed between the two reads is no mismatch.
 */
export async function checkBalances(
  readers: AuditReaders,
  accountIds: readonly string[],
  recheckDelayMs: number,
): Promise<Mismatch[]> {
  if (accountIds.length === 0) return [];
  const accounts = await readers.accounts
    .find({ _id: { $in: [...accountIds] } }, { projection: { balance: 1, version: 1 } })
    .toArray();
  const sums = await journalSums(readers, { accountId: { $in: [...accountIds] } });
  const mismatches: Mismatch[] = [];
  const suspects: string[] = [];
  for (const account of accounts) {
    const balance = big(account.balance);
    if (balance < 0n)
      mismatches.push({
        kind: MismatchKind.NEGATIVE_BALANCE,
        accountId: account._id,
        subject: account._id,
        expected: 0,
        actual: Number(balance),
      });
    if (balance !== OPENING_BALANCE + (sums.get(account._id) ?? 0n)) suspects.push(account._id);
  }
  if (suspects.length > 0) await sleep(recheckDelayMs);
  for (const accountId of suspects) {
    const account = await readers.accounts.findOne({ _id: accountId }, { projection: { balance: 1, version: 1 } });
    if (!account) continue;
    const sum =
      (await journalSums(readers, { accountId, versionAfter: { $lte: account.version } })).get(accountId) ?? 0n;
    const expected = OPENING_BALANCE + sum;
    const actual = big(account.balance);
    if (actual !== expected)
      mismatches.push({
        kind: MismatchKind.BALANCE,
        accountId,
        subject: accountId,
        expected: Number(expected),
        actual: Number(actual),
      });
  }
  return mismatches;
}

/** Each account's `held` and the sum of its pending holds, read one after the other. */
async function heldAndPending(
  readers: AuditReaders,
  accountIds: readonly string[],
): Promise<Map<string, { balance: bigint; held: bigint; pending: bigint }>> {
  const accounts = await readers.accounts
    .find({ _id: { $in: [...accountIds] } }, { projection: { balance: 1, held: 1 } })
    .toArray();
  const sums = await readers.holds
    .aggregate<{ _id: string; sum: unknown }>([
      { $match: { accountId: { $in: [...accountIds] }, status: 'PENDING' } },
      { $group: { _id: '$accountId', sum: { $sum: '$amount' } } },
    ])
    .toArray();
  const pending = new Map(sums.map((row) => [row._id, big(row.sum)]));
  return new Map(
    accounts.map((account) => [
      account._id,
      { balance: big(account.balance), held: big(account.held), pending: pending.get(account._id) ?? 0n },
    ]),
  );
}

/**
 * H1: `held` equals the sum of the account's pending holds, and `balance - held` is never
 * negative. A disagreement on `held` is read again after `recheckDelayMs` (a hold resolved between
 * the two reads of the first look is no mismatch); a negative available balance is reported at once.
 */
export async function checkHolds(
  readers: AuditReaders,
  accountIds: readonly string[],
  recheckDelayMs: number,
): Promise<Mismatch[]> {
  if (accountIds.length === 0) return [];
  const mismatches: Mismatch[] = [];
  const first = await heldAndPending(readers, accountIds);
  const suspects: string[] = [];
  for (const [accountId, { balance, held, pending }] of first) {
    // A negative balance is NEGATIVE_BALANCE already (checkBalances); here what holds took below zero.
    if (balance >= 0n && balance - held < 0n)
      mismatches.push({
        kind: MismatchKind.NEGATIVE_AVAILABLE,
        accountId,
        subject: accountId,
        expected: 0,
        actual: Number(balance - held),
      });
    if (held !== pending) suspects.push(accountId);
  }
  if (suspects.length === 0) return mismatches;
  await sleep(recheckDelayMs);
  for (const [accountId, { held, pending }] of await heldAndPending(readers, suspects)) {
    if (held !== pending)
      mismatches.push({
        kind: MismatchKind.HELD,
        accountId,
        subject: accountId,
        expected: Number(pending),
        actual: Number(held),
      });
  }
  return mismatches;
}

/** L2: a closed account holds nothing, neither money nor holds (a close is final: no recheck needed). */
export async function checkClosedAccounts(readers: AuditReaders, accountIds: readonly string[]): Promise<Mismatch[]> {
  if (accountIds.length === 0) return [];
  const closed = await readers.accounts
    .find({ _id: { $in: [...accountIds] }, status: 'CLOSED' }, { projection: { balance: 1, held: 1 } })
    .toArray();
  return closed.flatMap((account): Mismatch[] => {
    const held = big(account.held);
    const balance = big(account.balance);
    if (balance === 0n && held === 0n) return [];
    return [
      {
        kind: MismatchKind.CLOSED_NOT_EMPTY,
        accountId: account._id,
        subject: account._id,
        expected: 0,
        actual: Number(balance !== 0n ? balance : held),
      },
    ];
  });
}

/** A reversal's debit leg: a reversed deposit's depositReversal, or a reversed transfer's transferOut. */
const REVERSAL_DEBIT_KINDS = ['depositReversal', 'transferOut'];

/** The originals' amounts and reversed totals, and the sums of their reversals' debit legs. */
async function reversalsOf(
  readers: AuditReaders,
  originals: readonly string[],
): Promise<Map<string, { amount: bigint; reversed: bigint; inEntries: bigint }>> {
  const records = await readers.requests
    .find(
      { _id: { $in: originals.map((id) => `ledger:${id}`) } },
      { projection: { requestId: 1, 'params.amount': 1, reversedAmount: 1 } },
    )
    .toArray();
  const sums = await readers.entries
    .aggregate<{ _id: string; sum: unknown }>([
      { $match: { reversalOf: { $in: [...originals] }, kind: { $in: REVERSAL_DEBIT_KINDS } } },
      { $group: { _id: '$reversalOf', sum: { $sum: '$amount' } } },
    ])
    .toArray();
  const inEntries = new Map(sums.map((row) => [row._id, big(row.sum)]));
  return new Map(
    records.map((record) => [
      record.requestId,
      {
        amount: big(record.params?.amount),
        reversed: big(record.reversedAmount),
        inEntries: inEntries.get(record.requestId) ?? 0n,
      },
    ]),
  );
}

/**
 * L1: what the reversals of a move took back never exceeds what it moved, and its record's
 * `reversedAmount` equals its reversals' debit legs. Past its amount is reported at once; a
 * difference between record and entries is read again after `recheckDelayMs` (the two reads are
 * not one snapshot, and a reversal may commit between them).
 */
export async function checkReversals(
  readers: AuditReaders,
  legs: readonly EntryDoc[],
  recheckDelayMs: number,
): Promise<Mismatch[]> {
  const originals = [
    ...new Set(
      legs.flatMap((leg) =>
        leg.reversalOf !== undefined && REVERSAL_DEBIT_KINDS.includes(leg.kind) ? [leg.reversalOf] : [],
      ),
    ),
  ];
  if (originals.length === 0) return [];
  const mismatches: Mismatch[] = [];
  const suspects: string[] = [];
  for (const [original, { amount, reversed, inEntries }] of await reversalsOf(readers, originals)) {
    const most = reversed > inEntries ? reversed : inEntries;
    if (most > amount)
      mismatches.push({
        kind: MismatchKind.REVERSAL_EXCEEDS_ORIGINAL,
        accountId: null,
        subject: original,
        expected: Number(amount),
        actual: Number(most),
      });
    else if (reversed !== inEntries) suspects.push(original);
  }
  if (suspects.length === 0) return mismatches;
  await sleep(recheckDelayMs);
  for (const [original, { reversed, inEntries }] of await reversalsOf(readers, suspects)) {
    if (reversed !== inEntries)
      mismatches.push({
        kind: MismatchKind.REVERSAL_EXCEEDS_ORIGINAL,
        accountId: null,
        subject: original,
        expected: Number(inEntries),
        actual: Number(reversed),
      });
  }
  return mismatches;
}

/** Transfer legs conserve: every transferOut has its transferIn with the same requestId and amount, and back. */
export async function checkTransfers(readers: AuditReaders, legs: readonly EntryDoc[]): Promise<Mismatch[]> {
  const transfers = legs.filter((leg) => leg.kind === 'transferOut' || leg.kind === 'transferIn');
  if (transfers.length === 0) return [];
  const others = await readers.entries
    .find(
      {
        requestId: { $in: [...new Set(transfers.map((leg) => leg.requestId))] },
        kind: { $in: ['transferOut', 'transferIn'] },
      },
      { projection: { requestId: 1, kind: 1, amount: 1 } },
    )
    .toArray();
  const byLeg = new Map(others.map((leg) => [`${leg.kind}|${leg.requestId}`, big(leg.amount)]));
  const mismatches: Mismatch[] = [];
  for (const leg of transfers) {
    const counterpart = byLeg.get(`${leg.kind === 'transferOut' ? 'transferIn' : 'transferOut'}|${leg.requestId}`);
    if (counterpart !== big(leg.amount)) {
      mismatches.push({
        kind: MismatchKind.TRANSFER_UNBALANCED,
        accountId: leg.accountId,
        subject: leg._id,
        expected: Number(big(leg.amount)),
        actual: Number(counterpart ?? 0n),
      });
    }
  }
  return mismatches;
}

/** Every applied withdrawal has exactly one payout item, under its unique `payout:<entryId>` key. */
export async function checkPayouts(readers: AuditReaders, legs: readonly EntryDoc[]): Promise<Mismatch[]> {
  const withdrawals = legs.filter((leg) => leg.kind === 'withdrawal');
  if (withdrawals.length === 0) return [];
  const keys = withdrawals.map((leg) => namespacedKey(KeyNamespace.PAYOUT, leg._id));
  const found = await readers.workItems
    .find({ idempotencyKey: { $in: keys } }, { projection: { _id: 0, idempotencyKey: 1 } })
    .toArray();
  const counts = new Map<string, number>();
  for (const item of found) counts.set(item.idempotencyKey, (counts.get(item.idempotencyKey) ?? 0) + 1);
  return withdrawals.flatMap((leg, i): Mismatch[] => {
    const n = counts.get(keys[i] as string) ?? 0;
    return n === 1
      ? []
      : [{ kind: MismatchKind.PAYOUT_MISSING, accountId: leg.accountId, subject: leg._id, expected: 1, actual: n }];
  });
}

/** No request stays undecided past its lease: pending ones first seen more than `maxMs` before `now`, oldest first. */
export async function checkRequests(
  readers: AuditReaders,
  now: Date,
  maxMs: number,
  limit: number,
): Promise<{ checked: number; mismatches: Mismatch[] }> {
  const filter = { status: 'pending' as const, firstSeenAt: { $lt: new Date(now.getTime() - maxMs) } };
  const checked = await readers.requests.countDocuments({ status: 'pending' });
  const stale = await readers.requests
    .find(filter, { projection: { requestId: 1, firstSeenAt: 1 } })
    .sort({ firstSeenAt: 1 })
    .limit(limit)
    .toArray();
  const mismatches = stale.map(
    (request): Mismatch => ({
      kind: MismatchKind.REQUEST_UNDECIDED,
      accountId: null,
      subject: String(request.requestId ?? request._id),
      expected: maxMs,
      actual: now.getTime() - request.firstSeenAt.getTime(),
    }),
  );
  return { checked, mismatches };
}
