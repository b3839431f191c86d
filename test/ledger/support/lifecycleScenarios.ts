import { expect } from 'vitest';
import type { LedgerService } from '../../../src/ledger/index.ts';
import type { TestDb } from '../../support/mongo.ts';
import { finalKindOf } from './scenarios.ts';

// The L1 and L2 races, written once: the race tests run them against the real writes, the
// meta-tests against a precondition checked on a read before the write, and expect the same
// checks to go red.

export interface ReversalRace {
  kinds: Record<string, number>;
  /** The sum of the amounts of the reversal entries written. */
  reversedInEntries: number;
  /** The original's record: its `reversedAmount`. */
  reversedOnRecord: number;
  originalAmount: number;
}

function tally(kinds: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of kinds) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/**
 * `count` reversals of `amount` each of the deposit `originalRequestId` at once, spread over
 * `services` (separate clients: separate processes), each sent until its answer is final. One at a
 * time per service, so every reversal goes through the keyed transaction on its own.
 */
export async function raceReversals(
  db: TestDb,
  services: LedgerService[],
  originalRequestId: string,
  count: number,
  amount: number,
): Promise<ReversalRace> {
  const sendShare = async (service: LedgerService, s: number): Promise<string[]> => {
    const kinds: string[] = [];
    for (let i = s; i < count; i += services.length) {
      const requestId = `${originalRequestId}-rev${i}`;
      kinds.push(
        await finalKindOf(() => service.reverseMove({ requestId, originalRequestId, amount }) as never, requestId),
      );
    }
    return kinds;
  };
  const kinds = tally((await Promise.all(services.map(sendShare))).flat());
  const entries = await db.db.collection('ledger_entries').find({ reversalOf: originalRequestId }).toArray();
  const record = await db.db.collection('ledger_requests').findOne({ _id: `ledger:${originalRequestId}` as never });
  return {
    kinds,
    reversedInEntries: entries.reduce((sum, entry) => sum + Number(entry['amount']), 0),
    reversedOnRecord: Number(record?.['reversedAmount'] ?? 0),
    originalAmount: Number(record?.['params']?.amount),
  };
}

/** L1: never more than the original, in total; the record and the journal agree. */
export function expectNoOverReversal(race: ReversalRace, amount: number): void {
  const fits = Math.floor(race.originalAmount / amount);
  const count = Object.values(race.kinds).reduce((sum, n) => sum + n, 0);
  expect(race.kinds).toEqual({ reverseMoveSuccess: fits, reversalExceedsOriginal: count - fits });
  expect(race.reversedInEntries).toBe(fits * amount);
  expect(race.reversedOnRecord).toBe(race.reversedInEntries);
  expect(race.reversedInEntries).toBeLessThanOrEqual(race.originalAmount);
}

export interface CloseRace {
  kinds: Record<string, number>;
  closeKind: string;
  movedAmount: number;
  /** The closed account's balance after the race (L2: 0). */
  closedBalance: number;
  /** Deposits applied to the closed account after its close's entry (L2: none). */
  appliedAfterClose: number;
  /** Deposits answered DepositSuccess. */
  applied: number;
  opening: number;
}

/**
 * `count` deposits of 1 into `accountId` from `services` (one at a time per service), with a
 * close of it into `targetId` sent once a quarter of them were answered. L2: every deposit is
 * either in the balance the close moved or refused AccountClosed, and nothing reaches the
 * account after its close.
 */
export async function raceDepositsWithClose(
  db: TestDb,
  services: LedgerService[],
  accountId: string,
  targetId: string,
  count: number,
  opening: number,
): Promise<CloseRace> {
  let answered = 0;
  let closeSent: Promise<string> | null = null;
  let movedAmount = 0;
  const close = () =>
    finalKindOf(async () => {
      const result = await services[0]!.closeAccount({
        requestId: `${accountId}-close`,
        accountId,
        transferBalanceTo: targetId,
      });
      if (result.kind === 'closeAccountSuccess') movedAmount = result.movedAmount;
      if (result.kind === 'duplicateReplayed' && result.original.kind === 'closeAccountSuccess')
        movedAmount = result.original.movedAmount;
      return result;
    }, `${accountId}-close`);
  const sendShare = async (service: LedgerService, s: number): Promise<string[]> => {
    const kinds: string[] = [];
    for (let i = s; i < count; i += services.length) {
      const requestId = `${accountId}-dep${i}`;
      kinds.push(await finalKindOf(() => service.deposit({ accountId, amount: 1, requestId }), requestId));
      answered += 1;
      if (answered === Math.floor(count / 4)) closeSent = close();
    }
    return kinds;
  };
  const kinds = tally((await Promise.all(services.map(sendShare))).flat());
  const closeKind = await (closeSent ?? close());
  const account = await db.db.collection('accounts').findOne({ _id: accountId as never });
  const closing = await db.db.collection('ledger_entries').findOne({ requestId: `${accountId}-close`, accountId });
  const after =
    closing === null
      ? 0
      : await db.db
          .collection('ledger_entries')
          .countDocuments({ accountId, versionAfter: { $gt: closing['versionAfter'] } });
  return {
    kinds,
    closeKind,
    movedAmount,
    closedBalance: Number(account?.['balance']),
    appliedAfterClose: after,
    applied: kinds['depositSuccess'] ?? 0,
    opening,
  };
}

/** L2: the close moved the opening balance plus every deposit that applied; the rest were refused. */
export function expectCloseWholeAndFinal(race: CloseRace, count: number): void {
  expect(race.closeKind).toBe('closeAccountSuccess');
  expect(Object.keys(race.kinds).sort()).toEqual(
    ['accountClosed', 'depositSuccess'].filter((kind) => race.kinds[kind] !== undefined),
  );
  expect(race.applied + (race.kinds['accountClosed'] ?? 0)).toBe(count);
  expect(race.movedAmount).toBe(race.opening + race.applied);
  expect(race.closedBalance).toBe(0);
  expect(race.appliedAfterClose).toBe(0);
}
