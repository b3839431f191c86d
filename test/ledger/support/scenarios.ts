import { expect } from 'vitest';
import type { LedgerService } from '../../../src/ledger/index.ts';
import type { TestDb } from '../../support/mongo.ts';

// The G1 race, written once: the race test runs it against the real preconditions, and the
// meta-test against a broken debit filter and expects the checks to fail.

export interface WithdrawalRace {
  kinds: Record<string, number>;
  finalBalance: number;
  lowestBalanceAfter: number;
  appliedEntries: number;
}

const transient = new Set(['requestInProgress', 'outcomeUnknown']);
/** Resends of one key after a transient answer, as a caller would; far above what a race needs. */
const resendsMax = 20;

/**
 * Sends one key until its answer is final (a transient answer means: ask again with the same
 * key), and returns the final answer's kind; a replay counts as the kind of its original.
 */
export async function finalKindOf(
  send: () => Promise<{ kind: string; original?: { kind: string } }>,
  what: string,
): Promise<string> {
  for (let sent = 0; sent <= resendsMax; sent += 1) {
    const result = await send();
    if (result.kind === 'duplicateReplayed') return result.original!.kind;
    if (!transient.has(result.kind)) return result.kind;
  }
  throw new Error(`${what} still undecided after ${resendsMax} resends`);
}

/**
 * `count` withdrawals of `amount` from one account at once, spread over `services`. Services on
 * separate clients stand for separate API processes: their transactions conflict on the account
 * and retry, and one that runs out of retries answers transiently; like a caller, the race then
 * sends the same key again until the answer is final, and counts that final answer.
 */
export async function raceWithdrawals(
  db: TestDb,
  services: LedgerService[],
  accountId: string,
  count: number,
  amount: number,
  /**
   * Withdrawals each service sends at once; it sends the next wave when a wave is answered. All at
   * once by default (each process then commits its share in one or two groups); small waves make
   * many small groups from every process interleave on the account.
   */
  wave = count,
): Promise<WithdrawalRace> {
  const finalKind = (service: LedgerService, requestId: string) =>
    finalKindOf(() => service.withdraw({ accountId, amount, requestId }), requestId);
  const sendShare = async (service: LedgerService, s: number): Promise<string[]> => {
    const ids = Array.from({ length: count }, (_, i) => i).filter((i) => i % services.length === s);
    const kinds: string[] = [];
    for (let start = 0; start < ids.length; start += wave) {
      kinds.push(
        ...(await Promise.all(ids.slice(start, start + wave).map((i) => finalKind(service, `${accountId}-w${i}`)))),
      );
    }
    return kinds;
  };
  const results = (await Promise.all(services.map((service, s) => sendShare(service, s)))).flat();
  const kinds: Record<string, number> = {};
  for (const kind of results) kinds[kind] = (kinds[kind] ?? 0) + 1;
  const account = await db.db.collection('accounts').findOne({ _id: accountId as never });
  const entries = await db.db.collection('ledger_entries').find({ accountId, kind: 'withdrawal' }).toArray();
  return {
    kinds,
    finalBalance: Number(account?.balance),
    lowestBalanceAfter: Math.min(...entries.map((entry) => Number(entry.balanceAfter))),
    appliedEntries: entries.length,
  };
}

/** G1 for 2,000 minor units and withdrawals of 10: exactly 200 apply, the rest are refused. */
export function expectNoOverdraft(race: WithdrawalRace, count: number): void {
  expect(race.kinds).toEqual({ withdrawSuccess: 200, insufficientFunds: count - 200 });
  expect(race.finalBalance).toBe(0);
  expect(race.lowestBalanceAfter).toBe(0);
  expect(race.appliedEntries).toBe(200);
}
