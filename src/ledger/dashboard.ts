import type { ClientSession, Db, Document, Filter, IndexDescription } from 'mongodb';
import { z } from 'zod';
import { consistentRead, type ReadOptions } from '../db/readOptions.ts';
import type { StartupTask } from '../db/startupTask.ts';
import { decodeJsonCursor, encodeJsonCursor } from '../lib/cursor.ts';
import { toLedgerEntry } from './convert.ts';
import {
  type AccountDoc,
  collectionNames,
  EntryIndex,
  reportingCollections,
  type EntryDoc,
  type EntryKind,
  type RequestDoc,
} from './model.ts';
import { DashboardLimits } from './limits.ts';
import { fromLong, fromStoredSum } from './money.ts';
import type { LedgerEntry } from './results.ts';

// The dashboards' reads of the ledger: entries across accounts, totals per currency, and the
// state of one request. Every list walks an index it names (a hint), so a missing index is a
// refused query rather than a silent collection scan; the indexes are this file's own, created
// at start-up by `ledgerDashboardIndexesTask`. Reads go to the reporting handles (any member,
// majority-committed), and take the caller's session for read-your-writes.

export const ENTRY_KINDS: readonly EntryKind[] = [
  'deposit',
  'withdrawal',
  'transferOut',
  'transferIn',
  'depositReversal',
];

/**
 * Newest first, `(createdAt, _id)` descending. The kind is always bounded (all four when the
 * caller names none), so each index serves every kind filter as at most four merged ranges.
 */
export const DashboardEntryIndex = Object.freeze({
  byAccount: { name: 'dash_accountId_kind_createdAt', key: { accountId: 1, kind: 1, createdAt: -1, _id: -1 } },
  byCurrency: { name: 'dash_currency_kind_createdAt', key: { currency: 1, kind: 1, createdAt: -1, _id: -1 } },
  // The payout catch-up's and the audit's index (declared identically there, so creating it again
  // is a no-op), walked backwards: one index fewer for every journal write to maintain.
  byKind: { name: 'kind_createdAt_id', key: { kind: 1, createdAt: 1, _id: 1 } },
} as const);

/**
 * A currency's accounts in `_id` order, walked in slices by `ledgerTotals`. Neither field ever
 * changes, so no balance write maintains it (the `dash_currency_balance` index it replaces was
 * rewritten by every move; an existing deployment may drop it).
 */
export const DashboardAccountIndex = Object.freeze({ name: 'dash_currency_id', key: { currency: 1, _id: 1 } } as const);

const INDEXES: Record<'entries' | 'accounts', IndexDescription[]> = {
  entries: Object.values(DashboardEntryIndex).map(({ name, key }) => ({ name, key: { ...key } })),
  accounts: [{ name: DashboardAccountIndex.name, key: { ...DashboardAccountIndex.key } }],
};

export async function ensureLedgerDashboardIndexes(db: Db): Promise<void> {
  await db.collection(collectionNames.entries).createIndexes(INDEXES.entries);
  await db.collection(collectionNames.accounts).createIndexes(INDEXES.accounts);
}

export const ledgerDashboardIndexesTask: StartupTask = {
  name: 'ledger: dashboard indexes',
  run: ({ db }) => ensureLedgerDashboardIndexes(db),
};

export interface EntriesQuery {
  accountId?: string | undefined;
  /** The moves' reference (`ledgerEntries(reference:)`): walks the reference index. */
  reference?: string | undefined;
  kinds?: EntryKind[] | undefined;
  currency?: string | undefined;
  /** Inclusive lower bound of `createdAt`. */
  from?: Date | undefined;
  /** Exclusive upper bound of `createdAt`. */
  to?: Date | undefined;
  first: number;
  after?: EntriesCursor | undefined;
}

export interface EntriesCursor {
  createdAtMs: number;
  id: string;
}

export interface EntriesPage {
  items: LedgerEntry[];
  endCursor: string | null;
  hasNextPage: boolean;
  /** Matching entries, counted up to `entriesCountMax`; counted only when asked, once. */
  count(): Promise<CappedCount>;
}

export interface CappedCount {
  totalCount: number;
  totalCountCapped: boolean;
}

/** Runs `counter` on the first call only: a count is an index walk, paid only by callers that want it. */
export function once<T>(counter: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | null = null;
  return () => (promise ??= counter());
}

/** `t` a time a Date can hold (±8.64e15 ms), so a made-up cursor is refused here rather than by the query. */
const entriesCursor = z
  .object({ t: z.number().int().min(-8.64e15).max(8.64e15), id: z.string().min(1).max(512) })
  .strict();

export function encodeEntriesCursor(entry: { createdAt: Date; id: string }): string {
  return encodeJsonCursor({ t: entry.createdAt.getTime(), id: entry.id });
}

/** The position inside a cursor of this list, or null if the string is not one. */
export function decodeEntriesCursor(cursor: string): EntriesCursor | null {
  const parsed = entriesCursor.safeParse(decodeJsonCursor(cursor));
  return parsed.success ? { createdAtMs: parsed.data.t, id: parsed.data.id } : null;
}

/** The index a query walks: the most selective equality the caller gave. */
export function entriesIndexFor(query: Pick<EntriesQuery, 'accountId' | 'currency' | 'reference'>): string {
  // A reference names a handful of entries: the most selective of all.
  if (query.reference !== undefined) return EntryIndex.byReference;
  if (query.accountId !== undefined) return DashboardEntryIndex.byAccount.name;
  if (query.currency !== undefined) return DashboardEntryIndex.byCurrency.name;
  return DashboardEntryIndex.byKind.name;
}

function entriesFilter(query: Omit<EntriesQuery, 'first' | 'after'>): Filter<EntryDoc> {
  const createdAt: Document = {};
  if (query.from) createdAt['$gte'] = query.from;
  if (query.to) createdAt['$lt'] = query.to;
  return {
    ...(query.accountId === undefined ? {} : { accountId: query.accountId }),
    ...(query.reference === undefined ? {} : { reference: query.reference }),
    ...(query.currency === undefined ? {} : { currency: query.currency }),
    kind: { $in: query.kinds && query.kinds.length > 0 ? query.kinds : [...ENTRY_KINDS] },
    ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
  };
}

export async function listEntriesAcross(db: Db, query: EntriesQuery, options: ReadOptions = {}): Promise<EntriesPage> {
  const { entries } = reportingCollections(db);
  const filter = entriesFilter(query);
  const hint = entriesIndexFor(query);
  const page: Filter<EntryDoc> = query.after
    ? {
        $and: [
          filter,
          // The bound on createdAt keeps the walk on the index; the $or breaks ties on _id.
          { createdAt: { $lte: new Date(query.after.createdAtMs) } },
          { $or: [{ createdAt: { $lt: new Date(query.after.createdAtMs) } }, { _id: { $lt: query.after.id } }] },
        ],
      }
    : filter;
  const docs = await consistentRead(options, (command) =>
    entries
      .find(page, { hint, ...command })
      .sort({ createdAt: -1, _id: -1 })
      .limit(query.first + 1)
      .toArray(),
  );
  const items = docs.slice(0, query.first).map(toLedgerEntry);
  const last = items.at(-1);
  return {
    items,
    endCursor: last === undefined ? null : encodeEntriesCursor(last),
    hasNextPage: docs.length > query.first,
    count: once(async () => {
      // The `count` command, not an aggregation: on mongod a limited count over an index is a COUNT_SCAN.
      const total = await consistentRead(options, (command) =>
        entries.count(filter, { hint, limit: DashboardLimits.entriesCountMax + 1, ...command }),
      );
      return {
        totalCount: Math.min(total, DashboardLimits.entriesCountMax),
        totalCountCapped: total > DashboardLimits.entriesCountMax,
      };
    }),
  };
}

export interface LedgerTotals {
  currency: string;
  /** The sum of every account's balance in the currency, now (not as of `to`): exact past 2^53-1. */
  moneyHeld: bigint;
  /** The sum of the accounts' `held` (pending holds), now: part of `moneyHeld`, not available to spend. */
  moneyOnHold: bigint;
  accounts: number;
  deposits: MoneyFlow;
  withdrawals: MoneyFlow;
  /** Money moved between accounts (each transfer once, by its debit leg). */
  transfers: MoneyFlow;
}

export interface MoneyFlow {
  count: number;
  /** Exact past 2^53-1 (a sum of many amounts). */
  amount: bigint;
}

const FLOW_OF_KIND: Partial<Record<EntryKind, 'deposits' | 'withdrawals' | 'transfers'>> = {
  deposit: 'deposits',
  withdrawal: 'withdrawals',
  transferOut: 'transfers',
};

/**
 * Totals of one currency over `[from, to)`; balances summed over the currency's accounts.
 *
 * Priced by what it reads and never a long stall (issue 41: 300 aliases of a full-range totals,
 * each one `$group` over the whole journal, stalled an embedded engine's event loop 12.9 s): the
 * journal and the accounts are walked in slices of `DashboardLimits.totalsSliceMax` documents, one
 * `find` each, on the index each names, a slice at a time per process (`totalsSlicesConcurrentMax`,
 * first come first served), so another client's request waits at most a few slices, and a
 * big range still works (it takes more slices, never a longer one). The accounts are read in one
 * snapshot (a snapshot session), so `moneyHeld` is the sum at one instant however many slices;
 * entries never change once written, so the flows need none. Identical totals in flight in this
 * process share one walk.
 */
export async function ledgerTotals(db: Db, query: TotalsQuery, options: ReadOptions = {}): Promise<LedgerTotals> {
  return totalsWalks.run(db, query, options);
}

export interface TotalsQuery {
  currency: string;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** First come, first served slots for the slices of every totals walk of this process. */
class SliceGate {
  readonly #waiting: Array<() => void> = [];
  #free: number;

  constructor(slots: number) {
    this.#free = slots;
  }

  async slice<T>(read: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await read();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

/** The process's totals walks: one gate for their slices, and identical walks in flight shared. */
const totalsWalks = new (class {
  readonly gate = new SliceGate(DashboardLimits.totalsSlicesConcurrentMax);
  readonly #inFlight = new Map<string, Promise<LedgerTotals>>();

  run(db: Db, query: TotalsQuery, options: ReadOptions): Promise<LedgerTotals> {
    // A read after one's own write (a session) must not join a walk that began before that write.
    if (options.session !== undefined) return walkTotals(db, query, options, this.gate);
    const key = JSON.stringify([
      db.databaseName,
      query.currency,
      query.from?.getTime() ?? null,
      query.to?.getTime() ?? null,
    ]);
    const shared = this.#inFlight.get(key);
    if (shared) return shared;
    const walk = walkTotals(db, query, options, this.gate).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, walk);
    return walk;
  }
})();

async function walkTotals(db: Db, query: TotalsQuery, options: ReadOptions, gate: SliceGate): Promise<LedgerTotals> {
  const kinds = Object.keys(FLOW_OF_KIND) as EntryKind[];
  const [held, ...flows] = await Promise.all([
    walkAccounts(db, query.currency, options, gate),
    ...kinds.map((kind) => walkFlow(db, query, kind, options, gate)),
  ]);
  const totals: LedgerTotals = {
    currency: query.currency,
    moneyHeld: held.balance,
    moneyOnHold: held.held,
    accounts: held.count,
    deposits: { count: 0, amount: 0n },
    withdrawals: { count: 0, amount: 0n },
    transfers: { count: 0, amount: 0n },
  };
  kinds.forEach((kind, i) => {
    const name = FLOW_OF_KIND[kind];
    if (name) totals[name] = flows[i]!;
  });
  return totals;
}

/** One kind's entries of `[from, to)`, newest first on `dash_currency_kind_createdAt`, a slice at a time. */
async function walkFlow(
  db: Db,
  query: TotalsQuery,
  kind: EntryKind,
  options: ReadOptions,
  gate: SliceGate,
): Promise<MoneyFlow> {
  const { entries } = reportingCollections(db);
  const filter = entriesFilter({ currency: query.currency, kinds: [kind], from: query.from, to: query.to });
  const flow: MoneyFlow = { count: 0, amount: 0n };
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const page: Filter<EntryDoc> = after
      ? {
          $and: [
            filter,
            { createdAt: { $lte: after.createdAt } },
            { $or: [{ createdAt: { $lt: after.createdAt } }, { _id: { $lt: after.id } }] },
          ],
        }
      : filter;
    const slice = await gate.slice(() =>
      consistentRead(options, (command) =>
        entries
          .find(page, {
            hint: DashboardEntryIndex.byCurrency.name,
            projection: { amount: 1, createdAt: 1 },
            batchSize: DashboardLimits.totalsSliceMax,
            ...command,
          })
          .sort({ createdAt: -1, _id: -1 })
          .limit(DashboardLimits.totalsSliceMax)
          .toArray(),
      ),
    );
    for (const entry of slice) flow.amount += fromStoredSum(entry.amount);
    flow.count += slice.length;
    const last = slice.at(-1);
    if (last === undefined || slice.length < DashboardLimits.totalsSliceMax) return flow;
    after = { createdAt: last.createdAt, id: last._id };
  }
}

/** The currency's accounts in `_id` order, a slice at a time, all in one snapshot. */
async function walkAccounts(
  db: Db,
  currency: string,
  options: ReadOptions,
  gate: SliceGate,
): Promise<{ balance: bigint; held: bigint; count: number }> {
  const { accounts } = reportingCollections(db);
  if (options.session === undefined) {
    // A snapshot session reads every slice at the instant of its first read (the majority point).
    const snapshot = db.client.startSession({ snapshot: true });
    try {
      return await sumAccounts(accounts, currency, gate, { session: snapshot });
    } finally {
      await snapshot.endSession();
    }
  }
  // After a write of one's own (R2) a snapshot session will not do: it cannot be causally
  // consistent, and a new primary's majority point may still be behind the caller's token. A
  // read-only transaction reads one snapshot too, and its first read carries afterClusterTime: on a
  // session of its own (the caller's runs the query's other reads at the same time, which must not
  // join it), chained to the caller's by its cluster and operation times.
  const chained = db.client.startSession({ causalConsistency: true });
  try {
    if (options.session.clusterTime) chained.advanceClusterTime(options.session.clusterTime);
    if (options.session.operationTime) chained.advanceOperationTime(options.session.operationTime);
    chained.startTransaction({ readConcern: { level: 'snapshot' }, readPreference: 'primary' });
    const sum = await sumAccounts(accounts, currency, gate, { session: chained });
    await chained.commitTransaction();
    return sum;
  } finally {
    if (chained.inTransaction()) await chained.abortTransaction().catch(() => undefined);
    await chained.endSession();
  }
}

async function sumAccounts(
  accounts: ReturnType<typeof reportingCollections>['accounts'],
  currency: string,
  gate: SliceGate,
  read: { session: ClientSession },
): Promise<{ balance: bigint; held: bigint; count: number }> {
  const sum = { balance: 0n, held: 0n, count: 0 };
  let afterId: string | null = null;
  for (;;) {
    const filter: Filter<AccountDoc> = afterId === null ? { currency } : { currency, _id: { $gt: afterId } };
    const slice = await gate.slice(() =>
      accounts
        // One batch per slice: one command each, and no getMore (the emulator has none in a snapshot session).
        .find(filter, {
          hint: DashboardAccountIndex.name,
          projection: { balance: 1, held: 1 },
          batchSize: DashboardLimits.totalsSliceMax,
          ...read,
        })
        .sort({ _id: 1 })
        .limit(DashboardLimits.totalsSliceMax)
        .toArray(),
    );
    for (const account of slice) {
      sum.balance += fromStoredSum(account.balance);
      sum.held += fromStoredSum(account.held ?? 0);
    }
    sum.count += slice.length;
    const last = slice.at(-1);
    if (last === undefined || slice.length < DashboardLimits.totalsSliceMax) return sum;
    afterId = last._id;
  }
}

export type LedgerRequestStatus = RequestDoc['status'];

export interface LedgerRequestView {
  requestId: string;
  status: LedgerRequestStatus;
  operation: string;
  amount: number;
  fromAccountId: string | null;
  toAccountId: string | null;
  firstSeenAt: Date;
  decidedAt: Date | null;
  /** The entries the request wrote (applied only), debit leg first. */
  entries: LedgerEntry[];
  /** Why it was refused (rejected only). */
  rejection: { accountId: string; balance: number; amount: number } | null;
}

/** One request as stored under its caller key, with what it wrote or why it was refused. */
export async function ledgerRequest(
  db: Db,
  requestId: string,
  options: ReadOptions = {},
): Promise<LedgerRequestView | null> {
  const { requests, entries } = reportingCollections(db);
  const [doc, written] = await Promise.all([
    consistentRead(options, (command) => requests.findOne({ _id: `ledger:${requestId}` }, command)),
    consistentRead(options, (command) => entries.find({ requestId }, { hint: 'requestId', ...command }).toArray()),
  ]);
  if (doc === null) return null;
  const outcome = doc.outcome as Document | null;
  const rejected = doc.status === 'rejected' && outcome !== null && typeof outcome['accountId'] === 'string';
  return {
    requestId: doc.requestId,
    status: doc.status,
    operation: String(doc.params?.op ?? 'unknown'),
    amount: fromLong(doc.params?.amount ?? 0),
    fromAccountId: doc.params?.fromAccountId ?? null,
    toAccountId: doc.params?.toAccountId ?? null,
    firstSeenAt: doc.firstSeenAt,
    decidedAt: doc.decidedAt ?? null,
    // Entries exist only once applied; the debit leg (":debit") sorts before the credit.
    entries:
      doc.status === 'applied'
        ? written.map(toLedgerEntry).sort((p, q) => (p.id.endsWith(':debit') ? -1 : q.id.endsWith(':debit') ? 1 : 0))
        : [],
    rejection: rejected
      ? {
          accountId: String(outcome['accountId']),
          balance: fromLong(outcome['balance']),
          amount: fromLong(outcome['amount']),
        }
      : null,
  };
}

/** The dashboards' ledger reads over one database, built once by src/app/createApp.ts. */
export function createLedgerDashboard(db: Db) {
  return Object.freeze({
    listEntries: (query: EntriesQuery, options?: ReadOptions) => listEntriesAcross(db, query, options),
    totals: (query: TotalsQuery, options?: ReadOptions) => ledgerTotals(db, query, options),
    request: (requestId: string, options?: ReadOptions) => ledgerRequest(db, requestId, options),
  });
}

export type LedgerDashboard = ReturnType<typeof createLedgerDashboard>;
