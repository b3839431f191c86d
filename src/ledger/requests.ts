import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection } from 'mongodb';
import { replayPollIntervalMs, replayWaitMs, requestLeaseMs } from './limits.ts';
import type { MoveParams, RequestDoc, StoredOutcome } from './model.ts';
import { isDuplicateKey } from '../db/mongoErrors.ts';

// The request document is the claim on a caller's requestId: written before any money moves,
// decided once (pending -> applied | rejected), never deleted.

/** Caller keys live in their own namespace so no other feature's key can collide with them. */
export function requestKey(requestId: string): string {
  return `ledger:${requestId}`;
}

/** A replay must carry the same operation and parameters; the hash makes that a string compare. */
export function hashParams(params: MoveParams): string {
  const canonical = [params.op, params.fromAccountId, params.toAccountId, params.amount.toString()];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

export type ClaimResult = { claimed: true } | { claimed: false; existing: RequestDoc };

/** Inserts the claim; if the key is taken, hands back the request that holds it. */
export async function claimRequest(requests: Collection<RequestDoc>, doc: RequestDoc): Promise<ClaimResult> {
  try {
    await requests.insertOne(doc);
    return { claimed: true };
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return { claimed: false, existing: await loadRequest(requests, doc._id) };
  }
}

export async function loadRequest(requests: Collection<RequestDoc>, key: string): Promise<RequestDoc> {
  const doc = await requests.findOne({ _id: key });
  if (!doc) throw new Error(`invariant: request ${key} vanished (requests are never deleted)`);
  return doc;
}

/** Records the decision unless another driver recorded it first; returns the final document. */
export async function finalizeRequest(
  requests: Collection<RequestDoc>,
  key: string,
  outcome: StoredOutcome,
): Promise<RequestDoc> {
  const status = outcome.kind;
  const decided = await requests.findOneAndUpdate(
    { _id: key, status: 'pending' },
    { $set: { status, outcome, decidedAt: new Date() } },
    { returnDocument: 'after' },
  );
  const final = decided ?? (await loadRequest(requests, key));
  if (final.status === 'pending') throw new Error(`invariant: request ${key} still pending after finalizing`);
  return final;
}

/** Claims the right to complete a pending request for one lease period. */
export async function renewLease(requests: Collection<RequestDoc>, key: string): Promise<void> {
  await requests.updateOne({ _id: key, status: 'pending' }, { $set: { leaseUntil: leaseEnd() } });
}

/** Lets the next replay complete the request at once instead of waiting out the lease. */
export async function releaseLease(requests: Collection<RequestDoc>, key: string): Promise<void> {
  await requests.updateOne({ _id: key, status: 'pending' }, { $set: { leaseUntil: new Date() } }).catch(() => undefined);
}

export function leaseEnd(): Date {
  return new Date(Date.now() + requestLeaseMs);
}

/**
 * Waits (at most `replayWaitMs`) while another caller holds the request's lease, and returns
 * the request as last seen: decided, with an expired lease, or still in progress.
 */
export async function waitWhileLeased(requests: Collection<RequestDoc>, key: string): Promise<RequestDoc> {
  const deadline = Date.now() + replayWaitMs;
  for (;;) {
    const doc = await loadRequest(requests, key);
    const now = Date.now();
    if (doc.status !== 'pending' || doc.leaseUntil.getTime() <= now || now >= deadline) return doc;
    await sleep(replayPollIntervalMs);
  }
}
