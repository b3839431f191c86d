import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import { toAccountSnapshot } from './convert.ts';
import type { OpenAccountInput } from './inputs.ts';
import type { AccountDoc } from './model.ts';
import { toLong } from './money.ts';
import { acrossElections } from '../db/elections.ts';
import { DbLimits } from '../db/limits.ts';
import { isDuplicateKey } from '../db/mongoErrors.ts';
import type { OpenAccountResult } from './results.ts';
import { present } from '../lib/assert.ts';

/**
 * Opens an account keyed by the caller's accountId: the insert on the unique _id is the claim.
 * A repeat with the same currency replays the opening; another currency reuses the key.
 *
 * The driver retries the insert once after a step-down; a second election that interrupts that
 * retry too is ridden out here (acrossElections). `openingId` tells this call's own insert,
 * applied before its reply was lost, from another call's: the first is this call's success, the
 * second a replay.
 */
export async function openAccount(
  accounts: Collection<AccountDoc>,
  input: OpenAccountInput,
  retryBudgetMs: number = DbLimits.electionRetryBudgetMs,
): Promise<OpenAccountResult> {
  const doc: AccountDoc = {
    _id: input.accountId,
    currency: input.currency,
    balance: toLong(0),
    version: toLong(0),
    held: toLong(0),
    openedAt: new Date(),
    openingId: randomUUID(),
  };
  try {
    await acrossElections(() => accounts.insertOne(doc), { budgetMs: retryBudgetMs });
    return { kind: 'openAccountSuccess', account: toAccountSnapshot(doc) };
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
  const existing = present(
    await accounts.findOne({ _id: input.accountId }),
    () => `account ${input.accountId} vanished (accounts are never deleted)`,
  );
  if (existing.openingId === doc.openingId) return { kind: 'openAccountSuccess', account: toAccountSnapshot(doc) };
  if (existing.currency !== input.currency) {
    return {
      kind: 'idempotencyKeyReused',
      requestId: input.accountId,
      field: 'currency',
      detail: `account ${input.accountId} already exists in ${existing.currency}; an account's currency cannot change (open another accountId for ${input.currency})`,
    };
  }
  const opened = {
    id: existing._id,
    currency: existing.currency,
    balance: 0,
    version: 0,
    held: 0,
    available: 0,
    status: 'OPEN',
    closedAt: null,
  } as const;
  return {
    kind: 'duplicateReplayed',
    requestId: input.accountId,
    firstSeenAt: existing.openedAt,
    original: { kind: 'openAccountSuccess', account: opened },
  };
}
