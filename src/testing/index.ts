// Test hooks, in one place that only test/ and bench/ may import (.dependency-cruiser.cjs,
// `testing-only-from-tests`): each factory builds a production part from its internal constructor
// with one piece replaced, so a meta-test can prove that the guarantee's test fails without it.
// Production constructors (createLedgerService, createPayoutProjection) take no such piece.
import type { AccountTurns } from '../ledger/accountTurns.ts';
import { accountPreconditions, type AccountPreconditions } from '../ledger/accountFilters.ts';
import { groupPolicy, type GroupPolicy } from '../ledger/groupDecision.ts';
import { requestRules, type RequestRules } from '../ledger/requestKeys.ts';
import { holdRules, type HoldRules } from '../ledger/holdRules.ts';
import { lifecycleRules, type LifecycleRules } from '../ledger/lifecycleRules.ts';
import { ledgerServiceFrom, type LedgerService, type LedgerServiceOptions } from '../ledger/service.ts';
import {
  PayoutProjection,
  type PayoutProjectionDeps,
  type PayoutProjectionOptions,
} from '../payouts/PayoutProjection.ts';
import type { PayoutsWriter, PayoutWriter } from '../payouts/payoutWriter.ts';
import { bullmqSinkFrom, type BullmqSinkOptions } from '../payouts/bullmqSink.ts';
import type { PayoutJobRecords } from '../payouts/payoutJobs.ts';
import type { PayoutSink } from '../payouts/sink.ts';

export interface LedgerReplacements {
  /** Replaces the account filters (a mutant that checks the balance on a read). */
  preconditions?: AccountPreconditions;
  /** Replaces how requests are keyed and recognised (a mutant that keys each attempt apart). */
  rules?: RequestRules;
  /** Replaces how a group commit decides its moves (a mutant that checks the opening balance). */
  groupPolicy?: GroupPolicy;
  /** Replaces the writes that resolve a hold (a status checked on a read, an expiry on this process's clock). */
  holdRules?: HoldRules;
  /** Replaces the write that decides a reversal (the reversed total checked on a read before it, L1). */
  lifecycleRules?: LifecycleRules;
  /** The process's per-account turns, held by the test too (a turn that never comes). */
  turns?: AccountTurns;
}

export function createLedgerServiceForTest(options: LedgerServiceOptions, replace: LedgerReplacements): LedgerService {
  return ledgerServiceFrom({
    ...options,
    preconditions: replace.preconditions ?? accountPreconditions,
    rules: replace.rules ?? requestRules,
    groupPolicy: replace.groupPolicy ?? groupPolicy,
    holdRules: replace.holdRules ?? holdRules,
    lifecycleRules: replace.lifecycleRules ?? lifecycleRules,
    ...(replace.turns ? { turns: replace.turns } : {}),
  });
}

/** Payout writers replacing the work service's upserts: one by one (the catch-up) and per batch (the stream; one by one when absent). */
export interface PayoutWriters {
  writePayout: PayoutWriter;
  writePayouts?: PayoutsWriter;
}

/** A projection whose payouts go through `writers` instead of the work service's upserts. */
export function createPayoutProjectionForTest(
  deps: PayoutProjectionDeps,
  options: PayoutProjectionOptions,
  writers: PayoutWriters,
): PayoutProjection {
  return new PayoutProjection({ ...deps, ...writers }, options);
}

/** A BullMQ payout sink over other records than MongoDB's (the meta-test's sink that trusts the job id alone, a crash inside the add's window). */
export function createBullmqPayoutSinkForTest(options: BullmqSinkOptions, records: PayoutJobRecords): PayoutSink {
  return bullmqSinkFrom(options, records);
}
