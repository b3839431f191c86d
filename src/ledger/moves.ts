import { createHash } from 'node:crypto';
import type { ClientSession, MongoClient } from 'mongodb';
import { activeTraceparent } from '../observability/tracing.ts';
import type { AccountPreconditions } from './accountFilters.ts';
import type { AccountTurns } from './accountTurns.ts';
import type { GroupPolicy } from './groupDecision.ts';
import type { MoveDispatch } from './moveDispatch.ts';
import { type MoveAttempt, outcomeOf } from './journal.ts';
import type { TakenKey } from './keyedTransaction.ts';
import type { EntryDoc, LedgerCollections, MoveOp, MoveParams, RequestDoc } from './model.ts';
import { toLong } from './money.ts';
import { answerTakenKey, type RequestRules } from './requestKeys.ts';
import type {
  DuplicateReplayed,
  IdempotencyKeyReused,
  MoveOutcome,
  OutcomeUnknown,
  Refusal,
  RequestInProgress,
} from './results.ts';
import type { LedgerTelemetry } from './telemetry.ts';

// What a money move is, whichever path commits it (alone: loneMove.ts; with others: groupCommit.ts):
// the caller's request, its attempt under a key, its answer, the parts every move runs with, and
// how a decided key answers a move.

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

export type MoveAnswer =
  | MoveOutcome
  | DuplicateReplayed
  | IdempotencyKeyReused
  | RequestInProgress
  | OutcomeUnknown
  | Refusal;

export interface LedgerDeps {
  client: MongoClient;
  /** This process's moves, one group at a time per account (see `AccountTurns`). */
  turns: AccountTurns;
  /** This process's moves waiting for a group transaction, across accounts (moveDispatch.ts). */
  dispatch: MoveDispatch<WaitingMove>;
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
  return {
    requestId: move.requestId,
    paramsHash: hashParams(params),
    params,
    firstSeenAt,
    ...(traceparent ? { traceparent } : {}),
  };
}

/** A replay must carry the same operation and parameters; the hash makes that a string compare. */
export function hashParams(params: MoveParams): string {
  const canonical: unknown[] = [params.op, params.fromAccountId, params.toAccountId, params.amount.toString()];
  // Appended only when sent, so the hash of a move without them is what it always was.
  if (params.reference !== undefined || params.metadata !== undefined)
    canonical.push(params.reference ?? null, canonicalMetadata(params.metadata));
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/**
 * Metadata as a replay compares it: its JSON with object keys sorted, so key order is no
 * difference (IdempotencyKeyReused names `metadata` only for another value).
 */
export function canonicalMetadata(text: string | undefined): string | null {
  if (text === undefined) return null;
  return JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : value,
  );
}

/** The decided requests under some keys (the runner's lookup). */
export async function lookupRequests(
  deps: LedgerDeps,
  session: ClientSession,
  keys: readonly string[],
): Promise<ReadonlyMap<string, RequestDoc>> {
  const docs =
    keys.length === 1
      ? [await deps.collections.requests.findOne({ _id: keys[0]! }, { session })].filter(
          (doc): doc is RequestDoc => doc !== null,
        )
      : await deps.collections.requests.find({ _id: { $in: [...keys] } }, { session }).toArray();
  return new Map(docs.map((doc) => [doc._id, doc]));
}

/** Answers moves whose keys are decided; the entries of their requests are read in one query. */
export async function answerTakenMoves(
  deps: LedgerDeps,
  taken: readonly TakenKey<MoveAttempt, RequestDoc>[],
): Promise<MoveAnswer[]> {
  const stored = await storedEntriesOf(
    deps,
    taken.filter(({ request, stored }) => deps.rules.sameMove(stored, request)).map(({ stored }) => stored),
  );
  return Promise.all(
    taken.map(({ request, stored: existing, own }) =>
      answerTakenKey(
        { requestId: request.requestId, params: request.params, own },
        existing,
        deps.rules.sameMove(existing, request),
        () => outcomeOf(deps.collections, existing, entriesOfRequest(stored, existing)),
      ),
    ),
  );
}

/** The entries of decided requests, in one read (entries are immutable: any read returns them). */
async function storedEntriesOf(
  deps: LedgerDeps,
  requests: readonly RequestDoc[],
): Promise<ReadonlyMap<string, EntryDoc>> {
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
