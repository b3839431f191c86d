// A payout projection with the BullMQ sink in a process of its own, for the test that kills it
// (SIGKILL) inside a batch: after the batch's jobs were added to Redis, before their MongoDB
// records were marked added and before the resume token was stored. Once it has marked
// HOLD_AFTER_ENTRIES entries added, the next mark announces itself on stdout and never returns,
// so the kill lands exactly in that window. A short lease lets the next holder in at once.
import { MongoClient } from 'mongodb';
import { Registry } from 'prom-client';
import { pino } from 'pino';
import { createStreamsTelemetry } from '../../../src/fanout/index.ts';
import { createPayoutProjection, createPayoutQueueTelemetry } from '../../../src/payouts/index.ts';
import { ensureWalkIndexes } from '../../../src/payouts/withdrawalWalk.ts';
import { mongoPayoutJobRecords, type PayoutJobRecords } from '../../../src/payouts/payoutJobs.ts';
import { createBullmqPayoutSinkForTest } from '../../../src/testing/index.ts';
import { createWorkService, createWorkTelemetry } from '../../../src/work/index.ts';
import { noPayoutJobRecords } from './bullmq.ts';

const {
  CHILD_MONGO_URI: uri,
  CHILD_DB_NAME: dbName,
  CHILD_REDIS_URL: redisUrl,
  CHILD_QUEUE_NAME: queueName,
  HOLD_AFTER_ENTRIES: holdAfter,
} = process.env;
if (!uri || !dbName || !redisUrl || !queueName || !holdAfter)
  throw new Error(
    'CHILD_MONGO_URI, CHILD_DB_NAME, CHILD_REDIS_URL, CHILD_QUEUE_NAME and HOLD_AFTER_ENTRIES are required',
  );
const client = await MongoClient.connect(uri);
const db = client.db(dbName);
const logger = pino({ level: process.env['CHILD_LOG_LEVEL'] ?? 'silent' }, pino.destination(2));
const registry = new Registry();

// CHILD_RECORDS=none: the meta-test's mutant, the job id alone (no MongoDB record).
const real = process.env['CHILD_RECORDS'] === 'none' ? noPayoutJobRecords() : mongoPayoutJobRecords(db);
let marked = 0;
const holding: PayoutJobRecords = {
  ...real,
  async markAdded(entryIds, by) {
    if (entryIds.length > 0 && marked >= Number(holdAfter)) {
      console.log(`holding in the window: ${entryIds.length} jobs added, not marked`);
      await new Promise(() => undefined);
    }
    marked += entryIds.length;
    return real.markAdded(entryIds, by);
  },
};
const sink = createBullmqPayoutSinkForTest(
  { db, redisUrl, queueName, logger, telemetry: createPayoutQueueTelemetry(registry) },
  holding,
);
await ensureWalkIndexes(db);
await sink.start();
const work = createWorkService({ db, telemetry: createWorkTelemetry(registry, logger) });
const projection = createPayoutProjection(
  { db, logger, telemetry: createStreamsTelemetry(registry), work, sink },
  {
    holder: 'doomed-child',
    leaseDurationMs: 1_000,
    leaseRenewIntervalMs: 300,
    leaseAcquireIntervalMs: 100,
  },
);
projection.start();
console.log('bullmq projection child started');
