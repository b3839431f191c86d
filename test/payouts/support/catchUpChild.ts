// A payout projection in a process of its own, for the test that kills it halfway through a
// catch-up: a short lease and a slow, small-paged walk, so the kill lands in the middle.
import { MongoClient } from 'mongodb';
import { Registry } from 'prom-client';
import { pino } from 'pino';
import { createStreamsTelemetry } from '../../../src/fanout/index.ts';
import { createPayoutProjection } from '../../../src/payouts/index.ts';
import { createWorkService, createWorkTelemetry } from '../../../src/work/index.ts';

const uri = process.env['CATCH_UP_MONGO_URI'];
const dbName = process.env['CATCH_UP_DB_NAME'];
if (!uri || !dbName) throw new Error('CATCH_UP_MONGO_URI and CATCH_UP_DB_NAME are required');
const client = await MongoClient.connect(uri);
const db = client.db(dbName);
const logger = pino({ level: 'info' });
const registry = new Registry();
const work = createWorkService({ db, telemetry: createWorkTelemetry(registry, logger) });
const projection = createPayoutProjection(
  { db, logger, telemetry: createStreamsTelemetry(registry), work },
  {
    holder: 'doomed-child',
    leaseDurationMs: 1_000,
    leaseRenewIntervalMs: 300,
    leaseAcquireIntervalMs: 100,
    catchUp: { batchMax: 10, pagesPerSliceMax: 1, pauseMs: 100 },
  },
);
projection.start();
console.log('catch-up child started');
