import type { RequestDoc } from './model.ts';
import type { MoveAttempt } from './journal.ts';
import type { DuplicateReplayed } from '../graphql/results/duplicateReplayedShape.ts';
import type { IdempotencyKeyReused } from './results.ts';

// A request's key and what a decided key answers, for every keyed request of the ledger (money
// moves and holds share `ledger_requests` and one key namespace): the same parameters replay the
// decision, other parameters are IdempotencyKeyReused naming the first that differs.

/** Caller keys live in their own namespace so no other feature's key can collide with them. */
export function requestKey(requestId: string): string {
  return `ledger:${requestId}`;
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

/**
 * Answers a key that is already decided: refuse other parameters (`same` false), else repeat the
 * decision; when an attempt of this very call may have committed it (`own`), the decision is this
 * call's own answer rather than a replay.
 */
export async function answerTakenKey<Outcome>(
  taken: { requestId: string; params: object; own: boolean },
  stored: { params: object; firstSeenAt: Date },
  same: boolean,
  original: () => Promise<Outcome> | Outcome,
): Promise<Outcome | DuplicateReplayed<Outcome> | IdempotencyKeyReused> {
  if (!same) return keyReused(taken.requestId, stored.params, taken.params);
  const outcome = await original();
  if (taken.own) return outcome;
  return { kind: 'duplicateReplayed', requestId: taken.requestId, firstSeenAt: stored.firstSeenAt, original: outcome };
}

/** Parameters in the order a difference is reported, with the name the caller knows them by. */
const namedParams: readonly (readonly [string, string])[] = [
  ['op', 'operation'],
  ['accountId', 'accountId'],
  ['holdId', 'holdId'],
  ['amount', 'amount'],
  ['fromAccountId', 'fromAccountId'],
  ['toAccountId', 'toAccountId'],
  ['expiresInSeconds', 'expiresInSeconds'],
];

/** A parameter as the caller reads it: `none` when absent, plain objects as JSON (a Long as its digits). */
function shown(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value) || (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype))
    return JSON.stringify(value);
  return String(value);
}

/**
 * Which parameter differs from the first request's, so the caller can tell a bug from a reused
 * key. A field one kind of request lacks counts as `none` (a hold's key reused by a money move
 * differs in `operation` first). Fields not named above follow in name order.
 */
export function keyReused(requestId: string, first: object, now: object): IdempotencyKeyReused {
  const firstFields = first as Record<string, unknown>;
  const nowFields = now as Record<string, unknown>;
  const known = new Set(namedParams.map(([field]) => field));
  const others = [...new Set([...Object.keys(firstFields), ...Object.keys(nowFields)])]
    .filter((field) => !known.has(field))
    .sort();
  for (const [field, name] of [...namedParams, ...others.map((field) => [field, field] as const)]) {
    const was = shown(firstFields[field]);
    const is = shown(nowFields[field]);
    if (was !== is) {
      return {
        kind: 'idempotencyKeyReused',
        requestId,
        field: name,
        detail: `requestId ${requestId} was first used with ${name} ${was}, now ${is}: use a new requestId for a new request`,
      };
    }
  }
  return {
    kind: 'idempotencyKeyReused',
    requestId,
    field: null,
    detail: `requestId ${requestId} was first used with other parameters: use a new requestId for a new request`,
  };
}
