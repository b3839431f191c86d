import type { ClientSession } from 'mongodb';
import { accountClosed, readAccount } from './accountFilters.ts';
import { AccountStatus } from './model.ts';
import {
  type AppliedLeg,
  decidedRequest,
  journalEntries,
  type MoveAttempt,
  outcomeOf,
  recordDecision,
} from './journal.ts';
import { type Decided, runKeyed } from './keyedTransaction.ts';
import type { EntryDoc, RequestDoc } from './model.ts';
import { fromLong, toLong } from './money.ts';
import {
  answerTakenMoves,
  attemptBase,
  type LedgerDeps,
  lookupRequests,
  type MoveAnswer,
  type MoveRequest,
} from './moves.ts';
import type { CurrencyMismatch, Refusal } from './results.ts';

// The request lifecycle of a lone move (one that found no other move of this process queued on its
// accounts; moves that queue together commit as a group, groupCommit.ts). A money move is ONE
// multi-document transaction, in this order:
//   1. the conditional write of each account (debit first): write conflicts surface at once;
//   2. the request under its unique key, already decided (applied, or rejected for lack of
//      funds), with its parameters' hash and outcome;
//   3. the journal entries;
//   4. commit with w: majority.
// A crash at any instant leaves the whole move or nothing: there is no pending state, no sweep and
// no per-account history. Attempts, retries, a lost commit reply and the answer past the budget
// are the keyed-transaction runner's (keyedTransaction.ts): a rerun under the same key meets the
// key decided (the duplicate key on step 2, or the read before a refusal) and replays it.

/**
 * A move taken alone (no other move was queued on its accounts): one transaction per attempt,
 * retried under the same key until `deadlineMs`. Its caller holds the accounts' turn.
 */
export async function moveAlone(deps: LedgerDeps, move: MoveRequest, deadlineMs: number): Promise<MoveAnswer> {
  const base = attemptBase(move, new Date());
  const [answer] = await runKeyed<MoveAttempt, RequestDoc, MoveAnswer>(deps, {
    kind: 'lone',
    deadlineMs,
    requests: () => [{ key: deps.rules.keyOf(move.requestId), ...base }],
    decide: async (session, [attempt]) => decidedAlone(deps, session, attempt!),
    lookup: (session, keys) => lookupRequests(deps, session, keys),
    answerTaken: (taken) => answerTakenMoves(deps, taken),
  });
  return answer!;
}

/** One attempt's decision, and its record written in the transaction. */
async function decidedAlone(
  deps: LedgerDeps,
  session: ClientSession,
  attempt: MoveAttempt,
): Promise<Decided<RequestDoc, MoveAnswer>> {
  const decision = await decideMove(deps, session, attempt);
  switch (decision.kind) {
    case 'refused':
      return { recorded: 0, ends: [{ kind: 'answer', answer: () => decision.result }] };
    case 'keyTaken':
      return { recorded: 0, ends: [{ kind: 'taken', stored: decision.existing }] };
    case 'record':
      // A key decided since the snapshot fails this insert with a duplicate key: the runner's.
      await recordDecision(deps.collections, session, decision.request, decision.entries);
      return {
        recorded: 1,
        ends: [{ kind: 'answer', answer: () => outcomeOf(deps.collections, decision.request, decision.entries) }],
      };
  }
}

type Decision =
  | { kind: 'record'; request: RequestDoc; entries: EntryDoc[] }
  | { kind: 'refused'; result: Refusal }
  | { kind: 'keyTaken'; existing: RequestDoc };

/** The account writes of the move, then what to record: applied, rejected, or nothing. */
async function decideMove(deps: LedgerDeps, session: ClientSession, attempt: MoveAttempt): Promise<Decision> {
  const { accounts } = deps.collections;
  const { params } = attempt;
  const amount = fromLong(params.amount);
  const legs: AppliedLeg[] = [];
  if (params.fromAccountId !== null) {
    const debited = await deps.preconditions.debit(accounts, session, { accountId: params.fromAccountId, amount });
    if (!debited) return refuseDebit(deps, session, attempt);
    legs.push({ account: debited, kind: params.op === 'transfer' ? 'transferOut' : 'withdrawal' });
  }
  if (params.toAccountId !== null) {
    const currency = legs[0]?.account.currency;
    const target = { accountId: params.toAccountId, amount, ...(currency === undefined ? {} : { currency }) };
    const credited = await deps.preconditions.credit(accounts, session, target);
    if (!credited) return refuseCredit(deps, session, attempt, currency);
    legs.push({ account: credited, kind: params.op === 'transfer' ? 'transferIn' : 'deposit' });
  }
  const now = new Date();
  const entries = journalEntries(attempt, legs, now);
  return {
    kind: 'record',
    request: decidedRequest(attempt, { kind: 'applied', entryIds: entries.map((entry) => entry._id) }, now),
    entries,
  };
}

/** The debit matched nothing: a replay, a missing account, other currencies, or too little money. */
async function refuseDebit(deps: LedgerDeps, session: ClientSession, attempt: MoveAttempt): Promise<Decision> {
  const taken = await takenKey(deps, session, attempt);
  if (taken) return taken;
  const { fromAccountId, toAccountId } = attempt.params;
  const from = await readAccount(deps.collections.accounts, session, fromAccountId!);
  if (!from) return { kind: 'refused', result: { kind: 'accountNotFound', accountId: fromAccountId! } };
  if (from.status === AccountStatus.CLOSED) return { kind: 'refused', result: accountClosed(from) };
  if (toAccountId !== null) {
    const to = await readAccount(deps.collections.accounts, session, toAccountId);
    if (!to) return { kind: 'refused', result: { kind: 'accountNotFound', accountId: toAccountId } };
    if (to.status === AccountStatus.CLOSED) return { kind: 'refused', result: accountClosed(to) };
    if (to.currency !== from.currency)
      return { kind: 'refused', result: mismatch(from._id, from.currency, to._id, to.currency) };
  }
  // Too little money: final for the key, so the rejection is recorded like an applied move.
  const outcome = {
    kind: 'rejected',
    accountId: from._id,
    balance: toLong(fromLong(from.balance)),
    amount: attempt.params.amount,
  } as const;
  return { kind: 'record', request: decidedRequest(attempt, outcome, new Date()), entries: [] };
}

/** The credit matched nothing: a replay, a missing account, other currencies, or a balance past 2^53-1. */
async function refuseCredit(
  deps: LedgerDeps,
  session: ClientSession,
  attempt: MoveAttempt,
  currency: string | undefined,
): Promise<Decision> {
  const taken = await takenKey(deps, session, attempt);
  if (taken) return taken;
  const { fromAccountId, toAccountId, amount } = attempt.params;
  const to = await readAccount(deps.collections.accounts, session, toAccountId!);
  if (!to) return { kind: 'refused', result: { kind: 'accountNotFound', accountId: toAccountId! } };
  if (to.status === AccountStatus.CLOSED) return { kind: 'refused', result: accountClosed(to) };
  if (currency !== undefined && to.currency !== currency)
    return { kind: 'refused', result: mismatch(fromAccountId!, currency, to._id, to.currency) };
  const result = {
    kind: 'balanceLimitExceeded',
    accountId: to._id,
    balance: fromLong(to.balance),
    amount: fromLong(amount),
  } as const;
  return { kind: 'refused', result };
}

/** Before refusing, a replay of a decided key must get that decision, not today's refusal. */
async function takenKey(deps: LedgerDeps, session: ClientSession, attempt: MoveAttempt): Promise<Decision | null> {
  const existing = await deps.collections.requests.findOne({ _id: attempt.key }, { session });
  return existing ? { kind: 'keyTaken', existing } : null;
}

function mismatch(
  fromAccountId: string,
  fromCurrency: string,
  toAccountId: string,
  toCurrency: string,
): CurrencyMismatch {
  return { kind: 'currencyMismatch', fromAccountId, fromCurrency, toAccountId, toCurrency };
}
