import type { ClientSession, Db } from 'mongodb';
import type { Logger } from 'pino';
import { leaseCollection, type LeaseDoc } from '../db/lease.ts';
import { LeaseJob } from '../db/leaseJob.ts';
import { expired } from './holdRules.ts';
import { changeOf, type HoldDeps, releaseHeld } from './holds.ts';
import { type HoldDoc, HoldIndex, HoldStatus } from './holdModel.ts';
import { TurnNotTaken } from './accountTurns.ts';
import { HoldLimits, moveAttemptsMax, moveRetryBudgetMs } from './limits.ts';
import { backoffMs, transactionOptions } from './keyedTransaction.ts';
import { type Attempted, attemptTransactions, withSession } from '../db/transactionAttempts.ts';

// The hold sweeper (H3): every process runs the loop, the one holding the sweeper lease
// (src/db/lease.ts, database clock) expires the pending holds past `expiresAt` on the same clock,
// each in one transaction whose filter says so again (`status: 'PENDING'`, `expiresAt <= $$NOW`):
// a capture or void that won first leaves it nothing to match. A pass takes at most
// `sweepBatchMax` holds, and passes follow each other at once while they come back full, so a
// backlog after downtime drains without a cap; an idle sweeper ticks every `sweepIntervalMs`.

export const HOLD_SWEEPER_LEASE = 'ledger:holdSweeper';
const LEASES = 'ledger_leases';

export interface SweepPass {
  expired: number;
  /** The pass came back full: more may be due. */
  more: boolean;
}

/**
 * Expires up to `limit` pending holds past their expiry, oldest expiry first; a stop ends the pass
 * between two holds, or while it waits for a hold's account's turn. A hold whose account's turn
 * does not come within a move's budget is left to the next pass (issue 41's watchdog).
 */
export async function sweepExpiredHolds(deps: HoldDeps, limit: number, signal?: AbortSignal): Promise<SweepPass> {
  const due = await deps.holds.holds
    .find(
      { status: HoldStatus.PENDING, ...expired },
      { projection: { _id: 1, accountId: 1 }, sort: { expiresAt: 1 }, limit, hint: HoldIndex.pendingByExpiry },
    )
    .toArray();
  let count = 0;
  for (const hold of due) {
    if (signal?.aborted) return { expired: count, more: false };
    const turn = { deadlineMs: Date.now() + moveRetryBudgetMs, ...(signal ? { signal } : {}) };
    try {
      if (await deps.ledger.turns.run([hold.accountId], () => expireHold(deps, hold._id), turn)) count += 1;
    } catch (error) {
      if (!(error instanceof TurnNotTaken)) throw error;
      if (signal?.aborted) return { expired: count, more: false };
    }
  }
  return { expired: count, more: due.length === limit };
}

/**
 * Expires one hold in one transaction: false when a capture or void resolved it first. Retried on
 * transient failures within the move attempts (src/db/transactionAttempts.ts); past them, the
 * error is thrown and the next pass finds the hold again. No key: the filter is the whole
 * precondition, so a rerun after a lost commit reply matches nothing and answers false.
 */
export async function expireHold(deps: HoldDeps, holdId: string): Promise<boolean> {
  const end = await withSession(deps.ledger.client, (session) =>
    attemptTransactions(
      session,
      {
        transaction: transactionOptions,
        attemptsMax: moveAttemptsMax,
        deadlineMs: Infinity,
        pauseMs: backoffMs,
        unknownCommit: 'rerun',
        onRetry: (reason) => deps.ledger.telemetry.retried(reason),
      },
      (attemptSession) => expireIn(deps, attemptSession, holdId),
    ),
  );
  if (end.kind === 'spent') throw end.error;
  return end.value;
}

async function expireIn(deps: HoldDeps, session: ClientSession, holdId: string): Promise<Attempted<boolean>> {
  const hold = await deps.holds.holds.findOneAndUpdate(
    { _id: holdId, status: HoldStatus.PENDING, ...expired },
    [{ $set: { status: HoldStatus.EXPIRED, resolvedAt: '$$NOW' } }, { $set: { change: changeOf(HoldStatus.EXPIRED) } }],
    { session, returnDocument: 'after' },
  );
  if (hold === null) return { commit: false, value: false };
  await releaseHeld(deps.ledger.collections.accounts, session, hold as HoldDoc);
  return { commit: true, value: true };
}

export interface HoldSweeperOptions {
  db: Db;
  deps: HoldDeps;
  logger: Logger;
  /** Who this process is in the lease document (`holderOf(processId, …)`, src/db/leaseJob.ts). */
  holder: string;
  leaseDurationMs?: number;
  sweepIntervalMs?: number;
  sweepBatchMax?: number;
  /** Counts what each pass expired (the metrics). */
  onExpired?(count: number): void;
}

/** The sweeper on the lease-job runner (src/db/leaseJob.ts); `start` once per process, `stop` on shutdown. */
export class HoldSweeper {
  readonly #job: LeaseJob;

  constructor(options: HoldSweeperOptions) {
    const { db, deps, logger, holder, onExpired } = options;
    const sweepBatchMax = options.sweepBatchMax ?? HoldLimits.sweepBatchMax;
    this.#job = new LeaseJob(
      {
        name: HOLD_SWEEPER_LEASE,
        leases: leaseCollection<LeaseDoc>(db, LEASES),
        holder,
        leaseDurationMs: options.leaseDurationMs ?? HoldLimits.sweeperLeaseMs,
        intervalMs: options.sweepIntervalMs ?? HoldLimits.sweepIntervalMs,
        logger,
        telemetry: deps.ledger.telemetry.leaseJobs,
      },
      {
        // Passes follow each other at once while they come back full.
        turn: async ({ signal }) => {
          const pass = await sweepExpiredHolds(deps, sweepBatchMax, signal);
          if (pass.expired > 0) {
            onExpired?.(pass.expired);
            logger.info({ component: 'holdSweeper', expired: pass.expired }, 'expired holds released');
          }
          return pass.more ? 'more' : 'idle';
        },
      },
    );
  }

  start(): void {
    this.#job.start();
  }

  async stop(): Promise<void> {
    await this.#job.stop();
  }
}
