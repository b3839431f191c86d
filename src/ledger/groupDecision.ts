import { type AccountRead, balanceMax } from './accountFilters.ts';
import type { EntryDoc, RequestDoc } from './model.ts';
import { fromLong, toLong } from './money.ts';
import { type AppliedLeg, decidedRequest, journalEntries, type MoveAttempt } from './journal.ts';
import { AccountStatus } from './model.ts';
import type { InsufficientFunds, Refusal } from './results.ts';
import { invariant } from '../lib/assert.ts';

// The decision of a group: many moves on the accounts read once in one snapshot, decided in order
// against the running balance, as if each had run alone right after the one before it. Pure: the
// group's transaction (groupCommit.ts) reads, calls this, and writes what it returns under the
// precondition that the accounts are still exactly as read.

/** What the group's transaction read: its accounts, and those of its keys that are already decided. */
export interface GroupSnapshot {
  accounts: ReadonlyMap<string, AccountRead>;
  requests: ReadonlyMap<string, RequestDoc>;
}

/**
 * What a group answers without recording it: a refusal, or, in an atomic batch that failed, a
 * rejection for lack of funds (nothing of the batch is written, so it is not final for its key).
 */
export type UnrecordedAnswer = Refusal | InsufficientFunds;

export type MoveDecision =
  /** Applied: its request and entries are written in the group's transaction. */
  | { kind: 'applied'; request: RequestDoc; entries: EntryDoc[] }
  /** Refused for lack of funds and recorded: final for its key. */
  | { kind: 'rejected'; request: RequestDoc }
  | { kind: 'refused'; result: UnrecordedAnswer }
  /**
   * The key was decided before: before the group (`earlier: null`) or by an earlier move of this
   * very group, whose request and entries `earlier` holds. Answered from that record.
   */
  | { kind: 'keyTaken'; existing: RequestDoc; earlier: EntryDoc[] | null }
  /** An atomic batch failed on another of its moves: nothing of it is written. */
  | { kind: 'linkedMoveFailed' };

/** One conditional account write: the account exactly as read, and what the group adds to it. */
export interface AccountWrite {
  read: AccountRead;
  balanceDelta: number;
  versionDelta: number;
}

export interface GroupDecision {
  moves: MoveDecision[];
  accountWrites: AccountWrite[];
}

/**
 * The two choices of a group decision that a realistic mistake gets wrong. A dependency only so
 * that a meta-test can swap in a broken one; production always uses `groupPolicy`.
 */
export interface GroupPolicy {
  /** The balance a debit is checked against: the running one (after the group's earlier moves). */
  balanceToCheck(opening: number, running: number): number;
  /** Whether one failed move fails every move of the group: only in an atomic batch. */
  linked(atomic: boolean): boolean;
}

export const groupPolicy: GroupPolicy = Object.freeze<GroupPolicy>({
  balanceToCheck: (_opening, running) => running,
  linked: (atomic) => atomic,
});

export interface GroupDecisionInput {
  snapshot: GroupSnapshot;
  attempts: readonly MoveAttempt[];
  atomic: boolean;
  now: Date;
  policy: GroupPolicy;
  /** Whether the stored request is this very move (else the key is reused for another). */
  sameMove(stored: RequestDoc, attempt: MoveAttempt): boolean;
}

interface Running {
  read: AccountRead;
  balance: number;
  version: number;
}

/** Decides every move of the group in order; the same order a caller would see one at a time. */
export function decideGroup(input: GroupDecisionInput): GroupDecision {
  const book = new Map<string, Running>();
  for (const read of input.snapshot.accounts.values())
    book.set(read._id, { read, balance: read.balance, version: read.version });
  const decidedHere = new Map<string, { request: RequestDoc; entries: EntryDoc[] }>();
  const moves = input.attempts.map((attempt): MoveDecision => {
    const earlier = decidedHere.get(attempt.key);
    if (earlier) return { kind: 'keyTaken', existing: earlier.request, earlier: earlier.entries };
    const existing = input.snapshot.requests.get(attempt.key);
    if (existing) return { kind: 'keyTaken', existing, earlier: null };
    const decision = decideMove(book, attempt, input.now, input.policy);
    if (decision.kind === 'applied') decidedHere.set(attempt.key, decision);
    if (decision.kind === 'rejected') decidedHere.set(attempt.key, { request: decision.request, entries: [] });
    return decision;
  });
  if (input.policy.linked(input.atomic) && moves.some((move, i) => !holds(move, input.attempts[i]!, input.sameMove))) {
    return {
      moves: moves.map((move, i) => linkedFailure(move, input.attempts[i]!, input.sameMove)),
      accountWrites: [],
    };
  }
  const accountWrites: AccountWrite[] = [];
  for (const running of book.values()) {
    const versionDelta = running.version - running.read.version;
    if (versionDelta > 0)
      accountWrites.push({ read: running.read, balanceDelta: running.balance - running.read.balance, versionDelta });
  }
  return { moves, accountWrites };
}

/** One move against the running book; an applied move updates the book. */
function decideMove(book: Map<string, Running>, attempt: MoveAttempt, now: Date, policy: GroupPolicy): MoveDecision {
  const { fromAccountId, toAccountId, op } = attempt.params;
  const amount = fromLong(attempt.params.amount);
  const from = fromAccountId === null ? null : book.get(fromAccountId);
  const to = toAccountId === null ? null : book.get(toAccountId);
  if (from === undefined) return { kind: 'refused', result: { kind: 'accountNotFound', accountId: fromAccountId! } };
  if (to === undefined) return { kind: 'refused', result: { kind: 'accountNotFound', accountId: toAccountId! } };
  // Closed as the snapshot read it; the group's write filters on `isOpen` too (L2).
  for (const side of [from, to]) {
    if (side && side.read.status === AccountStatus.CLOSED)
      return {
        kind: 'refused',
        result: { kind: 'accountClosed', accountId: side.read._id, closedAt: side.read.closedAt ?? null },
      };
  }
  if (from && to && from.read.currency !== to.read.currency) {
    const result = {
      kind: 'currencyMismatch',
      fromAccountId: from.read._id,
      fromCurrency: from.read.currency,
      toAccountId: to.read._id,
      toCurrency: to.read.currency,
    } as const;
    return { kind: 'refused', result };
  }
  // What pending holds reserve is not there to spend (H1): debits are checked on the available balance.
  if (from && policy.balanceToCheck(from.read.balance - from.read.held, from.balance - from.read.held) < amount) {
    // Too little money: final for the key, so the rejection is recorded like an applied move.
    const outcome = {
      kind: 'rejected',
      accountId: from.read._id,
      balance: toLong(from.balance),
      amount: attempt.params.amount,
    } as const;
    return { kind: 'rejected', request: decidedRequest(attempt, outcome, now) };
  }
  if (to && to.balance > balanceMax - amount) {
    return {
      kind: 'refused',
      result: { kind: 'balanceLimitExceeded', accountId: to.read._id, balance: to.balance, amount },
    };
  }
  const legs: AppliedLeg[] = [];
  if (from) legs.push({ account: move(from, -amount), kind: op === 'transfer' ? 'transferOut' : 'withdrawal' });
  if (to) legs.push({ account: move(to, amount), kind: op === 'transfer' ? 'transferIn' : 'deposit' });
  const entries = journalEntries(attempt, legs, now);
  const request = decidedRequest(attempt, { kind: 'applied', entryIds: entries.map((entry) => entry._id) }, now);
  return { kind: 'applied', request, entries };
}

/** Applies one leg to the book and returns the account right after it, as its entry records it. */
function move(running: Running, delta: number): AppliedLeg['account'] {
  running.balance += delta;
  running.version += 1;
  return {
    _id: running.read._id,
    currency: running.read.currency,
    balance: toLong(running.balance),
    version: toLong(running.version),
  };
}

/** Whether a move of an atomic batch stands: applied now, or the replay of a move applied before. */
function holds(move: MoveDecision, attempt: MoveAttempt, sameMove: GroupDecisionInput['sameMove']): boolean {
  if (move.kind === 'applied') return true;
  return move.kind === 'keyTaken' && sameMove(move.existing, attempt) && move.existing.outcome?.kind === 'applied';
}

/**
 * A move of a failed atomic batch: a move that would stand answers LinkedMoveFailed, a failed one
 * its own answer. Nothing is written, so a rejection is not recorded. A key the batch names twice
 * for the same move answers LinkedMoveFailed the second time; for another move (other amount,
 * accounts or kind) it is the cause, and answers IdempotencyKeyReused naming the field (G4, issue
 * 41: both moves answered LinkedMoveFailed, and no answer named the cause).
 */
function linkedFailure(
  move: MoveDecision,
  attempt: MoveAttempt,
  sameMove: GroupDecisionInput['sameMove'],
): MoveDecision {
  if (move.kind === 'keyTaken' && move.earlier !== null)
    return sameMove(move.existing, attempt) ? { kind: 'linkedMoveFailed' } : move;
  if (holds(move, attempt, sameMove)) return { kind: 'linkedMoveFailed' };
  if (move.kind !== 'rejected') return move;
  const { outcome } = move.request;
  invariant(outcome?.kind === 'rejected', 'a rejected move records its rejection');
  const result = {
    kind: 'insufficientFunds',
    accountId: outcome.accountId,
    balance: fromLong(outcome.balance),
    amount: fromLong(outcome.amount),
  } as const;
  return { kind: 'refused', result };
}
