import { setTimeout as sleep } from 'node:timers/promises';
import { driveRequest, type DriveResult } from './drive.ts';
import { driveAttemptsMax, driveBackoffMs } from './limits.ts';
import type { LedgerCollections, MoveOp, RequestDoc } from './model.ts';
import { fromLong, toLong } from './money.ts';
import { loadOutcome } from './outcome.ts';
import type { AccountPreconditions } from './preconditions.ts';
import type { LedgerTelemetry } from './telemetry.ts';
import { claimRequest, hashParams, leaseEnd, releaseLease, renewLease, requestKey, waitWhileLeased } from './requests.ts';
import type {
  AccountNotFound,
  CurrencyMismatch,
  DuplicateReplayed,
  IdempotencyKeyReused,
  OutcomeUnknown,
  MoveOutcome,
  RequestInProgress,
} from './results.ts';

export interface LedgerDeps {
  collections: LedgerCollections;
  preconditions: AccountPreconditions;
  telemetry: LedgerTelemetry;
}

export interface MoveRequest {
  op: MoveOp;
  requestId: string;
  fromAccountId: string | null;
  toAccountId: string | null;
  amount: number;
}

export type MoveResult =
  | MoveOutcome
  | DuplicateReplayed
  | IdempotencyKeyReused
  | AccountNotFound
  | RequestInProgress
  | OutcomeUnknown
  | CurrencyMismatch;

/**
 * Deposit, withdraw and transfer: check the accounts exist, claim the key, then drive the
 * request to its outcome. A key that is already claimed is a replay.
 */
export async function moveMoney(deps: LedgerDeps, move: MoveRequest): Promise<MoveResult> {
  const accountIds = [move.fromAccountId, move.toAccountId].filter((id): id is string => id !== null);
  const accounts = await deps.collections.accounts
    .find({ _id: { $in: accountIds } }, { projection: { currency: 1, version: 1 } })
    .toArray();
  const byId = new Map(accounts.map((account) => [account._id, account]));
  const missing = accountIds.find((id) => !byId.has(id));
  if (missing !== undefined) return { kind: 'accountNotFound', accountId: missing };
  const from = move.fromAccountId === null ? undefined : byId.get(move.fromAccountId);
  const to = move.toAccountId === null ? undefined : byId.get(move.toAccountId);
  if (from && to && from.currency !== to.currency) {
    return { kind: 'currencyMismatch', fromAccountId: from._id, fromCurrency: from.currency, toAccountId: to._id, toCurrency: to.currency };
  }
  const params = { op: move.op, fromAccountId: move.fromAccountId, toAccountId: move.toAccountId, amount: toLong(move.amount) };
  const request: RequestDoc = {
    _id: requestKey(move.requestId),
    requestId: move.requestId,
    paramsHash: hashParams(params),
    params,
    currency: (from ?? to)!.currency,
    versionsAtClaim: accounts.map((account) => ({ accountId: account._id, version: toLong(fromLong(account.version)) })),
    status: 'pending',
    outcome: null,
    firstSeenAt: new Date(),
    leaseUntil: leaseEnd(),
    decidedAt: null,
  };
  const claim = await claimRequest(deps.collections.requests, request).catch((error: unknown) => {
    deps.telemetry.driveFailure(request._id, error);
    return null;
  });
  if (claim === null) {
    await releaseLease(deps.collections.requests, request._id);
    return { kind: 'outcomeUnknown', requestId: move.requestId, firstSeenAt: request.firstSeenAt };
  }
  if (!claim.claimed) return replay(deps, request, claim.existing);
  const driven = await driveWithRetries(deps, request);
  if (driven.kind !== 'decided') return { kind: 'outcomeUnknown', requestId: move.requestId, firstSeenAt: request.firstSeenAt };
  return loadOutcome(deps.collections, driven.request, driven.written);
}

/** Answers a key that was claimed before: refuse other parameters, else wait for or finish the first attempt. */
async function replay(deps: LedgerDeps, attempt: RequestDoc, existing: RequestDoc): Promise<MoveResult> {
  const { requestId } = attempt;
  if (existing.paramsHash !== attempt.paramsHash) return { kind: 'idempotencyKeyReused', requestId };
  let seen = existing.status === 'pending' ? await waitWhileLeased(deps.collections.requests, existing._id) : existing;
  if (seen.status === 'pending' && seen.leaseUntil.getTime() > Date.now()) {
    return { kind: 'requestInProgress', requestId, firstSeenAt: seen.firstSeenAt };
  }
  if (seen.status === 'pending') {
    // The first caller is gone (crashed, or gave up with OutcomeUnknown): finish its work.
    await renewLease(deps.collections.requests, seen._id);
    const driven = await driveWithRetries(deps, seen);
    if (driven.kind !== 'decided') return { kind: 'outcomeUnknown', requestId, firstSeenAt: seen.firstSeenAt };
    seen = driven.request;
  }
  const original = await loadOutcome(deps.collections, seen);
  return { kind: 'duplicateReplayed', requestId, firstSeenAt: seen.firstSeenAt, original };
}

/** Drives a request with the same key at most `driveAttemptsMax` times; unfinished means OutcomeUnknown. */
export async function driveWithRetries(deps: LedgerDeps, request: RequestDoc): Promise<DriveResult> {
  let last: DriveResult = { kind: 'unfinished', reason: 'undecided' };
  for (let attempt = 1; attempt <= driveAttemptsMax; attempt += 1) {
    try {
      last = await driveRequest(deps.collections, deps.preconditions, request);
      if (last.kind === 'decided') break;
      if (last.reason === 'untraceable') {
        deps.telemetry.untraceable(request._id);
        break;
      }
    } catch (error) {
      deps.telemetry.driveFailure(request._id, error);
    }
    if (attempt < driveAttemptsMax) await sleep(driveBackoffMs * attempt);
  }
  if (last.kind !== 'decided') await releaseLease(deps.collections.requests, request._id);
  return last;
}
