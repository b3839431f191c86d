import { createHash } from 'node:crypto';
import type { ClientSession, Collection, Long } from 'mongodb';
import type { DuplicateReplayed } from '../graphql/results/duplicateReplayedShape.ts';
import { InvariantViolation, invariant } from '../lib/assert.ts';
import {
  accountClosed as closed,
  type AccountState,
  heldIs,
  isOpen,
  readAccount,
  stateProjection,
} from './accountFilters.ts';
import type { StoredAccount } from './holdModel.ts';
import { insertEntries } from './journal.ts';
import { runKeyed, type Transient } from './keyedTransaction.ts';
import { lifecycleResult } from './lifecycleAnswers.ts';
import type { LifecycleOutcome, LifecycleParams, LifecycleRequestDoc } from './lifecycleModel.ts';
import type { LifecycleRules } from './lifecycleRules.ts';
import { moveRetryBudgetMs } from './limits.ts';
import { AccountStatus, type EntryDoc, type EntryKind, entryId, type RequestDoc } from './model.ts';
import { fromLong, toLong } from './money.ts';
import type { LedgerDeps } from './moves.ts';
import { answerTakenKey } from './requestKeys.ts';
import type {
  CloseAccountResult,
  IdempotencyKeyReused,
  LifecycleOutcomeResult,
  NotReversible,
  ReversalExceedsOriginal,
  ReverseMoveResult,
} from './results.ts';

// The ledger's life cycle (DESIGN flow 7, L1-L2): reversing a deposit or a transfer, and closing
// an account. Each is ONE keyed transaction under its own requestId, in the `ledger:` key space of
// every money move, rerun on transient failures and answered from its record on a replay, exactly
// as a hold's request (the keyed-transaction runner). The decisions are in the writes' filters:
//   reverseMove   the accounts' writes (the debit's filter: open and `balance - held >= amount`;
//                 the credit's: open and within 2^53-1), then the ORIGINAL's record:
//                 `reversedAmount + amount <= params.amount` in its filter, `$inc reversedAmount`
//                 (L1: two reversals that both fit a read cannot both write it; the second
//                 conflicts, reruns and matches nothing);
//   closeAccount  the account: open and nothing held in its filter, balance to 0 and status CLOSED
//                 in the same write (L2: a move committed before it is in the balance it moves; one
//                 after it matches nothing, because every money write filters on `isOpen`), then
//                 the credit of that balance to `transferBalanceTo`.

export interface LifecycleDeps {
  ledger: LedgerDeps;
  rules: LifecycleRules;
}

export interface ReverseMoveRequest {
  requestId: string;
  originalRequestId: string;
  /** Null: all that is left to reverse. */
  amount: number | null;
}

export interface CloseAccountRequest {
  requestId: string;
  accountId: string;
  transferBalanceTo: string;
}

interface LifecycleAttempt {
  key: string;
  requestId: string;
  paramsHash: string;
  params: LifecycleParams;
  firstSeenAt: Date;
}

/** What one transaction decided: record it (and commit), refuse it (abort), or answer from the key. */
type LifecycleDecision<R> =
  | { kind: 'record'; request: LifecycleRequestDoc; entries: EntryDoc[]; result: R }
  | { kind: 'refused'; result: R }
  | { kind: 'keyTaken'; existing: KeyHolder };

/** A decided request under the key: a life-cycle request, or another kind's (then the key is reused). */
type KeyHolder = Pick<LifecycleRequestDoc, 'paramsHash' | 'firstSeenAt'> & { params: object; outcome: unknown };

export function hashLifecycleParams(params: LifecycleParams): string {
  const canonical =
    params.op === 'reverseMove'
      ? [params.op, params.originalRequestId, params.amount?.toString() ?? null]
      : [params.op, params.accountId, params.transferBalanceTo];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

function attemptBase(requestId: string, params: LifecycleParams): Omit<LifecycleAttempt, 'key'> {
  return { requestId, paramsHash: hashLifecycleParams(params), params, firstSeenAt: new Date() };
}

// ---------------------------------------------------------------------------------------------
// reverseMove

const notReversibleDetail: Record<string, string> = {
  withdraw:
    "a withdrawal's money left through its payout: when the payout comes back, credit it with a deposit whose reference names this withdrawal's requestId",
  captureHold:
    'a capture is not reversed: send the money back with a transfer (or, for a capture paid out, a deposit when it returns)',
  reverseMove: 'a reversal is not reversed: send the original move again under a new requestId',
  closeAccount: 'a close is final: open a new account',
  authorizeHold: 'an authorization moved no money: void the hold instead',
  voidHold: 'a void moved no money',
};

export async function reverseMove(deps: LifecycleDeps, input: ReverseMoveRequest): Promise<ReverseMoveResult> {
  const params: LifecycleParams = {
    op: 'reverseMove',
    originalRequestId: input.originalRequestId,
    amount: input.amount === null ? null : toLong(input.amount),
  };
  const base = attemptBase(input.requestId, params);
  const { ledger } = deps;
  const originalKey = ledger.rules.keyOf(input.originalRequestId);
  // The original's accounts never change, so reading them first only picks the turns to take; what
  // the reversal may do is decided in its transaction's writes.
  const seen = await ledger.collections.requests.findOne(
    { _id: originalKey },
    { projection: { params: 1, status: 1, reversedAmount: 1 } },
  );
  const accounts = [seen?.params?.fromAccountId, seen?.params?.toAccountId].filter(
    (id): id is string => typeof id === 'string',
  );
  const result = await ledger.turns.run(accounts, () =>
    keyedLifecycle(deps, base, (session, attempt) => decideReversal(deps, session, attempt, originalKey, input, seen)),
  );
  invariant(result.kind !== 'closeAccountSuccess', 'reverseMove answered closeAccountSuccess');
  return result as ReverseMoveResult;
}

async function decideReversal(
  deps: LifecycleDeps,
  session: ClientSession,
  attempt: LifecycleAttempt,
  originalKey: string,
  input: ReverseMoveRequest,
  readBefore: RequestDoc | null,
): Promise<LifecycleDecision<ReverseMoveResult>> {
  const { collections, preconditions } = deps.ledger;
  const original = await collections.requests.findOne({ _id: originalKey }, { session });
  if (!original) return { kind: 'refused', result: { kind: 'moveNotFound', requestId: input.originalRequestId } };
  const op = String(original.params?.op);
  if (op !== 'deposit' && op !== 'transfer')
    return {
      kind: 'refused',
      result: notReversible(
        input.originalRequestId,
        op,
        notReversibleDetail[op] ?? 'only deposits and transfers are reversible',
      ),
    };
  if (original.status !== 'applied') {
    return {
      kind: 'refused',
      result: notReversible(
        input.originalRequestId,
        op,
        'it moved no money (it was refused): there is nothing to reverse',
      ),
    };
  }
  const originalAmount = fromLong(original.params.amount);
  const reversedBefore = fromLong(original.reversedAmount ?? 0);
  const amount = input.amount ?? originalAmount - reversedBefore;
  if (amount <= 0)
    return { kind: 'refused', result: exceeds(input.originalRequestId, originalAmount, reversedBefore, 0) };

  // The money goes back the way it came: out of the account the original credited, into the one it debited.
  const debitAccountId = original.params.toAccountId!;
  const creditAccountId = op === 'transfer' ? original.params.fromAccountId : null;
  const debited = await preconditions.debit(collections.accounts, session, { accountId: debitAccountId, amount });
  if (!debited)
    return refuseReversalDebit(deps, session, attempt, debitAccountId, amount, {
      originalAmount,
      reversedBefore,
      originalRequestId: input.originalRequestId,
    });
  let credited: AccountState | null = null;
  if (creditAccountId !== null) {
    credited = await preconditions.credit(collections.accounts, session, {
      accountId: creditAccountId,
      amount,
      currency: debited.currency,
    });
    if (!credited)
      return refuseReversalCredit(deps, session, attempt, creditAccountId, amount, input.originalRequestId);
  }
  // L1: the original's record, with the reversed total's bound in the write's filter.
  const taken = await deps.rules.takeReversal(collections.requests, session, originalKey, amount, readBefore);
  if (!taken) {
    const decided = await takenKey(deps, session, attempt.key);
    if (decided) return decided;
    const now = await collections.requests.findOne({ _id: originalKey }, { session });
    return {
      kind: 'refused',
      result: exceeds(input.originalRequestId, originalAmount, fromLong(now?.reversedAmount ?? 0), amount),
    };
  }

  const entries = reversalEntries(
    attempt,
    input.originalRequestId,
    amount,
    debited,
    credited,
    op === 'deposit' ? 'depositReversal' : 'transferOut',
  );
  const outcome: LifecycleOutcome = {
    kind: 'reversed',
    originalRequestId: input.originalRequestId,
    originalAmount: toLong(originalAmount),
    reversedAmount: toLong(fromLong(taken.reversedAmount ?? 0)),
    amount: toLong(amount),
    entryIds: entries.map((entry) => entry._id),
  };
  return record(attempt, outcome, entries);
}

/** The debit matched nothing: a replay, a closed account, a reversal past the original, or too little money. */
async function refuseReversalDebit(
  deps: LifecycleDeps,
  session: ClientSession,
  attempt: LifecycleAttempt,
  accountId: string,
  amount: number,
  original: { originalRequestId: string; originalAmount: number; reversedBefore: number },
): Promise<LifecycleDecision<ReverseMoveResult>> {
  const decided = await takenKey(deps, session, attempt.key);
  if (decided) return decided;
  const account = await readAccount(deps.ledger.collections.accounts, session, accountId);
  invariant(account, () => `account ${accountId} of a decided move vanished (accounts are never deleted)`);
  if (account.status === AccountStatus.CLOSED) return { kind: 'refused', result: closed(account) };
  // Refusing either way, so the snapshot's read may pick which refusal: a reversal past its original is not recorded.
  if (original.reversedBefore + amount > original.originalAmount) {
    return {
      kind: 'refused',
      result: exceeds(original.originalRequestId, original.originalAmount, original.reversedBefore, amount),
    };
  }
  // Too little money: final for the key, recorded like a withdrawal's rejection.
  const outcome: LifecycleOutcome = {
    kind: 'rejected',
    accountId,
    balance: toLong(fromLong(account.balance)),
    amount: toLong(amount),
  };
  return record(attempt, outcome, []);
}

/** The credit matched nothing: a replay, a closed account, or a balance past 2^53-1. */
async function refuseReversalCredit(
  deps: LifecycleDeps,
  session: ClientSession,
  attempt: LifecycleAttempt,
  accountId: string,
  amount: number,
  originalRequestId: string,
): Promise<LifecycleDecision<ReverseMoveResult>> {
  const decided = await takenKey(deps, session, attempt.key);
  if (decided) return decided;
  const account = await readAccount(deps.ledger.collections.accounts, session, accountId);
  invariant(account, () => `account ${accountId} of a decided move vanished (accounts are never deleted)`);
  if (account.status === AccountStatus.CLOSED) return { kind: 'refused', result: closed(account) };
  const detail = `returning ${amount} would take the balance of ${accountId} (${fromLong(account.balance)}) past 2^53-1: move money out of it first`;
  return { kind: 'refused', result: notReversible(originalRequestId, 'transfer', detail) };
}

function reversalEntries(
  attempt: LifecycleAttempt,
  originalRequestId: string,
  amount: number,
  debited: AccountState,
  credited: AccountState | null,
  debitKind: EntryKind,
): EntryDoc[] {
  const now = new Date();
  const entry = (
    account: AccountState,
    leg: 'debit' | 'credit',
    kind: EntryKind,
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
    reversalOf: originalRequestId,
  });
  if (credited === null) return [entry(debited, 'debit', debitKind, null)];
  return [entry(debited, 'debit', 'transferOut', credited._id), entry(credited, 'credit', 'transferIn', debited._id)];
}

function notReversible(originalRequestId: string, operation: string, detail: string): NotReversible {
  return { kind: 'notReversible', originalRequestId, operation, detail };
}

function exceeds(
  originalRequestId: string,
  originalAmount: number,
  reversedAmount: number,
  amount: number,
): ReversalExceedsOriginal {
  return { kind: 'reversalExceedsOriginal', originalRequestId, originalAmount, reversedAmount, amount };
}

// ---------------------------------------------------------------------------------------------
// closeAccount

export async function closeAccount(deps: LifecycleDeps, input: CloseAccountRequest): Promise<CloseAccountResult> {
  const params: LifecycleParams = {
    op: 'closeAccount',
    accountId: input.accountId,
    transferBalanceTo: input.transferBalanceTo,
  };
  const base = attemptBase(input.requestId, params);
  const result = await deps.ledger.turns.run([input.accountId, input.transferBalanceTo], () =>
    keyedLifecycle(deps, base, (session, attempt) => decideClose(deps, session, attempt, input)),
  );
  invariant(
    result.kind !== 'reverseMoveSuccess' && result.kind !== 'insufficientFunds',
    () => `closeAccount answered ${result.kind}`,
  );
  return result as CloseAccountResult;
}

/** The account's closing write: open and nothing held in the filter; balance to 0, CLOSED, in one write. */
const closingWrite = (requestId: string) => [
  {
    $set: {
      // One stage: every expression reads the account as it was before the write.
      closedBalance: '$balance',
      balance: { $literal: toLong(0) },
      version: { $add: ['$version', { $literal: toLong(1) }] },
      status: { $literal: AccountStatus.CLOSED },
      closedAt: '$$NOW',
      closedBy: { $literal: requestId },
    },
  },
];

type ClosedAccountDoc = AccountState & { closedBalance: Long; closedAt: Date };

async function decideClose(
  deps: LifecycleDeps,
  session: ClientSession,
  attempt: LifecycleAttempt,
  input: CloseAccountRequest,
): Promise<LifecycleDecision<CloseAccountResult>> {
  const { accounts } = deps.ledger.collections;
  const closing = (await accounts.findOneAndUpdate(
    { _id: input.accountId, ...isOpen, ...heldIs(0) },
    closingWrite(input.requestId),
    {
      session,
      returnDocument: 'after',
      projection: { ...stateProjection, closedBalance: 1 },
    },
  )) as ClosedAccountDoc | null;
  if (closing === null) return refuseClose(deps, session, attempt, input.accountId);
  const moved = fromLong(closing.closedBalance);
  let target: AccountState | null;
  if (moved > 0) {
    target = await deps.ledger.preconditions.credit(accounts, session, {
      accountId: input.transferBalanceTo,
      amount: moved,
      currency: closing.currency,
    });
  } else {
    // Nothing to move: the target only has to be a fit one (no money races on it).
    const seen = await readAccount(accounts, session, input.transferBalanceTo);
    target = seen && seen.status !== AccountStatus.CLOSED && seen.currency === closing.currency ? seen : null;
  }
  if (target === null) return refuseCloseTarget(deps, session, closing, input.transferBalanceTo, moved);

  const entries: EntryDoc[] = [];
  if (moved > 0) {
    const now = new Date();
    const leg = (account: AccountState, side: 'debit' | 'credit', kind: EntryKind, counterparty: string): EntryDoc => ({
      _id: entryId(attempt.key, side),
      requestId: attempt.requestId,
      accountId: account._id,
      currency: account.currency,
      kind,
      amount: toLong(moved),
      balanceAfter: toLong(fromLong(account.balance)),
      versionAfter: toLong(fromLong(account.version)),
      counterpartyAccountId: counterparty,
      createdAt: now,
    });
    entries.push(leg(closing, 'debit', 'transferOut', target._id), leg(target, 'credit', 'transferIn', closing._id));
  }
  const outcome: LifecycleOutcome = {
    kind: 'closed',
    account: storedAccount(closing),
    closedAt: closing.closedAt,
    movedAmount: toLong(moved),
    transferredTo: storedAccount(target),
    entryIds: entries.map((entry) => entry._id),
  };
  return record(attempt, outcome, entries);
}

/** The close matched nothing: a replay, a missing or closed account, or pending holds. */
async function refuseClose(
  deps: LifecycleDeps,
  session: ClientSession,
  attempt: LifecycleAttempt,
  accountId: string,
): Promise<LifecycleDecision<CloseAccountResult>> {
  const decided = await takenKey(deps, session, attempt.key);
  if (decided) return decided;
  const account = await readAccount(deps.ledger.collections.accounts, session, accountId);
  if (!account) return { kind: 'refused', result: { kind: 'accountNotFound', accountId } };
  if (account.status === AccountStatus.CLOSED) return { kind: 'refused', result: closed(account) };
  const held = fromLong(account.held ?? 0);
  if (held > 0) return { kind: 'refused', result: { kind: 'accountHasHolds', accountId, held } };
  throw new InvariantViolation(`invariant: open account ${accountId} without holds matched no close`);
}

/** The target refused the balance: missing, closed, another currency (or past 2^53-1: not in the contract's union). */
async function refuseCloseTarget(
  deps: LifecycleDeps,
  session: ClientSession,
  closing: AccountState,
  targetId: string,
  moved: number,
): Promise<LifecycleDecision<CloseAccountResult>> {
  const target = await readAccount(deps.ledger.collections.accounts, session, targetId);
  if (!target) return { kind: 'refused', result: { kind: 'accountNotFound', accountId: targetId } };
  if (target.status === AccountStatus.CLOSED) return { kind: 'refused', result: closed(target) };
  if (target.currency !== closing.currency) {
    return {
      kind: 'refused',
      result: {
        kind: 'currencyMismatch',
        fromAccountId: closing._id,
        fromCurrency: closing.currency,
        toAccountId: targetId,
        toCurrency: target.currency,
      },
    };
  }
  throw new Error(
    `transferBalanceTo ${targetId} cannot take ${moved} more (its balance would pass 2^53-1): close into another account`,
  );
}

function storedAccount(state: AccountState): StoredAccount {
  return {
    id: state._id,
    currency: state.currency,
    balance: toLong(fromLong(state.balance)),
    version: toLong(fromLong(state.version)),
    held: toLong(fromLong(state.held ?? 0)),
  };
}

// ---------------------------------------------------------------------------------------------
// Keys, records and answers

function record<R>(attempt: LifecycleAttempt, outcome: LifecycleOutcome, entries: EntryDoc[]): LifecycleDecision<R> {
  const request: LifecycleRequestDoc = {
    _id: attempt.key,
    requestId: attempt.requestId,
    paramsHash: attempt.paramsHash,
    params: attempt.params,
    status: outcome.kind === 'rejected' ? 'rejected' : 'applied',
    outcome,
    firstSeenAt: attempt.firstSeenAt,
    decidedAt: new Date(),
  };
  // The runner inserts the request (its duplicate key ends a replay) and the entries; the answer
  // is rebuilt from the same documents a replay reads.
  return { kind: 'record', request, entries, result: lifecycleResult(outcome, entries) as R };
}

async function takenKey(
  deps: LifecycleDeps,
  session: ClientSession,
  key: string,
): Promise<{ kind: 'keyTaken'; existing: KeyHolder } | null> {
  const existing = await requestsOf(deps).findOne({ _id: key }, { session });
  return existing ? { kind: 'keyTaken', existing } : null;
}

/** ledger_requests, typed for the life-cycle requests it also holds. */
function requestsOf(deps: LifecycleDeps): Collection<LifecycleRequestDoc> {
  return deps.ledger.collections.requests as unknown as Collection<LifecycleRequestDoc>;
}

type LifecycleKeyAnswer = LifecycleOutcomeResult | IdempotencyKeyReused | DuplicateReplayed<LifecycleOutcomeResult>;

/**
 * One keyed life-cycle request on the keyed-transaction runner (keyedTransaction.ts): `decide` in
 * a transaction per attempt, its record and entries written after it, rerun under the same key on
 * a transient failure within the move budget, answered from its record once its key is decided.
 */
async function keyedLifecycle<R extends { kind: string }>(
  deps: LifecycleDeps,
  base: Omit<LifecycleAttempt, 'key'>,
  decide: (session: ClientSession, attempt: LifecycleAttempt) => Promise<LifecycleDecision<R>>,
): Promise<R | LifecycleKeyAnswer | Transient> {
  const [answer] = await runKeyed<LifecycleAttempt, KeyHolder, R | LifecycleKeyAnswer>(deps.ledger, {
    kind: 'lone',
    deadlineMs: Date.now() + moveRetryBudgetMs,
    requests: () => [{ key: deps.ledger.rules.keyOf(base.requestId), ...base }],
    decide: async (session, [attempt]) => {
      const decision = await decide(session, attempt!);
      if (decision.kind === 'refused')
        return { recorded: 0, ends: [{ kind: 'answer', answer: () => decision.result }] };
      if (decision.kind === 'keyTaken') return { recorded: 0, ends: [{ kind: 'taken', stored: decision.existing }] };
      // A key decided since the snapshot fails this insert with a duplicate key: the runner's.
      await requestsOf(deps).insertOne(decision.request, { session });
      await insertEntries(deps.ledger.collections.entries, session, decision.entries);
      return { recorded: 1, ends: [{ kind: 'answer', answer: () => decision.result }] };
    },
    lookup: async (session, keys) => {
      const docs = await requestsOf(deps)
        .find({ _id: { $in: [...keys] } }, { session })
        .toArray();
      return new Map(docs.map((doc) => [doc._id, doc]));
    },
    answerTaken: (taken) =>
      Promise.all(
        taken.map(({ request, stored, own }) =>
          answerTakenKey(
            { requestId: request.requestId, params: request.params, own },
            stored,
            stored.paramsHash === request.paramsHash,
            async () => {
              const outcome = stored.outcome as LifecycleOutcome;
              const entries =
                outcome.kind === 'rejected'
                  ? []
                  : await deps.ledger.collections.entries.find({ _id: { $in: outcome.entryIds } }).toArray();
              return lifecycleResult(outcome, entries);
            },
          ),
        ),
      ),
  });
  return answer!;
}
