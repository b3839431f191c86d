import { createHash } from 'node:crypto';
import type { ClientSession, Collection, Document, Filter } from 'mongodb';
import type { DuplicateReplayed } from '../graphql/results/duplicateReplayedShape.ts';
import { invariant, present } from '../lib/assert.ts';
import { TurnNotTaken } from './accountTurns.ts';
import {
  accountClosed,
  type AccountState,
  availableCovers,
  isOpen,
  readAccount,
  stateProjection,
} from './accountFilters.ts';
import { insertEntries } from './journal.ts';
import {
  type HoldCollections,
  type HoldDoc,
  holdIdOf,
  type HoldOutcome,
  type HoldParams,
  type HoldRequestDoc,
  HoldStatus,
} from './holdModel.ts';
import { expired, type HoldRules } from './holdRules.ts';
import { outcomeResult, storedAccount, storedHold } from './holdSnapshots.ts';
import { runKeyed, type Transient } from './keyedTransaction.ts';
import { moveRetryBudgetMs } from './limits.ts';
import { type AccountDoc, AccountStatus, type EntryDoc, entryId, type MoveParams } from './model.ts';
import { fromLong, toLong } from './money.ts';
import { canonicalMetadata, type LedgerDeps } from './moves.ts';
import { answerTakenKey } from './requestKeys.ts';
import type {
  AuthorizeHoldResult,
  CaptureHoldResult,
  HoldNotPending,
  InputMistake,
  HoldOutcomeResult,
  IdempotencyKeyReused,
  VoidHoldResult,
} from './results.ts';

// Holds: authorize, capture, void (DESIGN "Holds", H1-H3). Each is ONE multi-document transaction
// under its own request key on the keyed-transaction runner, like a money move (keyedTransaction.ts), in this order:
//   1. the conditional write that decides it: an authorization's `$inc` of `held`, filtered on
//      `balance - held >= amount`; a capture's or void's write of the hold, filtered on
//      `status: 'PENDING'` and `expiresAt > $$NOW` (the database's clock, never this process's);
//   2. the account(s): a capture takes the captured amount from balance and the whole hold from
//      `held` (the rest is released in the same write); a void releases the hold;
//   3. the request under its unique key, already decided, with its parameters' hash and outcome;
//   4. a capture's journal entries (a withdrawal, which gets its payout like any other, or the two
//      legs of a transfer);
//   5. commit, w: majority.
// The filter is the whole precondition: of N concurrent captures, voids and the expiry of one
// hold, exactly one write matches (the others meet a write conflict, rerun, and then match
// nothing: HoldNotPending with the status the winner left).

export interface HoldDeps {
  ledger: LedgerDeps;
  holds: HoldCollections;
  rules: HoldRules;
}

export interface AuthorizeHoldRequest {
  requestId: string;
  accountId: string;
  amount: number;
  expiresInSeconds: number;
  reference?: string | undefined;
  metadata?: string | undefined;
}
export interface CaptureHoldRequest {
  requestId: string;
  holdId: string;
  /** Null: the whole hold. */
  amount: number | null;
  /** Null: out as a withdrawal. */
  toAccountId: string | null;
  reference?: string | undefined;
  metadata?: string | undefined;
}
export interface VoidHoldRequest {
  requestId: string;
  holdId: string;
}

interface HoldAttempt {
  key: string;
  requestId: string;
  paramsHash: string;
  params: HoldParams;
  firstSeenAt: Date;
}

/** What one transaction decided: record it (and commit), refuse it (abort), or answer from the key. */
type Decision<R> =
  | { kind: 'record'; request: HoldRequestDoc; entries: EntryDoc[]; result: R }
  | { kind: 'refused'; result: R }
  | { kind: 'keyTaken'; existing: KeyHolder };

/** A decided request under the key: a hold request, or a money move's (then the key is reused). */
type KeyHolder = Pick<HoldRequestDoc, 'paramsHash' | 'firstSeenAt' | 'outcome'> & { params: HoldParams | MoveParams };

type KeyAnswer = DuplicateReplayed<HoldOutcomeResult> | IdempotencyKeyReused | HoldOutcomeResult;

export function hashHoldParams(params: HoldParams): string {
  const canonical: unknown[] = [
    params.op,
    params.accountId,
    params.holdId,
    params.amount?.toString() ?? null,
    params.toAccountId,
    params.expiresInSeconds,
  ];
  // Appended only when sent, so the hash of a request without them is what it always was.
  if (params.reference !== undefined || params.metadata !== undefined)
    canonical.push(params.reference ?? null, canonicalMetadata(params.metadata));
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** The caller's reference and metadata, stored only when sent (G6's cost of a request without them). */
function annotationsOf(input: {
  reference?: string | undefined;
  metadata?: string | undefined;
}): Pick<HoldParams, 'reference' | 'metadata'> {
  return {
    ...(input.reference === undefined ? {} : { reference: input.reference }),
    ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
  };
}

/** A hold request's attempt without its key (the key is asked of the rules on every attempt). */
function attemptBase(requestId: string, params: HoldParams, firstSeenAt: Date): Omit<HoldAttempt, 'key'> {
  return { requestId, paramsHash: hashHoldParams(params), params, firstSeenAt };
}

// ---------------------------------------------------------------------------------------------
// authorizeHold

export async function authorizeHold(deps: HoldDeps, input: AuthorizeHoldRequest): Promise<AuthorizeHoldResult> {
  const params: HoldParams = {
    op: 'authorizeHold',
    accountId: input.accountId,
    holdId: null,
    amount: toLong(input.amount),
    toAccountId: null,
    expiresInSeconds: input.expiresInSeconds,
    ...annotationsOf(input),
  };
  const base = attemptBase(input.requestId, params, new Date());
  const result = await inTurn(deps, [input.accountId], base, () =>
    keyedHold(deps, base, (session, attempt) => decideAuthorization(deps, session, attempt, input)),
  );
  return answerOf<AuthorizeHoldResult>('authorizeHold', result, ['captureHoldSuccess', 'voidHoldSuccess']);
}

async function decideAuthorization(
  deps: HoldDeps,
  session: ClientSession,
  attempt: HoldAttempt,
  input: AuthorizeHoldRequest,
): Promise<Decision<AuthorizeHoldResult>> {
  const { accounts } = deps.ledger.collections;
  const account = await accounts.findOneAndUpdate(
    { _id: input.accountId, ...isOpen, ...availableCovers(input.amount) },
    { $inc: { held: toLong(input.amount) } },
    { session, returnDocument: 'after', projection: stateProjection },
  );
  if (account === null) {
    const taken = await takenKey(deps, session, attempt.key);
    if (taken) return taken;
    const seen = await readAccount(accounts, session, input.accountId);
    if (!seen) return { kind: 'refused', result: { kind: 'accountNotFound', accountId: input.accountId } };
    if (seen.status === AccountStatus.CLOSED) return { kind: 'refused', result: accountClosed(seen) };
    // Too little available: final for the key, recorded like a withdrawal's rejection.
    const outcome: HoldOutcome = {
      kind: 'rejected',
      accountId: seen._id,
      balance: toLong(fromLong(seen.balance)),
      amount: toLong(input.amount),
    };
    return {
      kind: 'record',
      request: decided(attempt, outcome),
      entries: [],
      result: outcomeResult(outcome, []) as AuthorizeHoldResult,
    };
  }
  const holdId = holdIdOf(attempt.key);
  const hold = await deps.holds.holds.findOneAndUpdate(
    { _id: holdId },
    [
      {
        $set: {
          accountId: { $literal: input.accountId },
          currency: { $literal: account.currency },
          amount: { $literal: toLong(input.amount) },
          capturedAmount: { $literal: toLong(0) },
          status: HoldStatus.PENDING,
          expiresAt: deps.rules.expiresAt(input.expiresInSeconds),
          createdAt: '$$NOW',
          authorizedBy: { $literal: input.requestId },
          resolvedBy: null,
          resolvedAt: null,
          capturedTo: null,
          change: null,
        },
      },
    ],
    { session, upsert: true, returnDocument: 'after' },
  );
  invariant(hold !== null, () => `the upsert of hold ${holdId} returned nothing`);
  const outcome: HoldOutcome = { kind: 'authorized', hold: storedHold(hold), account: storedAccount(account) };
  return {
    kind: 'record',
    request: decided(attempt, outcome),
    entries: [],
    result: outcomeResult(outcome, []) as AuthorizeHoldResult,
  };
}

// ---------------------------------------------------------------------------------------------
// captureHold

export async function captureHold(
  deps: HoldDeps,
  input: CaptureHoldRequest,
): Promise<CaptureHoldResult | InputMistake> {
  const params: HoldParams = {
    op: 'captureHold',
    accountId: null,
    holdId: input.holdId,
    amount: input.amount === null ? null : toLong(input.amount),
    toAccountId: input.toAccountId,
    expiresInSeconds: null,
    ...annotationsOf(input),
  };
  const base = attemptBase(input.requestId, params, new Date());
  // The hold's account never changes, so reading it first only picks the turns to take; what the
  // capture may do is decided in its transaction's filters.
  const accountId = await holdAccountOf(deps, input.holdId);
  if (accountId !== null && accountId === input.toAccountId) {
    // Money out of an account and back into it moves nothing: the client's mistake (issue 41).
    return {
      kind: 'inputMistake',
      field: 'toAccountId',
      message: `toAccountId must differ from the hold's own account ${accountId}: leave it out to capture as a withdrawal`,
    };
  }
  const accounts = [accountId, input.toAccountId].filter((id): id is string => id !== null);
  const result = await inTurn(deps, accounts, base, () =>
    keyedHold(deps, base, (session, attempt) => decideCapture(deps, session, attempt, input)),
  );
  return answerOf<CaptureHoldResult>('captureHold', result, [
    'authorizeHoldSuccess',
    'voidHoldSuccess',
    'insufficientFunds',
  ]);
}

async function decideCapture(
  deps: HoldDeps,
  session: ClientSession,
  attempt: HoldAttempt,
  input: CaptureHoldRequest,
): Promise<Decision<CaptureHoldResult>> {
  const { accounts } = deps.ledger.collections;
  const extra: Filter<HoldDoc> = input.amount === null ? {} : { amount: { $gte: toLong(input.amount) } };
  const hold = await deps.rules.resolve(deps.holds.holds, session, input.holdId, extra, [
    {
      $set: {
        status: HoldStatus.CAPTURED,
        capturedAmount: input.amount === null ? '$amount' : { $literal: toLong(input.amount) },
        resolvedBy: { $literal: input.requestId },
        resolvedAt: '$$NOW',
        capturedTo: { $literal: input.toAccountId },
      },
    },
    { $set: { change: changeOf(HoldStatus.CAPTURED) } },
  ]);
  if (hold === null) return refuseResolution(deps, session, attempt, input.holdId, input.amount);
  const holdAmount = fromLong(hold.amount);
  const captured = fromLong(hold.capturedAmount);
  // The whole hold leaves `held` (what was not captured is released), the captured part leaves the
  // balance. `held >= amount` always holds while the hold is pending (H1); the filter asserts it.
  const debited = await accounts.findOneAndUpdate(
    { _id: hold.accountId, held: { $gte: toLong(holdAmount) }, balance: { $gte: toLong(captured) } },
    { $inc: { held: toLong(-holdAmount), balance: toLong(-captured), version: toLong(1) } },
    { session, returnDocument: 'after', projection: { currency: 1, balance: 1, version: 1, held: 1 } },
  );
  invariant(debited !== null, () => `account ${hold.accountId} holds less than its pending hold ${hold._id}`);
  let credited: AccountState | null = null;
  if (input.toAccountId !== null) {
    credited = await deps.ledger.preconditions.credit(accounts, session, {
      accountId: input.toAccountId,
      amount: captured,
      currency: hold.currency,
    });
    if (credited === null)
      return { kind: 'refused', result: await refuseCredit(accounts, session, hold, input.toAccountId, captured) };
  }
  const entries = captureEntries(attempt, debited, credited, captured);
  const outcome: HoldOutcome = {
    kind: 'captured',
    hold: storedHold(hold),
    account: storedAccount(debited),
    toAccount: credited === null ? null : storedAccount(credited),
    entryIds: entries.map((entry) => entry._id),
  };
  return {
    kind: 'record',
    request: decided(attempt, outcome),
    entries,
    result: outcomeResult(outcome, entries) as CaptureHoldResult,
  };
}

/** Why a capture's credit matched nothing: a missing account, another currency, or a balance past 2^53-1. */
async function refuseCredit(
  accounts: Collection<AccountDoc>,
  session: ClientSession,
  hold: HoldDoc,
  toAccountId: string,
  amount: number,
): Promise<CaptureHoldResult> {
  const to = await readAccount(accounts, session, toAccountId);
  if (!to) return { kind: 'accountNotFound', accountId: toAccountId };
  if (to.status === AccountStatus.CLOSED) return accountClosed(to);
  if (to.currency !== hold.currency) {
    return {
      kind: 'currencyMismatch',
      fromAccountId: hold.accountId,
      fromCurrency: hold.currency,
      toAccountId,
      toCurrency: to.currency,
    };
  }
  return { kind: 'balanceLimitExceeded', accountId: toAccountId, balance: fromLong(to.balance), amount };
}

/** The capture's journal: a withdrawal (its payout follows, P1), or a transfer's two legs. */
function captureEntries(
  attempt: HoldAttempt,
  debited: AccountState,
  credited: AccountState | null,
  amount: number,
): EntryDoc[] {
  const now = new Date();
  const entry = (
    account: AccountState,
    leg: 'debit' | 'credit',
    kind: EntryDoc['kind'],
    counterparty: string | null,
  ): EntryDoc => ({
    _id: entryId(attempt.key, leg),
    requestId: attempt.requestId,
    accountId: account._id,
    currency: account.currency,
    kind,
    amount: toLong(amount),
    balanceAfter: toLong(fromLong(account.balance)),
    versionAfter: toLong(fromLong(account.version)),
    counterpartyAccountId: counterparty,
    createdAt: now,
    ...(attempt.params.reference === undefined ? {} : { reference: attempt.params.reference }),
  });
  if (credited === null) return [entry(debited, 'debit', 'withdrawal', null)];
  return [entry(debited, 'debit', 'transferOut', credited._id), entry(credited, 'credit', 'transferIn', debited._id)];
}

// ---------------------------------------------------------------------------------------------
// voidHold

export async function voidHold(deps: HoldDeps, input: VoidHoldRequest): Promise<VoidHoldResult> {
  const params: HoldParams = {
    op: 'voidHold',
    accountId: null,
    holdId: input.holdId,
    amount: null,
    toAccountId: null,
    expiresInSeconds: null,
  };
  const base = attemptBase(input.requestId, params, new Date());
  const accountId = await holdAccountOf(deps, input.holdId);
  const result = await inTurn(deps, accountId === null ? [] : [accountId], base, () =>
    keyedHold(deps, base, (session, attempt) => decideVoid(deps, session, attempt, input)),
  );
  return answerOf<VoidHoldResult>('voidHold', result, [
    'authorizeHoldSuccess',
    'captureHoldSuccess',
    'insufficientFunds',
  ]);
}

async function decideVoid(
  deps: HoldDeps,
  session: ClientSession,
  attempt: HoldAttempt,
  input: VoidHoldRequest,
): Promise<Decision<VoidHoldResult>> {
  const hold = await deps.rules.resolve(deps.holds.holds, session, input.holdId, {}, [
    { $set: { status: HoldStatus.VOIDED, resolvedBy: { $literal: input.requestId }, resolvedAt: '$$NOW' } },
    { $set: { change: changeOf(HoldStatus.VOIDED) } },
  ]);
  if (hold === null)
    return (await refuseResolution(deps, session, attempt, input.holdId, null)) as Decision<VoidHoldResult>;
  const released = await releaseHeld(deps.ledger.collections.accounts, session, hold);
  const outcome: HoldOutcome = { kind: 'voided', hold: storedHold(hold), account: storedAccount(released) };
  return {
    kind: 'record',
    request: decided(attempt, outcome),
    entries: [],
    result: outcomeResult(outcome, []) as VoidHoldResult,
  };
}

/** The `change` a resolution writes (pipeline stage value, after the stage that set the status). */
export function changeOf(status: HoldDoc['status']): Document {
  return { accountId: '$accountId', status, amount: '$amount', capturedAmount: '$capturedAmount', at: '$$NOW' };
}

/** Releases a resolved hold's whole amount from its account's `held`; the account after it. */
export async function releaseHeld(
  accounts: Collection<AccountDoc>,
  session: ClientSession,
  hold: HoldDoc,
): Promise<AccountState> {
  const amount = fromLong(hold.amount);
  const released = await accounts.findOneAndUpdate(
    { _id: hold.accountId, held: { $gte: toLong(amount) } },
    { $inc: { held: toLong(-amount) } },
    { session, returnDocument: 'after', projection: { currency: 1, balance: 1, version: 1, held: 1 } },
  );
  return present(released, () => `account ${hold.accountId} holds less than its pending hold ${hold._id}`);
}

// ---------------------------------------------------------------------------------------------
// Shared: why a resolution matched nothing, the key, the transaction loop

/**
 * The hold's write matched nothing: a replay, a missing hold, a hold resolved or expired, or a
 * capture larger than the hold. Read in the transaction's snapshot, after the write missed.
 */
async function refuseResolution(
  deps: HoldDeps,
  session: ClientSession,
  attempt: HoldAttempt,
  holdId: string,
  amount: number | null,
): Promise<Decision<CaptureHoldResult>> {
  const taken = await takenKey(deps, session, attempt.key);
  if (taken) return taken;
  const hold = await deps.holds.holds.findOne({ _id: holdId }, { session });
  if (!hold) return { kind: 'refused', result: { kind: 'holdNotFound', holdId } };
  if (hold.status !== HoldStatus.PENDING) return { kind: 'refused', result: notPending(holdId, hold.status) };
  const past = await deps.holds.holds.countDocuments({ _id: holdId, ...expired }, { session });
  if (past > 0) return { kind: 'refused', result: notPending(holdId, HoldStatus.EXPIRED) };
  if (amount !== null && fromLong(hold.amount) < amount) {
    return {
      kind: 'refused',
      result: { kind: 'captureExceedsHold', holdId, holdAmount: fromLong(hold.amount), amount },
    };
  }
  // Pending, unexpired and large enough, yet the write missed: only a broken filter gets here.
  invariant(false, () => `pending hold ${holdId} matched no resolution`);
}

/**
 * The answer as the operation's union. A key's own decision (an attempt whose commit reply was
 * lost) has the same parameters' hash, so the same operation: another member is a bug.
 */
function answerOf<R extends { kind: string }>(op: string, result: { kind: string }, foreign: readonly string[]): R {
  invariant(!foreign.includes(result.kind), () => `${op} answered ${result.kind}`);
  return result as R;
}

function notPending(holdId: string, status: HoldDoc['status']): HoldNotPending {
  invariant(status !== HoldStatus.PENDING, 'a pending hold is not HoldNotPending');
  return { kind: 'holdNotPending', holdId, status };
}

async function holdAccountOf(deps: HoldDeps, holdId: string): Promise<string | null> {
  const hold = await deps.holds.holds.findOne({ _id: holdId }, { projection: { accountId: 1 } });
  return hold?.accountId ?? null;
}

async function takenKey(
  deps: HoldDeps,
  session: ClientSession,
  key: string,
): Promise<{ kind: 'keyTaken'; existing: KeyHolder } | null> {
  const existing = await deps.holds.requests.findOne({ _id: key }, { session });
  return existing ? { kind: 'keyTaken', existing } : null;
}

function decided(attempt: HoldAttempt, outcome: HoldOutcome): HoldRequestDoc {
  return {
    _id: attempt.key,
    requestId: attempt.requestId,
    paramsHash: attempt.paramsHash,
    params: attempt.params,
    status: outcome.kind === 'rejected' ? 'rejected' : 'applied',
    outcome,
    firstSeenAt: attempt.firstSeenAt,
    decidedAt: new Date(),
  };
}

/**
 * Runs a hold request under its accounts' turns. Its budget starts when the call does: past it,
 * still waiting for the turns, it answers RequestInProgress (nothing ran; the same key decides it
 * later) and stops waiting.
 */
async function inTurn<R>(
  deps: HoldDeps,
  accountIds: readonly string[],
  base: Pick<HoldAttempt, 'requestId' | 'firstSeenAt'>,
  run: () => Promise<R>,
): Promise<R | Transient> {
  try {
    return await deps.ledger.turns.run(accountIds, run, { deadlineMs: base.firstSeenAt.getTime() + moveRetryBudgetMs });
  } catch (error) {
    if (!(error instanceof TurnNotTaken)) throw error;
    return { kind: 'requestInProgress', requestId: base.requestId, firstSeenAt: base.firstSeenAt };
  }
}

/**
 * One keyed hold request on the keyed-transaction runner (keyedTransaction.ts): `decide` in a
 * transaction per attempt, its record written after it, rerun under the same key on a transient
 * failure within the move budget (moveAttemptsMax, moveRetryBudgetMs), as a lone money move.
 */
async function keyedHold<R extends { kind: string }>(
  deps: HoldDeps,
  base: Omit<HoldAttempt, 'key'>,
  decide: (session: ClientSession, attempt: HoldAttempt) => Promise<Decision<R>>,
): Promise<R | KeyAnswer | Transient> {
  const [answer] = await runKeyed<HoldAttempt, KeyHolder, R | KeyAnswer>(deps.ledger, {
    kind: 'lone',
    deadlineMs: Date.now() + moveRetryBudgetMs,
    requests: () => [{ key: deps.ledger.rules.keyOf(base.requestId), ...base }],
    decide: async (session, [attempt]) => {
      const decision = await decide(session, attempt!);
      if (decision.kind === 'refused')
        return { recorded: 0, ends: [{ kind: 'answer', answer: () => decision.result }] };
      if (decision.kind === 'keyTaken') return { recorded: 0, ends: [{ kind: 'taken', stored: decision.existing }] };
      // A key decided since the snapshot fails this insert with a duplicate key: the runner's.
      await deps.holds.requests.insertOne(decision.request, { session });
      await insertEntries(deps.ledger.collections.entries, session, decision.entries);
      return { recorded: 1, ends: [{ kind: 'answer', answer: () => decision.result }] };
    },
    lookup: async (session, keys) => {
      const docs = await deps.holds.requests.find({ _id: { $in: [...keys] } }, { session }).toArray();
      return new Map(docs.map((doc) => [doc._id, doc]));
    },
    answerTaken: (taken) =>
      Promise.all(taken.map(({ request, stored, own }) => answerTakenHold(deps, request, stored, own))),
  });
  return answer!;
}

/** A decided key: other parameters are IdempotencyKeyReused; the same ones replay the decision. */
function answerTakenHold(deps: HoldDeps, attempt: HoldAttempt, existing: KeyHolder, own: boolean): Promise<KeyAnswer> {
  return answerTakenKey(
    { requestId: attempt.requestId, params: attempt.params, own },
    existing,
    existing.paramsHash === attempt.paramsHash,
    async () => {
      const outcome = existing.outcome;
      const entries =
        outcome.kind === 'captured'
          ? await deps.ledger.collections.entries.find({ _id: { $in: outcome.entryIds } }).toArray()
          : [];
      return outcomeResult(outcome, entries);
    },
  );
}
