import { setTimeout as sleep } from 'node:timers/promises';
import { type AnyBulkWriteOperation, type ClientSession, MongoError } from 'mongodb';
import { isDuplicateKey } from '../db/mongoErrors.ts';
import { decideGroup, type GroupDecision, type GroupSnapshot, type MoveDecision } from './groupDecision.ts';
import { groupKeyOf } from './groupQueues.ts';
import { annotationBytes, moveAttemptsMax, moveBytesMax, moveRetryBudgetMs } from './limits.ts';
import type { AccountDoc, EntryDoc, RequestDoc } from './model.ts';
import { toLong } from './money.ts';
import { insertEntries, type MoveAttempt, outcomeOf } from './journal.ts';
import {
  answerTakenKey,
  attemptBase,
  backoffMs,
  keyReused,
  type LedgerDeps,
  moveAlone,
  type MoveAnswer,
  type MoveRequest,
  retryReasonOf,
  transactionOptions,
  type WaitingMove,
} from './moneyMove.ts';
import type { LinkedMoveFailed, MoveOutcome } from './results.ts';
import type { RetryReason, TransactionKind } from './telemetry.ts';

// Group commit. Moves of this process queued on the same account(s) commit together in ONE
// transaction when their turn comes:
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
// (nothing else queued) goes through moneyMove.ts as before, at once.

/** A move answer of a batch: what the move alone would answer, or LinkedMoveFailed (atomic batches). */
export type BatchAnswer = MoveAnswer | LinkedMoveFailed;

/** Deposit, withdraw and transfer of one caller: queued on its accounts, committed with whatever waits with it. */
export function moveMoney(deps: LedgerDeps, move: MoveRequest): Promise<MoveAnswer> {
  // The retry budget starts now: time spent waiting for the accounts' turn counts, so a queue
  // behind an account another process holds drains quickly instead of retrying in turn.
  const deadlineMs = Date.now() + moveRetryBudgetMs;
  const accountIds = accountIdsOf([move]);
  const key = groupKeyOf(accountIds);
  return new Promise<MoveAnswer>((resolve, reject) => {
    const leads = deps.queues.push(key, { item: { move, deadlineMs, resolve, reject }, bytes: bytesOf(move) });
    if (leads) void lead(deps, key, accountIds);
  });
}

/**
 * The moves of one `submitMoves`: one transaction for all of them, under the turns of all their
 * accounts. `atomic`: all of them or none. Its size is bounded by the caller (`submitMovesMax`).
 */
export async function submitMoves(deps: LedgerDeps, moves: readonly MoveRequest[], atomic: boolean): Promise<BatchAnswer[]> {
  const deadlineMs = Date.now() + moveRetryBudgetMs;
  return deps.turns.run(accountIdsOf(moves), () => groupInTransactions(deps, moves, { kind: 'batch', atomic }, deadlineMs));
}

/** Leads one queue: takes its groups one turn at a time until nothing waits. */
async function lead(deps: LedgerDeps, key: string, accountIds: readonly string[]): Promise<void> {
  for (;;) {
    const group = await deps.turns.run(accountIds, async () => {
      // What is queued when the turn comes: never more waiting for company.
      const taken = deps.queues.take(key);
      if (taken.length > 0) await commitGroup(deps, taken);
      return taken;
    });
    if (group.length === 0) return;
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
    const answers = await groupInTransactions(deps, group.map((waiting) => waiting.move), { kind: 'group', atomic: false }, deadlineMs);
    group.forEach((waiting, i) => {
      const answer = answers[i]!;
      if (answer.kind === 'linkedMoveFailed') waiting.reject(new Error('invariant: a group of lone moves is never linked'));
      else waiting.resolve(answer);
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

/** The group's transaction, one per attempt, rerun under the same keys; the answers in order. */
async function groupInTransactions(deps: LedgerDeps, moves: readonly MoveRequest[], batch: GroupKind, deadlineMs: number): Promise<BatchAnswer[]> {
  const firstSeenAt = new Date();
  const bases = moves.map((move) => attemptBase(move, firstSeenAt));
  /** An earlier attempt's commit may have applied (its reply was lost). */
  let mayHaveCommitted = false;
  /** Keys decided before this call's first read: those are replays, whatever happens after. */
  let decidedBefore: ReadonlySet<string> | null = null;
  // One session for every attempt: a new transaction on it ends whatever an earlier attempt left
  // open on the server, instead of leaving it to hold the accounts.
  const session = deps.client.startSession();
  try {
    let attempts: MoveAttempt[] = [];
    for (let attemptNo = 1; ; attemptNo += 1) {
      attempts = bases.map((base) => ({ key: deps.rules.keyOf(base.requestId), ...base }));
      try {
        const decision = await attemptGroup(deps, session, attempts, batch, (snapshot) => {
          decidedBefore ??= new Set(snapshot.requests.keys());
        });
        return await answersOf(deps, attempts, decision.moves, mayHaveCommitted, decidedBefore ?? new Set());
      } catch (error) {
        const reason = groupRetryReasonOf(error);
        if (reason === null) throw error;
        deps.telemetry.retried(reason);
        if (reason === 'unknownCommitResult') mayHaveCommitted = true;
        if (attemptNo >= moveAttemptsMax || Date.now() >= deadlineMs) break;
        await sleep(backoffMs(attemptNo));
      }
    }
    return await outOfAttempts(deps, session, attempts, mayHaveCommitted, decidedBefore ?? new Set());
  } finally {
    await session.endSession();
  }
}

/** The account writes matched fewer accounts than read: they changed since (never inside a snapshot). */
class GroupStateChanged extends Error {}

function groupRetryReasonOf(error: unknown): RetryReason | null {
  // A key decided by another process after the snapshot read: the rerun reads it as decided.
  if (error instanceof MongoError && isDuplicateKey(error)) return 'transient';
  if (error instanceof GroupStateChanged) return 'writeConflict';
  return retryReasonOf(error);
}

/** One transaction: read, decide, write under the read state, commit. Throws what may be retried. */
async function attemptGroup(
  deps: LedgerDeps,
  session: ClientSession,
  attempts: readonly MoveAttempt[],
  batch: GroupKind,
  onRead: (snapshot: GroupSnapshot) => void,
): Promise<GroupDecision> {
  const { accounts, requests, entries } = deps.collections;
  session.startTransaction(transactionOptions);
  try {
    const snapshot = await readGroup(deps, session, attempts);
    onRead(snapshot);
    const decision = decideGroup({ snapshot, attempts, atomic: batch.atomic, now: new Date(), policy: deps.groupPolicy, sameMove: deps.rules.sameMove });
    const recorded = decision.moves.flatMap((move) => (move.kind === 'applied' || move.kind === 'rejected' ? [move.request] : []));
    const journal = decision.moves.flatMap((move) => (move.kind === 'applied' ? move.entries : []));
    if (recorded.length === 0) {
      await session.abortTransaction();
      return decision;
    }
    if (decision.accountWrites.length > 0) {
      const writes: AnyBulkWriteOperation<AccountDoc>[] = decision.accountWrites.map(({ read, balanceDelta, versionDelta }) => ({
        updateOne: {
          // The precondition of every decision of the group: the account exactly as it was read.
          filter: deps.preconditions.groupFilter(read),
          update: { $inc: { balance: toLong(balanceDelta), version: toLong(versionDelta) } },
        },
      }));
      const written = await accounts.bulkWrite(writes, { session, ordered: true });
      if (written.matchedCount !== writes.length) throw new GroupStateChanged(`group: ${writes.length - written.matchedCount} accounts changed since read`);
    }
    await requests.insertMany(recorded, { session });
    await insertEntries(entries, session, journal);
    await session.commitTransaction();
    deps.telemetry.committed(batch.kind, recorded.length);
    return decision;
  } catch (error) {
    if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
    throw error;
  }
}

/** The snapshot of the group: its accounts, and its keys that are decided already. */
async function readGroup(deps: LedgerDeps, session: ClientSession, attempts: readonly MoveAttempt[]): Promise<GroupSnapshot> {
  const accountIds = accountIdsOf(attempts.map((attempt) => attempt.params));
  const keys = [...new Set(attempts.map((attempt) => attempt.key))];
  const accountReads = await deps.preconditions.readGroup(deps.collections.accounts, session, accountIds);
  const requestDocs = await deps.collections.requests.find({ _id: { $in: keys } }, { session }).toArray();
  return {
    accounts: new Map(accountReads.map((read) => [read._id, read])),
    requests: new Map(requestDocs.map((doc) => [doc._id, doc])),
  };
}

/** Each move's answer from its decision; the entries of replayed moves are read in one query. */
async function answersOf(
  deps: LedgerDeps,
  attempts: readonly MoveAttempt[],
  decisions: readonly MoveDecision[],
  mayHaveCommitted: boolean,
  decidedBefore: ReadonlySet<string>,
): Promise<BatchAnswer[]> {
  const stored = await storedEntriesOf(deps, decisions.flatMap((decision) => (decision.kind === 'keyTaken' && decision.earlier === null ? [decision.existing] : [])));
  return Promise.all(
    decisions.map(async (decision, i): Promise<BatchAnswer> => {
      const attempt = attempts[i]!;
      switch (decision.kind) {
        case 'applied':
          return outcomeOf(deps.collections, decision.request, decision.entries);
        case 'rejected':
          return outcomeOf(deps.collections, decision.request, []);
        case 'refused':
          return decision.result;
        case 'linkedMoveFailed':
          return { kind: 'linkedMoveFailed', requestId: attempt.requestId };
        case 'keyTaken': {
          const { existing } = decision;
          const entries = decision.earlier ?? entriesOfRequest(stored, existing);
          if (!deps.rules.sameMove(existing, attempt)) return keyReused(attempt.requestId, existing.params, attempt.params);
          const original: MoveOutcome = await outcomeOf(deps.collections, existing, entries);
          // Decided by an attempt of this very call whose commit reply was lost: its own answer.
          const own = decision.earlier === null && mayHaveCommitted && !decidedBefore.has(attempt.key);
          return own ? original : { kind: 'duplicateReplayed', requestId: attempt.requestId, firstSeenAt: existing.firstSeenAt, original };
        }
      }
    }),
  );
}

/** The entries of decided requests, in one read (entries are immutable: any read returns them). */
async function storedEntriesOf(deps: LedgerDeps, requests: readonly RequestDoc[]): Promise<ReadonlyMap<string, EntryDoc>> {
  const ids = requests.flatMap((request) => (request.outcome?.kind === 'applied' ? request.outcome.entryIds : []));
  if (ids.length === 0) return new Map();
  const docs = await deps.collections.entries.find({ _id: { $in: ids } }).toArray();
  return new Map(docs.map((doc) => [doc._id, doc]));
}

function entriesOfRequest(stored: ReadonlyMap<string, EntryDoc>, request: RequestDoc): EntryDoc[] {
  if (request.outcome?.kind !== 'applied') return [];
  return request.outcome.entryIds.flatMap((id) => {
    const entry = stored.get(id);
    return entry ? [entry] : [];
  });
}

/**
 * Out of attempts: one more transaction on the group's session reads its keys (starting it ends
 * whatever an earlier attempt left open on the server). A decided key answers from its record;
 * the others are transient, and the same keys sent again decide them.
 */
async function outOfAttempts(
  deps: LedgerDeps,
  session: ClientSession,
  attempts: readonly MoveAttempt[],
  mayHaveCommitted: boolean,
  decidedBefore: ReadonlySet<string>,
): Promise<BatchAnswer[]> {
  session.startTransaction(transactionOptions);
  let decided: RequestDoc[];
  try {
    decided = await deps.collections.requests.find({ _id: { $in: attempts.map((attempt) => attempt.key) } }, { session }).toArray();
  } finally {
    await session.abortTransaction().catch(() => undefined);
  }
  const byKey = new Map(decided.map((doc) => [doc._id, doc]));
  return Promise.all(
    attempts.map(async (attempt): Promise<BatchAnswer> => {
      const existing = byKey.get(attempt.key);
      if (existing) return answerTakenKey(deps, attempt, existing, mayHaveCommitted && !decidedBefore.has(attempt.key));
      const transient = { requestId: attempt.requestId, firstSeenAt: attempt.firstSeenAt };
      return mayHaveCommitted ? { kind: 'outcomeUnknown', ...transient } : { kind: 'requestInProgress', ...transient };
    }),
  );
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
  return moveBytesMax(move.requestId.length, (move.fromAccountId?.length ?? 0) + (move.toAccountId?.length ?? 0), annotations);
}
