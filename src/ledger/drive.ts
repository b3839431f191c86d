import { Long } from 'mongodb';
import { type AccountDecision, decideOnAccount } from './decide.ts';
import { accountTraceLengthMax } from './limits.ts';
import { type EntryDoc, type EntryKind, entryId, type LedgerCollections, type RequestDoc } from './model.ts';
import { fromLong, toLong } from './money.ts';
import type { AccountPreconditions } from './preconditions.ts';
import { isOnlyDuplicateKeys } from '../db/mongoErrors.ts';
import { finalizeRequest } from './requests.ts';
import type { TracedDecision } from './trace.ts';

// Drives one request from its stored document to its final outcome. Every step is conditional
// and idempotent, so the first caller, a replay and the start-up sweep may all drive the same
// request, even at once, and the money still moves once:
//   1. debit the source (withdraw, transfer): applied, or rejected for lack of funds;
//   2. credit the destination (deposit, transfer);
//   3. insert the journal entries (ids derived from the key, so a repeat is a no-op);
//   4. record the outcome on the request.
// A transfer is therefore two single-document writes rather than one transaction. That is
// deliberate for now: the emulator has no multi-document transactions yet, and the two-step form
// needs none — the source's trace says whether the debit happened, the destination's trace
// whether the credit did, and whoever drives next finishes what is missing. Between steps 1 and 2
// the money is "in flight" for a moment; readers of balances may see it, the journal never does.

export type DriveResult =
  /** `written`: the entries this drive inserted itself, so its caller need not read them back. */
  | { kind: 'decided'; request: RequestDoc; written?: EntryDoc[] }
  /** Not finished now; the request stays pending for a replay or the sweep. */
  | { kind: 'unfinished'; reason: 'untraceable' | 'undecided' };

type Leg = { accountId: string; decision: Extract<TracedDecision, { kind: 'applied' }>; kind: EntryKind };

export async function driveRequest(
  collections: LedgerCollections,
  preconditions: AccountPreconditions,
  request: RequestDoc,
): Promise<DriveResult> {
  const { params } = request;
  const amount = fromLong(params.amount);
  const legs: Leg[] = [];
  if (params.fromAccountId !== null) {
    const debit = await decide(collections, preconditions, request, params.fromAccountId, -amount);
    if (debit.kind === 'untraceable' || debit.kind === 'undecided') return { kind: 'unfinished', reason: debit.kind };
    if (debit.kind === 'rejected') {
      const outcome = { kind: 'rejected', accountId: params.fromAccountId, balance: toLong(debit.balance), amount: params.amount } as const;
      return { kind: 'decided', request: await finalizeRequest(collections.requests, request._id, outcome) };
    }
    legs.push({ accountId: params.fromAccountId, decision: debit, kind: params.op === 'transfer' ? 'transferOut' : 'withdrawal' });
  }
  if (params.toAccountId !== null) {
    const credit = await decide(collections, preconditions, request, params.toAccountId, amount);
    if (credit.kind === 'rejected') throw new Error(`invariant: credit of ${request._id} recorded as rejected`);
    if (credit.kind !== 'applied') return { kind: 'unfinished', reason: credit.kind };
    legs.push({ accountId: params.toAccountId, decision: credit, kind: params.op === 'transfer' ? 'transferIn' : 'deposit' });
  }
  const entries = legs.map((leg) => entryFor(request, leg, legs));
  const wroteAll = await insertEntries(collections, entries);
  const outcome = { kind: 'applied', entryIds: entries.map((entry) => entry._id) } as const;
  const final = await finalizeRequest(collections.requests, request._id, outcome);
  return { kind: 'decided', request: final, ...(wroteAll ? { written: entries } : {}) };
}

function decide(
  collections: LedgerCollections,
  preconditions: AccountPreconditions,
  request: RequestDoc,
  accountId: string,
  delta: number,
): Promise<AccountDecision> {
  const atClaim = request.versionsAtClaim.find((claimed) => claimed.accountId === accountId);
  if (atClaim === undefined) throw new Error(`invariant: request ${request._id} has no claim version for ${accountId}`);
  const versionMax = Long.fromNumber(fromLong(atClaim.version) + accountTraceLengthMax);
  const target = { accountId, key: request._id, amount: Math.abs(delta), versionMax };
  return decideOnAccount(collections.accounts, preconditions, { delta, target });
}

function entryFor(request: RequestDoc, leg: Leg, legs: Leg[]): EntryDoc {
  const other = legs.find((candidate) => candidate !== leg);
  return {
    _id: entryId(request._id, leg.decision.delta < 0 ? 'debit' : 'credit'),
    requestId: request.requestId,
    accountId: leg.accountId,
    currency: request.currency,
    kind: leg.kind,
    amount: request.params.amount,
    balanceAfter: toLong(leg.decision.balanceAfter),
    versionAfter: toLong(leg.decision.versionAfter),
    counterpartyAccountId: other?.accountId ?? null,
    createdAt: new Date(),
  };
}

/**
 * Inserts the entries; the ones an earlier driver already wrote are kept (they differ from ours
 * at most in `createdAt`). True when this call wrote all of them.
 */
async function insertEntries(collections: LedgerCollections, entries: EntryDoc[]): Promise<boolean> {
  try {
    await collections.entries.insertMany(entries, { ordered: false });
    return true;
  } catch (error) {
    if (!isOnlyDuplicateKeys(error)) throw error;
    const ids = entries.map((entry) => entry._id);
    const stored = await collections.entries.find({ _id: { $in: ids } }, { projection: { _id: 1 } }).toArray();
    if (stored.length !== entries.length) throw new Error(`invariant: entries of ${entries[0]?.requestId} clash with others`);
    return false;
  }
}
