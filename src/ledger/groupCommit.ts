import type { AnyBulkWriteOperation, ClientSession } from 'mongodb';
import { TurnNotTaken } from './accountTurns.ts';
import { decideGroup, type GroupSnapshot, type MoveDecision } from './groupDecision.ts';
import { insertEntries, type MoveAttempt, outcomeOf } from './journal.ts';
import { type Decided, type RequestEnd, runKeyed, StateChangedSinceRead } from './keyedTransaction.ts';
import { annotationBytes, moveBytesMax, moveRetryBudgetMs } from './limits.ts';
import { moveAlone } from './loneMove.ts';
import type { AccountDoc, RequestDoc } from './model.ts';
import { toLong } from './money.ts';
import {
  answerTakenMoves,
  attemptBase,
  type LedgerDeps,
  lookupRequests,
  type MoveAnswer,
  type MoveRequest,
  type WaitingMove,
} from './moves.ts';
import { answerTakenKey } from './requestKeys.ts';
import type { LinkedMoveFailed } from './results.ts';
import type { TransactionKind } from './telemetry.ts';
import { invariant } from '../lib/assert.ts';

// Group commit across accounts. Moves of this process that queue while a group is in flight
// (moveDispatch.ts: one queue, arrival order, whatever their accounts) commit together in ONE
// transaction when a slot comes:
//   1. the accounts, read once in the snapshot (one `find`), and which of the keys are decided
//      already (one `find` on the requests);
//   2. every move decided in order against the running balance (groupDecision.ts, pure);
//   3. one conditional write per account, in one `update` command: the filter holds the balance
//      and version the snapshot read, so the write applies only to the very state every decision
//      was made on (a move of another process in between is a write conflict, and the group
//      reruns on the new state);
//   4. the decided requests and the journal entries, each in one `insert`;
//   5. one commit, w: majority.
// Six commands for the whole group, where a lone move takes four. Each move keeps its own key and
// its own answer; a transient failure reruns the whole group under the same keys. A lone move
// (nothing else queued) goes through loneMove.ts, at once. Both run on the keyed-transaction
// runner (keyedTransaction.ts): attempts, lost replies and the answer past the budget are its.

/** A move answer of a batch: what the move alone would answer, or LinkedMoveFailed (atomic batches). */
export type BatchAnswer = MoveAnswer | LinkedMoveFailed;

/** Deposit, withdraw and transfer of one caller: queued with the process's other moves, committed with whatever waits with it. */
export function moveMoney(deps: LedgerDeps, move: MoveRequest): Promise<MoveAnswer> {
  // The retry budget starts now: time spent waiting in the queue counts, so a queue behind an
  // account another process holds drains quickly instead of retrying in turn.
  const deadlineMs = Date.now() + moveRetryBudgetMs;
  return new Promise<MoveAnswer>((resolve, reject) => {
    deps.dispatch.push({
      item: { move, deadlineMs, resolve, reject },
      accountIds: accountIdsOf([move]),
      bytes: bytesOf(move),
    });
    deps.dispatch.startSoon(() => dispatch(deps));
  });
}

/**
 * The moves of one `submitMoves`: one transaction for all of them, under the turns of all their
 * accounts. `atomic`: all of them or none. Its size is bounded by the caller (`submitMovesMax`).
 */
export async function submitMoves(
  deps: LedgerDeps,
  moves: readonly MoveRequest[],
  atomic: boolean,
): Promise<BatchAnswer[]> {
  const deadlineMs = Date.now() + moveRetryBudgetMs;
  try {
    return await deps.turns.run(
      accountIdsOf(moves),
      () => groupInTransactions(deps, moves, { kind: 'batch', atomic }, deadlineMs),
      { deadlineMs },
    );
  } catch (error) {
    if (!(error instanceof TurnNotTaken)) throw error;
    // The turns did not come within the budget: nothing ran, every move may be sent again as it is.
    const firstSeenAt = new Date(deadlineMs - moveRetryBudgetMs);
    return moves.map((move) => ({ kind: 'requestInProgress', requestId: move.requestId, firstSeenAt }));
  }
}

/**
 * Starts every group the queue allows (moveDispatch.ts: arrival order, disjoint accounts, up to
 * its in-flight bound); each, once answered, frees its accounts and starts what waited on them.
 * A group takes its accounts' turns too, so holds and batches of this process on the same
 * accounts (which take turns, not the queue) never meet it in a write conflict. A group still
 * waiting for its turns when the budget of its oldest move runs out answers each of its moves
 * RequestInProgress (nothing of it ran) and frees its place (issue 41's watchdog: a turn that never
 * came held the group, its accounts and its in-flight slot for good).
 */
function dispatch(deps: LedgerDeps): void {
  for (let group = deps.dispatch.take(); group !== null; group = deps.dispatch.take()) {
    const taken = group;
    const deadlineMs = Math.min(...taken.items.map((waiting) => waiting.deadlineMs));
    void deps.turns
      .run(taken.accountIds, () => commitGroup(deps, taken.items), { deadlineMs })
      .catch((error: unknown) => {
        for (const waiting of taken.items) {
          if (!(error instanceof TurnNotTaken)) waiting.reject(error);
          else
            waiting.resolve({
              kind: 'requestInProgress',
              requestId: waiting.move.requestId,
              firstSeenAt: new Date(waiting.deadlineMs - moveRetryBudgetMs),
            });
        }
      })
      .finally(() => {
        deps.dispatch.done(taken);
        dispatch(deps);
      });
  }
}

/** Answers every waiting caller of the group; never throws (a failure is each caller's error). */
async function commitGroup(deps: LedgerDeps, group: readonly WaitingMove[]): Promise<void> {
  try {
    if (group.length === 1) {
      const [alone] = group;
      alone!.resolve(await moveAlone(deps, alone!.move, alone!.deadlineMs));
      return;
    }
    const deadlineMs = Math.min(...group.map((waiting) => waiting.deadlineMs));
    const answers = await groupInTransactions(
      deps,
      group.map((waiting) => waiting.move),
      { kind: 'group', atomic: false },
      deadlineMs,
    );
    group.forEach((waiting, i) => {
      const answer = answers[i]!;
      invariant(answer.kind !== 'linkedMoveFailed', 'a group of lone moves is never linked');
      waiting.resolve(answer);
    });
  } catch (error) {
    for (const waiting of group) waiting.reject(error);
  }
}

/** What a group transaction carries: the moves queued on an account (never linked), or a submitMoves. */
interface GroupKind {
  kind: Extract<TransactionKind, 'group' | 'batch'>;
  atomic: boolean;
}

/** The group's transaction on the keyed-transaction runner, rerun under the same keys; the answers in order. */
async function groupInTransactions(
  deps: LedgerDeps,
  moves: readonly MoveRequest[],
  batch: GroupKind,
  deadlineMs: number,
): Promise<BatchAnswer[]> {
  const firstSeenAt = new Date();
  const bases = moves.map((move) => attemptBase(move, firstSeenAt));
  return runKeyed<MoveAttempt, RequestDoc, BatchAnswer>(deps, {
    kind: batch.kind,
    deadlineMs,
    requests: () => bases.map((base) => ({ key: deps.rules.keyOf(base.requestId), ...base })),
    decide: (session, attempts) => decideAndWriteGroup(deps, session, attempts, batch),
    lookup: (session, keys) => lookupRequests(deps, session, keys),
    answerTaken: (taken) => answerTakenMoves(deps, taken),
  });
}

/** One attempt, inside its transaction: read, decide, write under the read state. */
async function decideAndWriteGroup(
  deps: LedgerDeps,
  session: ClientSession,
  attempts: readonly MoveAttempt[],
  batch: GroupKind,
): Promise<Decided<RequestDoc, BatchAnswer>> {
  const { accounts, requests, entries } = deps.collections;
  const snapshot = await readGroup(deps, session, attempts);
  const decision = decideGroup({
    snapshot,
    attempts,
    atomic: batch.atomic,
    now: new Date(),
    policy: deps.groupPolicy,
    sameMove: deps.rules.sameMove,
  });
  const recorded = decision.moves.flatMap((move) =>
    move.kind === 'applied' || move.kind === 'rejected' ? [move.request] : [],
  );
  const journal = decision.moves.flatMap((move) => (move.kind === 'applied' ? move.entries : []));
  if (recorded.length > 0) {
    if (decision.accountWrites.length > 0) {
      const writes: AnyBulkWriteOperation<AccountDoc>[] = decision.accountWrites.map(
        ({ read, balanceDelta, versionDelta }) => ({
          updateOne: {
            // The precondition of every decision of the group: the account exactly as it was read.
            filter: deps.preconditions.groupFilter(read),
            update: { $inc: { balance: toLong(balanceDelta), version: toLong(versionDelta) } },
          },
        }),
      );
      const written = await accounts.bulkWrite(writes, { session, ordered: true });
      if (written.matchedCount !== writes.length)
        throw new StateChangedSinceRead(`group: ${writes.length - written.matchedCount} accounts changed since read`);
    }
    // A key decided by another process after the snapshot read fails this insert with a duplicate key: the runner's.
    await requests.insertMany(recorded, { session });
    await insertEntries(entries, session, journal);
  }
  return { recorded: recorded.length, ends: decision.moves.map((move, i) => endOf(deps, attempts[i]!, move)) };
}

/** How one move of the group ended; `keyTaken` before the group is answered by the runner. */
function endOf(deps: LedgerDeps, attempt: MoveAttempt, move: MoveDecision): RequestEnd<RequestDoc, BatchAnswer> {
  switch (move.kind) {
    case 'applied':
      return { kind: 'answer', answer: () => outcomeOf(deps.collections, move.request, move.entries) };
    case 'rejected':
      return { kind: 'answer', answer: () => outcomeOf(deps.collections, move.request, []) };
    case 'refused':
      return { kind: 'answer', answer: () => move.result };
    case 'linkedMoveFailed':
      return { kind: 'answer', answer: () => ({ kind: 'linkedMoveFailed', requestId: attempt.requestId }) };
    case 'keyTaken': {
      const { existing, earlier } = move;
      if (earlier === null) return { kind: 'taken', stored: existing };
      // Decided by an earlier move of this very group: a replay of it, with the entries in hand.
      const taken = { requestId: attempt.requestId, params: attempt.params, own: false };
      return {
        kind: 'answer',
        answer: () =>
          answerTakenKey(taken, existing, deps.rules.sameMove(existing, attempt), () =>
            outcomeOf(deps.collections, existing, earlier),
          ),
      };
    }
  }
}

/** The snapshot of the group: its accounts, and its keys that are decided already. */
async function readGroup(
  deps: LedgerDeps,
  session: ClientSession,
  attempts: readonly MoveAttempt[],
): Promise<GroupSnapshot> {
  const accountIds = accountIdsOf(attempts.map((attempt) => attempt.params));
  const keys = [...new Set(attempts.map((attempt) => attempt.key))];
  const accountReads = await deps.preconditions.readGroup(deps.collections.accounts, session, accountIds);
  const requestDocs = await deps.collections.requests.find({ _id: { $in: keys } }, { session }).toArray();
  return {
    accounts: new Map(accountReads.map((read) => [read._id, read])),
    requests: new Map(requestDocs.map((doc) => [doc._id, doc])),
  };
}

/** The distinct accounts of some moves. */
function accountIdsOf(moves: readonly Pick<MoveRequest, 'fromAccountId' | 'toAccountId'>[]): string[] {
  const ids = new Set<string>();
  for (const move of moves) {
    if (move.fromAccountId !== null) ids.add(move.fromAccountId);
    if (move.toAccountId !== null) ids.add(move.toAccountId);
  }
  return [...ids];
}

function bytesOf(move: MoveRequest): number {
  const annotations = annotationBytes(Buffer.byteLength(move.reference ?? ''), Buffer.byteLength(move.metadata ?? ''));
  return moveBytesMax(
    move.requestId.length,
    (move.fromAccountId?.length ?? 0) + (move.toAccountId?.length ?? 0),
    annotations,
  );
}
