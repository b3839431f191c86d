import type { AnyBulkWriteOperation, ClientSession, Collection, Document } from 'mongodb';
import { accountAfter, answerEntry } from './convert.ts';
import type { AccountState } from './accountFilters.ts';
import {
  type EntryDoc,
  type EntryKind,
  entryId,
  type LedgerCollections,
  type MoveParams,
  type RequestDoc,
  type StoredOutcome,
} from './model.ts';
import { fromLong, toLong } from './money.ts';
import type { LedgerEntry, MoveOutcome } from './results.ts';
import { invariant, present } from '../lib/assert.ts';

// The journal and the outcome: what a decided move leaves behind, written in its transaction,
// and the answer rebuilt from it. The first caller and every replay build their answer from the
// very same documents, so they all see the same entries and balances.

/** A move under its key, as the request lifecycle hands it to the journal. */
export interface MoveAttempt {
  key: string;
  requestId: string;
  paramsHash: string;
  params: MoveParams;
  firstSeenAt: Date;
  /** The W3C traceparent of the request that made the move, when it was traced. */
  traceparent?: string;
}

/** One applied account leg: the account right after its write. */
export interface AppliedLeg {
  account: AccountState;
  kind: EntryKind;
}

/** The entries of the applied legs; ids follow from the key, so no retry can mint a second one. */
export function journalEntries(attempt: MoveAttempt, legs: readonly AppliedLeg[], now: Date): EntryDoc[] {
  return legs.map((leg) => {
    const other = legs.find((candidate) => candidate !== leg);
    const isDebit = leg.kind === 'withdrawal' || leg.kind === 'transferOut';
    return {
      _id: entryId(attempt.key, isDebit ? 'debit' : 'credit'),
      requestId: attempt.requestId,
      accountId: leg.account._id,
      currency: leg.account.currency,
      kind: leg.kind,
      amount: attempt.params.amount,
      balanceAfter: toLong(fromLong(leg.account.balance)),
      versionAfter: toLong(fromLong(leg.account.version)),
      counterpartyAccountId: other?.account._id ?? null,
      createdAt: now,
      ...(attempt.params.reference === undefined ? {} : { reference: attempt.params.reference }),
      ...(attempt.traceparent ? { traceparent: attempt.traceparent } : {}),
    };
  });
}

/**
 * Inserts a move's journal entries in one command, each stamped `committedAt: $$NOW`: the
 * database's clock at the transaction's last statement before its commit, so `balanceAt` orders
 * decisions by the clock of the server that committed them (L3), never a process's. An upsert
 * with a pipeline is the one write that can evaluate `$$NOW` into a new document; it inserts (the
 * ids follow from the request key, whose insert before it is the duplicate check), and mongod logs
 * it and reports it to change streams as an insert: an upsert that matches nothing inserts through
 * `collection_internal::insertDocument`, the insert command's own path
 * (src/mongo/db/exec/upsert_stage.cpp, `UpsertStage::_performInsert`), so the payout projection's
 * `operationType: 'insert'` filter still sees every withdrawal.
 */
export async function insertEntries(
  entries: Collection<EntryDoc>,
  session: ClientSession,
  docs: readonly EntryDoc[],
): Promise<void> {
  if (docs.length === 0) return;
  const writes: AnyBulkWriteOperation<EntryDoc>[] = docs.map((doc) => ({
    updateOne: {
      filter: { _id: doc._id },
      update: [{ $set: literalFields(doc) }, { $set: { committedAt: '$$NOW' } }],
      upsert: true,
    },
  }));
  await entries.bulkWrite(writes, { session, ordered: true });
}

/** A document's fields as `$literal`s, so that no value is read as an expression (a `$` string). */
function literalFields(doc: EntryDoc): Document {
  const { _id: _ignored, ...fields } = doc;
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, { $literal: value }]));
}

/** The request, already decided: it is inserted in the move's transaction, never pending. */
export function decidedRequest(attempt: MoveAttempt, outcome: StoredOutcome, now: Date): RequestDoc {
  return {
    _id: attempt.key,
    requestId: attempt.requestId,
    paramsHash: attempt.paramsHash,
    params: attempt.params,
    status: outcome.kind,
    outcome,
    firstSeenAt: attempt.firstSeenAt,
    decidedAt: now,
    ...(attempt.traceparent ? { traceparent: attempt.traceparent } : {}),
  };
}

/**
 * Writes the decided request and the entries in the move's transaction. The request goes first:
 * if the key is taken, its duplicate-key error ends the transaction before anything else.
 */
export async function recordDecision(
  collections: LedgerCollections,
  session: ClientSession,
  request: RequestDoc,
  entries: readonly EntryDoc[],
): Promise<void> {
  await collections.requests.insertOne(request, { session });
  await insertEntries(collections.entries, session, entries);
}

/**
 * The answer of a decided request. `stored` are its entries when the caller holds them (it just
 * wrote them: entries are immutable, so they are what a read returns); otherwise they are read.
 */
export async function outcomeOf(
  collections: LedgerCollections,
  request: RequestDoc,
  stored?: readonly EntryDoc[],
): Promise<MoveOutcome> {
  const { outcome } = request;
  invariant(outcome !== null, () => `request ${request._id} has no outcome`);
  if (outcome.kind === 'rejected') {
    return {
      kind: 'insufficientFunds',
      accountId: outcome.accountId,
      balance: fromLong(outcome.balance),
      amount: fromLong(outcome.amount),
    };
  }
  const docs = stored ?? (await collections.entries.find({ _id: { $in: outcome.entryIds } }).toArray());
  invariant(
    docs.length === outcome.entryIds.length && docs.every((doc) => outcome.entryIds.includes(doc._id)),
    () => `request ${request._id} has entries other than its outcome names`,
  );
  // The metadata is stored once, on the request: every entry of the move carries it in the answer.
  const metadata = request.params.metadata ?? null;
  const entries = docs.map((doc) => ({ ...answerEntry(doc), metadata }));
  const leg = (kind: LedgerEntry['kind']): LedgerEntry => {
    return present(
      entries.find((candidate) => candidate.kind === kind),
      () => `request ${request._id} lacks its ${kind} entry`,
    );
  };
  switch (request.params.op) {
    case 'deposit': {
      const entry = leg('deposit');
      return { kind: 'depositSuccess', entry, account: accountAfter(entry) };
    }
    case 'withdraw': {
      const entry = leg('withdrawal');
      return { kind: 'withdrawSuccess', entry, account: accountAfter(entry) };
    }
    case 'transfer': {
      const debit = leg('transferOut');
      const credit = leg('transferIn');
      return { kind: 'transferSuccess', debit, credit, from: accountAfter(debit), to: accountAfter(credit) };
    }
  }
}
