import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ClientSession, type MongoClient, MongoError, type TransactionOptions } from 'mongodb';
import { isDuplicateKey } from '../db/mongoErrors.ts';
import { activeTraceparent } from '../observability/tracing.ts';
import { type AccountPreconditions, readAccount } from './accountFilters.ts';
import { exponentialBackoffMs, jitteredMs } from '../lib/backoff.ts';
import type { GroupPolicy } from './groupDecision.ts';
import type { GroupQueues } from './groupQueues.ts';
import { moveAttemptsMax, moveBackoffBaseMs, moveBackoffMaxMs } from './limits.ts';
import { AccountStatus, type EntryDoc, type LedgerCollections, type MoveOp, type MoveParams, type RequestDoc } from './model.ts';
import { fromLong, toLong } from './money.ts';
import { type AppliedLeg, decidedRequest, journalEntries, type MoveAttempt, outcomeOf, recordDecision } from './journal.ts';
import type {
  AccountClosed,
  AccountNotFound,
  BalanceLimitExceeded,
  CurrencyMismatch,
  DuplicateReplayed,
  IdempotencyKeyReused,
  MoveOutcome,
  OutcomeUnknown,
  RequestInProgress,
} from './results.ts';
import type { LedgerTelemetry, RetryReason } from './telemetry.ts';

// The request lifecycle of a lone move (one that found no other move of this process queued on its
// accounts; moves that queue together commit as a group, groupCommit.ts). A money move is ONE
// multi-document transaction, in this order:
//   1. the conditional write of each account (debit first): write conflicts surface at once;
//   2. the request under its unique key, already decided (applied, or rejected for lack of
//      funds), with its parameters' hash and outcome;
//   3. the journal entries;
//   4. commit with w: majority.
// A crash at any instant leaves the whole move or nothing: there is no pending state, no sweep and
// no per-account history. A transient failure (write conflict, lost connection, lost commit reply)
// reruns the whole move under the same key, bounded; if the key was decided meanwhile, the
// duplicate key on step 2 turns the rerun into a replay.

/** A move's attempt without its key (the key is asked of the rules on every attempt). */
export function attemptBase(move: MoveRequest, firstSeenAt: Date): Omit<MoveAttempt, 'key'> {
  const params: MoveParams = {
    op: move.op,
    fromAccountId: move.fromAccountId,
    toAccountId: move.toAccountId,
    amount: toLong(move.amount),
    // Stored only when sent: a move without them writes exactly what it wrote before (G6's cost).
    ...(move.reference === undefined ? {} : { reference: move.reference }),
    ...(move.metadata === undefined ? {} : { metadata: move.metadata }),
  };
  // The caller's trace, stored with the request and its entries: the payout made from them links to it.
  const traceparent = activeTraceparent();
  return { requestId: move.requestId, paramsHash: hashParams(params), params, firstSeenAt, ...(traceparent ? { traceparent } : {}) };
}

/** Caller keys live in their own namespace so no other feature's key can collide with them. */
export function requestKey(requestId: string): string {
  return `ledger:${requestId}`;
}

/** A replay must carry the same operation and parameters; the hash makes that a string compare. */
export function hashParams(params: MoveParams): string {
  const canonical: unknown[] = [params.op, params.fromAccountId, params.toAccountId, params.amount.toString()];
  // Appended only when sent, so the hash of a move without them is what it always was.
  if (params.reference !== undefined || params.metadata !== undefined) canonical.push(params.reference ?? null, canonicalMetadata(params.metadata));
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** Metadata as compared on a replay: JSON with its object keys sorted (key order is not a difference). */
export function canonicalMetadata(text: string | undefined): string | null {
  if (text === undefined) return null;
  return JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/**
 * How a request is keyed and recognised. Like the account preconditions, a dependency only so
 * that a meta-test can swap in a broken one; production always uses `requestRules`.
 */
export interface RequestRules {
  /** The stored key of `requestId`; asked on every attempt. */
  keyOf(requestId: string): string;
  /** Whether the stored request is this very move (else the key is reused for another). */
  sameMove(stored: RequestDoc, attempt: MoveAttempt): boolean;
}

export const requestRules: RequestRules = Object.freeze({
  keyOf: requestKey,
  sameMove: (stored: RequestDoc, attempt: MoveAttempt) => stored.paramsHash === attempt.paramsHash,
});

export interface LedgerDeps {
  client: MongoClient;
  /** This process's moves, one group at a time per account (see `AccountTurns`). */
  turns: AccountTurns;
  /** This process's moves waiting for their accounts' turn, grouped (see groupCommit.ts). */
  queues: GroupQueues<WaitingMove>;
  collections: LedgerCollections;
  preconditions: AccountPreconditions;
  rules: RequestRules;
  /** How a group decides its moves (groupDecision.ts). */
  groupPolicy: GroupPolicy;
  telemetry: LedgerTelemetry;
}

/** A move queued for its accounts' turn, and how its caller hears the answer. */
export interface WaitingMove {
  move: MoveRequest;
  deadlineMs: number;
  resolve(result: MoveAnswer): void;
  reject(error: unknown): void;
}

export interface MoveRequest {
  op: MoveOp;
  requestId: string;
  fromAccountId: string | null;
  toAccountId: string | null;
  amount: number;
  /** The caller's reference and metadata (JSON text), when sent (inputs.ts bounds them). */
  reference?: string | undefined;
  metadata?: string | undefined;
}

/** Answers that are not recorded: nothing moved, and the same key may be sent again. */
type Refusal = AccountNotFound | AccountClosed | CurrencyMismatch | BalanceLimitExceeded;

export type MoveAnswer = MoveOutcome | DuplicateReplayed | IdempotencyKeyReused | RequestInProgress | OutcomeUnknown | Refusal;

// Snapshot reads, so a refusal reports the balance the decision saw; majority commit.
export const transactionOptions: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority' },
  readPreference: 'primary',
};

/**
 * Moves of one process (one MongoClient) take turns per account. A transaction that meets another's write on its
 * account fails at once (WriteConflict) and must run again, so N moves racing on one hot account
 * cost O(N^2) attempts and can starve. Queued here, moves of this process never conflict with each
 * other; only moves of other processes do, and those are retried. Accounts are taken in id order,
 * so two transfers can never wait for each other.
 */
export class AccountTurns {
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(accountIds: readonly string[], work: () => Promise<T>): Promise<T> {
    const releases: (() => void)[] = [];
    try {
      for (const id of [...accountIds].sort()) releases.push(await this.#take(id));
      return await work();
    } finally {
      for (const release of releases) release();
    }
  }

  async #take(accountId: string): Promise<() => void> {
    const previous = this.#tails.get(accountId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.#tails.set(accountId, tail);
    await previous;
    return () => {
      release();
      if (this.#tails.get(accountId) === tail) this.#tails.delete(accountId);
    };
  }
}

/**
 * A move taken alone (no other move was queued on its accounts): one transaction per attempt,
 * retried under the same key until `deadlineMs`. Its caller holds the accounts' turn.
 */
export async function moveAlone(deps: LedgerDeps, move: MoveRequest, deadlineMs: number): Promise<MoveAnswer> {
  const base = attemptBase(move, new Date());
  /** An earlier attempt's commit may have applied (its reply was lost). */
  let mayHaveCommitted = false;
  // One session for every attempt: a new transaction on it ends whatever an earlier attempt left
  // open on the server (a statement whose reply was lost), instead of leaving it to hold locks.
  const session = deps.client.startSession();
  try {
    let attempt: MoveAttempt = { key: deps.rules.keyOf(move.requestId), ...base };
    for (let attemptNo = 1; ; attemptNo += 1) {
      attempt = { key: deps.rules.keyOf(move.requestId), ...base };
      try {
        const done = await attemptMove(deps, session, attempt);
        if (done.kind === 'answered') return done.result;
        return await answerTakenKey(deps, attempt, done.existing, mayHaveCommitted);
      } catch (error) {
        const reason = retryReasonOf(error);
        if (reason === null) throw error;
        deps.telemetry.retried(reason);
        if (reason === 'unknownCommitResult') mayHaveCommitted = true;
        if (attemptNo >= moveAttemptsMax || Date.now() >= deadlineMs) break;
        await sleep(backoffMs(attemptNo));
      }
    }
    // Out of attempts. The key may have been decided meanwhile: by an attempt of ours whose commit
    // reply was lost, or by an overlapping call holding the account. Else nothing is decided yet
    // and the caller asks again with the same key, which then decides it (no state is left over).
    const existing = await fencedLookup(deps, session, attempt.key);
    if (existing) return await answerTakenKey(deps, attempt, existing, mayHaveCommitted);
    const transient = { requestId: move.requestId, firstSeenAt: base.firstSeenAt };
    return mayHaveCommitted ? { kind: 'outcomeUnknown', ...transient } : { kind: 'requestInProgress', ...transient };
  } finally {
    await session.endSession();
  }
}

/**
 * Reads the request in one more transaction on the move's session. Starting it ends any
 * transaction an earlier attempt left open on the server (a commit that never arrived): that one
 * would otherwise hold the accounts until transactionLifetimeLimitSeconds, and could no longer
 * commit late.
 */
async function fencedLookup(deps: LedgerDeps, session: ClientSession, key: string): Promise<RequestDoc | null> {
  session.startTransaction(transactionOptions);
  try {
    return await deps.collections.requests.findOne({ _id: key }, { session });
  } finally {
    await session.abortTransaction().catch(() => undefined);
  }
}

type AttemptEnd = { kind: 'answered'; result: MoveAnswer } | { kind: 'keyTaken'; existing: RequestDoc };

/** One transaction: decide, record, commit. Throws what the caller may retry. */
async function attemptMove(deps: LedgerDeps, session: ClientSession, attempt: MoveAttempt): Promise<AttemptEnd> {
  session.startTransaction(transactionOptions);
  try {
    const decision = await decideMove(deps, session, attempt);
    if (decision.kind !== 'record') {
      await session.abortTransaction();
      return decision.kind === 'refused' ? { kind: 'answered', result: decision.result } : decision;
    }
    try {
      await recordDecision(deps.collections, session, decision.request, decision.entries);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // Decided by an earlier call: the committed request answers this one.
      await session.abortTransaction();
      return { kind: 'keyTaken', existing: await loadRequest(deps.collections, attempt.key) };
    }
    await session.commitTransaction();
    deps.telemetry.committed('lone', 1);
    return { kind: 'answered', result: await outcomeOf(deps.collections, decision.request, decision.entries) };
  } catch (error) {
    if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
    throw error;
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
  return { kind: 'record', request: decidedRequest(attempt, { kind: 'applied', entryIds: entries.map((entry) => entry._id) }, now), entries };
}

/** The debit matched nothing: a replay, a missing account, other currencies, or too little money. */
async function refuseDebit(deps: LedgerDeps, session: ClientSession, attempt: MoveAttempt): Promise<Decision> {
  const taken = await takenKey(deps, session, attempt);
  if (taken) return taken;
  const { fromAccountId, toAccountId } = attempt.params;
  const from = await readAccount(deps.collections.accounts, session, fromAccountId!);
  if (!from) return { kind: 'refused', result: { kind: 'accountNotFound', accountId: fromAccountId! } };
  if (from.status === AccountStatus.CLOSED) return { kind: 'refused', result: closed(from) };
  if (toAccountId !== null) {
    const to = await readAccount(deps.collections.accounts, session, toAccountId);
    if (!to) return { kind: 'refused', result: { kind: 'accountNotFound', accountId: toAccountId } };
    if (to.status === AccountStatus.CLOSED) return { kind: 'refused', result: closed(to) };
    if (to.currency !== from.currency) return { kind: 'refused', result: mismatch(from._id, from.currency, to._id, to.currency) };
  }
  // Too little money: final for the key, so the rejection is recorded like an applied move.
  const outcome = { kind: 'rejected', accountId: from._id, balance: toLong(fromLong(from.balance)), amount: attempt.params.amount } as const;
  return { kind: 'record', request: decidedRequest(attempt, outcome, new Date()), entries: [] };
}

/** The credit matched nothing: a replay, a missing account, other currencies, or a balance past 2^53-1. */
async function refuseCredit(deps: LedgerDeps, session: ClientSession, attempt: MoveAttempt, currency: string | undefined): Promise<Decision> {
  const taken = await takenKey(deps, session, attempt);
  if (taken) return taken;
  const { fromAccountId, toAccountId, amount } = attempt.params;
  const to = await readAccount(deps.collections.accounts, session, toAccountId!);
  if (!to) return { kind: 'refused', result: { kind: 'accountNotFound', accountId: toAccountId! } };
  if (to.status === AccountStatus.CLOSED) return { kind: 'refused', result: closed(to) };
  if (currency !== undefined && to.currency !== currency) return { kind: 'refused', result: mismatch(fromAccountId!, currency, to._id, to.currency) };
  const result = { kind: 'balanceLimitExceeded', accountId: to._id, balance: fromLong(to.balance), amount: fromLong(amount) } as const;
  return { kind: 'refused', result };
}

/** Before refusing, a replay of a decided key must get that decision, not today's refusal. */
async function takenKey(deps: LedgerDeps, session: ClientSession, attempt: MoveAttempt): Promise<Decision | null> {
  const existing = await deps.collections.requests.findOne({ _id: attempt.key }, { session });
  return existing ? { kind: 'keyTaken', existing } : null;
}

/** Why a write on a closed account matched nothing (the filter decided it: `isOpen`). */
export function closed(account: { _id: string; closedAt?: Date | null | undefined }): AccountClosed {
  return { kind: 'accountClosed', accountId: account._id, closedAt: account.closedAt ?? null };
}

function mismatch(fromAccountId: string, fromCurrency: string, toAccountId: string, toCurrency: string): CurrencyMismatch {
  return { kind: 'currencyMismatch', fromAccountId, fromCurrency, toAccountId, toCurrency };
}

/**
 * Answers a key that is already decided: refuse other parameters, else repeat the decision. When
 * an attempt of this very call may have committed, the decision is this call's own answer.
 */
export async function answerTakenKey(deps: LedgerDeps, attempt: MoveAttempt, existing: RequestDoc, mayHaveCommitted: boolean): Promise<MoveAnswer> {
  const { requestId } = attempt;
  if (!deps.rules.sameMove(existing, attempt)) return keyReused(requestId, existing.params, attempt.params);
  const original = await outcomeOf(deps.collections, existing);
  if (mayHaveCommitted) return original;
  return { kind: 'duplicateReplayed', requestId, firstSeenAt: existing.firstSeenAt, original };
}

/** Which parameter differs from the first request's, so the caller can tell a bug from a reused key. */
export function keyReused(requestId: string, first: MoveParams, now: MoveParams): IdempotencyKeyReused {
  const shown = (value: unknown) => (value === null || value === undefined ? 'none' : String(value));
  const annotation = annotationReused(requestId, first, now);
  for (const [field, name] of [['op', 'operation'], ['amount', 'amount'], ['fromAccountId', 'fromAccountId'], ['toAccountId', 'toAccountId']] as const) {
    if (String(first[field]) !== String(now[field])) {
      return {
        kind: 'idempotencyKeyReused',
        requestId,
        field: name,
        detail: `requestId ${requestId} was first used with ${name} ${shown(first[field])}, now ${shown(now[field])}: use a new requestId for a new request`,
      };
    }
  }
  return annotation ?? { kind: 'idempotencyKeyReused', requestId, field: null, detail: `requestId ${requestId} was first used with other parameters: use a new requestId for a new request` };
}

/** `reference` or `metadata` differing from the first request's (metadata compared as JSON, key order aside). */
export function annotationReused(requestId: string, first: { reference?: string; metadata?: string }, now: { reference?: string; metadata?: string }): IdempotencyKeyReused | null {
  if ((first.reference ?? null) !== (now.reference ?? null)) {
    const shown = (value: string | undefined) => (value === undefined ? 'none' : JSON.stringify(value));
    return {
      kind: 'idempotencyKeyReused',
      requestId,
      field: 'reference',
      detail: `requestId ${requestId} was first used with reference ${shown(first.reference)}, now ${shown(now.reference)}: use a new requestId for a new request`,
    };
  }
  if (canonicalMetadata(first.metadata) !== canonicalMetadata(now.metadata)) {
    return {
      kind: 'idempotencyKeyReused',
      requestId,
      field: 'metadata',
      detail: `requestId ${requestId} was first used with ${first.metadata === undefined ? 'no metadata' : 'other metadata'}: use a new requestId for a new request`,
    };
  }
  return null;
}

async function loadRequest(collections: LedgerCollections, key: string): Promise<RequestDoc> {
  const doc = await collections.requests.findOne({ _id: key });
  if (!doc) throw new Error(`invariant: request ${key} vanished (requests are never deleted)`);
  return doc;
}

/** Which retryable failure ended an attempt, or null when it must not be retried. */
export function retryReasonOf(error: unknown): RetryReason | null {
  if (!(error instanceof MongoError)) return null;
  if (error.hasErrorLabel('UnknownTransactionCommitResult')) return 'unknownCommitResult';
  if (!error.hasErrorLabel('TransientTransactionError')) return null;
  return error.code === 112 ? 'writeConflict' : 'transient';
}

/** Exponential backoff with full jitter, so that racing moves spread out instead of meeting again. */
export function backoffMs(attemptNo: number): number {
  return jitteredMs(exponentialBackoffMs(attemptNo, moveBackoffBaseMs, moveBackoffMaxMs), 1);
}
