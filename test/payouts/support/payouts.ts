// Helpers of the payout-projection tests: withdrawals written straight through the ledger
// service (on the test's own client, so they go on while API processes stop and start), the
// payouts counted per withdrawal, and apps whose projection is configured by the test.
import { pino } from 'pino';
import { Registry } from 'prom-client';
import type { Db } from 'mongodb';
import { expect } from 'vitest';
import {
  collectionNames,
  createLedgerService,
  createLedgerTelemetry,
  type LedgerService,
} from '../../../src/ledger/index.ts';
import { PAYOUT_PROJECTION_TASK, type PayoutProjectionOptions, type PayoutWriter } from '../../../src/payouts/index.ts';
import { oneByOne } from '../../../src/payouts/payoutWriter.ts';
import { createPayoutProjectionForTest, type PayoutWriters } from '../../../src/testing/index.ts';
import { createWorkService, createWorkTelemetry, workItems } from '../../../src/work/index.ts';
import type { StartTestAppOptions } from '../../support/app.ts';
import { waitFor } from '../../support/waiting.ts';

const silent = pino({ level: 'silent' });

export function ledgerOn(db: Db): LedgerService {
  return createLedgerService({ db, telemetry: createLedgerTelemetry(new Registry(), silent) });
}

/** Opens `accountId` with enough money for every withdrawal the test makes. */
export async function fundedAccount(ledger: LedgerService, accountId: string): Promise<void> {
  expect((await ledger.openAccount({ accountId, currency: 'EUR' })).kind).toBe('openAccountSuccess');
  expect((await ledger.deposit({ accountId, amount: 1_000_000_000, requestId: `${accountId}-funding` })).kind).toBe(
    'depositSuccess',
  );
}

/** `count` concurrent withdrawals of 1..count minor units, keyed `${prefix}-i`. */
export async function withdrawMany(
  ledger: LedgerService,
  accountId: string,
  prefix: string,
  count: number,
): Promise<void> {
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) => ledger.withdraw({ accountId, amount: i + 1, requestId: `${prefix}-${i}` })),
  );
  expect(results.map((result) => result.kind)).toEqual(results.map(() => 'withdrawSuccess'));
}

/** Every withdrawal entry id, and how many PAYOUT items name it (by payload, whatever their key). */
export async function payoutsPerWithdrawal(db: Db): Promise<{ withdrawals: string[]; payouts: Map<string, number> }> {
  const withdrawals = (
    await db
      .collection(collectionNames.entries)
      .find({ kind: 'withdrawal' }, { projection: { _id: 1 } })
      .toArray()
  ).map((entry) => String(entry._id));
  const grouped = await workItems(db)
    .aggregate<{ _id: string; n: number }>([
      { $match: { kind: 'PAYOUT' } },
      { $group: { _id: '$payload.entryId', n: { $sum: 1 } } },
    ])
    .toArray();
  return { withdrawals, payouts: new Map(grouped.map(({ _id, n }) => [_id, n])) };
}

/** Waits until every withdrawal has at least one payout; returns the counts. */
export async function awaitAllProjected(db: Db, withdrawalsExpected: number, timeoutMs = 20_000) {
  return waitFor(
    async () => {
      const counts = await payoutsPerWithdrawal(db);
      const done =
        counts.withdrawals.length === withdrawalsExpected && counts.withdrawals.every((id) => counts.payouts.has(id));
      return done ? counts : undefined;
    },
    `${withdrawalsExpected} withdrawals to be projected`,
    timeoutMs,
  );
}

/** P1's check: one payout per withdrawal, and none for anything else. */
export function expectExactlyOnePayoutEach(counts: { withdrawals: string[]; payouts: Map<string, number> }): void {
  expect([...counts.payouts.keys()].sort()).toEqual([...counts.withdrawals].sort());
  expect([...counts.payouts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
}

type ProjectionSettings = Pick<StartTestAppOptions, 'startupTasks' | 'payoutProjection' | 'buildPayoutProjection'>;

/**
 * An app's projection as the test configures it: null leaves its start-up task out; a `writer`
 * replaces the upsert on `payout:<entryId>` (through src/testing, the only door for it).
 */
export function withProjection(
  options: PayoutProjectionOptions | null,
  writer?: PayoutWriter | PayoutWriters,
): ProjectionSettings {
  if (options === null)
    return { startupTasks: (tasks) => tasks.filter((task) => task.name !== PAYOUT_PROJECTION_TASK) };
  return {
    payoutProjection: options,
    ...(writer
      ? {
          buildPayoutProjection: (deps, settings) =>
            createPayoutProjectionForTest(
              deps,
              settings,
              typeof writer === 'function' ? { writePayout: writer } : writer,
            ),
        }
      : {}),
  };
}

/** The real writer (upsert on the unique `payout:<entryId>` key), on `db`. */
export function upsertingWriter(db: Db): PayoutWriter {
  return createWorkService({ db, telemetry: createWorkTelemetry(new Registry(), silent) }).createPayout;
}

// One count for every inserting writer of the run: a writer of a later process must not repeat an
// earlier one's keys, or a replay in the same order would meet them and the meta-test would pass
// or fail by the batches' timing.
let insertingWriterCalls = 0;

/**
 * The unique key removed: each call inserts a new item under a fresh client key (a new id per
 * attempt), so a replayed event makes a second payout. Only the meta-test uses it.
 */
export function insertingWriter(db: Db): PayoutWriter {
  const work = createWorkService({ db, telemetry: createWorkTelemetry(new Registry(), silent) });
  return async ({ entryId, payload }) => {
    const result = await work.create({
      kind: 'PAYOUT',
      payload,
      idempotencyKey: `${entryId}#${++insertingWriterCalls}`,
      maxAttempts: 5,
    });
    return { created: result.kind === 'createWorkItemSuccess' };
  };
}

/**
 * Wraps a writer so that every `everyN`-th batch of the stream fails after its payouts are
 * written: a crash before the token is stored, so the whole batch is handed over again.
 */
export function crashingAfterWrite(writer: PayoutWriter, everyN: number): PayoutWriters {
  const batch = oneByOne(writer);
  let calls = 0;
  return {
    writePayout: writer,
    writePayouts: async (payouts) => {
      const result = await batch(payouts);
      if (++calls % everyN === 0) throw new Error('simulated crash after the payouts, before the token write');
      return result;
    },
  };
}

/** A metric's current value on `registry` (an app's, or a test's own), summed over the matching series. */
export async function metricValue(
  registry: Registry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((value) => Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted))
    .reduce((sum, value) => sum + value.value, 0);
}
