import { Queue, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { Db } from 'mongodb';
import type { Logger } from '../observability/logger.ts';
import { PayoutQueueLimits } from './limits.ts';
import { mongoPayoutJobRecords, payoutJobId, type PayoutJobRecords } from './payoutJobs.ts';
import type { Payout } from './payoutWriter.ts';
import type { PayoutSink, SinkDependencyHealth } from './sink.ts';
import type { PayoutQueueTelemetry } from './telemetry.ts';

// PAYOUT_QUEUE=bullmq: the projection adds one BullMQ job per applied withdrawal (seed 003's
// watcher plus queue). The job id alone cannot keep P1: BullMQ accepts an id again once its job
// was removed (removeOnComplete, removeOnFail, a clean-up), so a replay from an older token would
// add a second job. The order that keeps one job per entry (docs/payout-queue.md):
//   1. record `payout:<entryId>` in MongoDB (unique _id, src/payouts/payoutJobs.ts), state `recorded`;
//   2. add the job (job id from the same key); Redis acknowledges;
//   3. mark the record `added`; the projection then stores its resume token.
// A replay meets the record: `added` is skipped whatever the queue kept. `recorded` means a crash
// (or a Redis failure) came between 1 and 3: the add may or may not have happened. If the job
// still exists, BullMQ refuses the second add by its id. If it was added, taken and removed, the
// worker's taken mark says so (set before the worker calls the provider, in a hash no retention
// touches): the sink marks the record `added` without adding. Only a job removed before any worker
// took it (an operator's clean-up of waiting jobs inside that window) is added again, and the
// provider's key per entry still pays it once (W7).

/** The hash where BullMQ payout workers mark the entries they took (workers/payouts/bullmq.ts writes it; the same name there). */
export function takenMarksKey(queueName: string): string {
  return `precondition:payouts-taken:${queueName}`;
}

/** What a payout job carries (DESIGN, flow 3). */
export interface PayoutJobData {
  entryId: string;
  accountId: string;
  /** Minor units. */
  amount: number;
  currency: string;
}

export const PAYOUT_JOB_NAME = 'payout';

export function payoutJobOptions(entryId: string): JobsOptions {
  return {
    jobId: payoutJobId(entryId),
    attempts: PayoutQueueLimits.jobAttempts,
    backoff: { type: 'exponential', delay: PayoutQueueLimits.jobBackoffMs },
    removeOnComplete: { age: PayoutQueueLimits.completedKeepSeconds, count: PayoutQueueLimits.completedKeepCount },
    // A job that used up its attempts stays, failed, for an operator (BullMQ's dead letter).
    removeOnFail: false,
  };
}

export interface BullmqSinkOptions {
  db: Db;
  redisUrl: string;
  queueName: string;
  logger: Logger;
  telemetry: PayoutQueueTelemetry;
}

/** The production BullMQ sink: its records in MongoDB. */
export function createBullmqPayoutSink(options: BullmqSinkOptions): PayoutSink {
  return bullmqSinkFrom(options, mongoPayoutJobRecords(options.db));
}

/** With other records: only src/testing hands in a replacement (the meta-test's mutant without them). */
export function bullmqSinkFrom(options: BullmqSinkOptions, records: PayoutJobRecords): PayoutSink {
  const { queueName, logger, telemetry } = options;
  let connection: { redis: Redis; queue: Queue } | null = null;
  let lastRedisError: string | null = null;

  const connected = () => {
    if (!connection) throw new Error('the BullMQ payout sink is not started');
    return connection;
  };

  async function addAll(payouts: Payout[]): Promise<void> {
    if (payouts.length === 0) return;
    const { queue } = connected();
    const jobs = payouts.map(({ payload }) => ({
      name: PAYOUT_JOB_NAME,
      data: {
        entryId: payload.entryId,
        accountId: payload.accountId,
        amount: payload.amount,
        currency: payload.currency,
      } satisfies PayoutJobData,
      opts: payoutJobOptions(payload.entryId),
    }));
    try {
      await withTimeout(queue.addBulk(jobs), PayoutQueueLimits.addTimeoutMs, 'adding payout jobs to BullMQ');
    } catch (error) {
      telemetry.addFailuresTotal.inc(payouts.length);
      throw error;
    }
    telemetry.jobsAddedTotal.inc(payouts.length);
  }

  /** Of the unconfirmed payouts, those a worker already took (their job existed for sure). */
  async function takenAmong(payouts: Payout[]): Promise<Set<string>> {
    if (payouts.length === 0) return new Set();
    const { redis } = connected();
    const marks = await withTimeout(
      redis.hmget(takenMarksKey(queueName), ...payouts.map((payout) => payout.entryId)),
      PayoutQueueLimits.addTimeoutMs,
      'reading the taken marks',
    );
    return new Set(payouts.filter((_, index) => marks[index] !== null).map((payout) => payout.entryId));
  }

  const writePayouts = async (payouts: Payout[]) => {
    const batch = await records.record(payouts, queueName);
    if (batch.added.length > 0) telemetry.addsSkippedTotal.inc({ reason: 'recorded' }, batch.added.length);
    const taken = await takenAmong(batch.unconfirmed);
    if (taken.size > 0) {
      telemetry.addsSkippedTotal.inc({ reason: 'taken' }, taken.size);
      await records.markAdded([...taken], 'takenMark');
    }
    const toAdd = [...batch.fresh, ...batch.unconfirmed.filter((payout) => !taken.has(payout.entryId))];
    await addAll(toAdd);
    // Only after Redis acknowledged: a crash before this line leaves them `recorded`, handled above on the replay.
    await records.markAdded(
      toAdd.map((payout) => payout.entryId),
      'ack',
    );
    return { created: batch.fresh.length };
  };

  return {
    kind: 'bullmq',
    queueName,
    writePayouts,
    writePayout: async (payout) => ({ created: (await writePayouts([payout])).created === 1 }),
    entriesWithPayout: (entryIds) => records.addedAmong(entryIds),
    async start() {
      await records.ensureIndexes();
      if (connection) return;
      // No offline queue: while Redis is down a command fails at once (the projection backs off and
      // replays from its stored position) instead of piling up in memory. ioredis keeps reconnecting.
      const redis = new Redis(options.redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: PayoutQueueLimits.connectTimeoutMs,
      });
      redis.on('error', (error: Error) => {
        if (lastRedisError !== error.message) logger.warn({ err: error }, 'payout queue: Redis connection error');
        lastRedisError = error.message;
      });
      redis.on('ready', () => {
        if (lastRedisError !== null) logger.info('payout queue: Redis connection back');
        lastRedisError = null;
      });
      const queue = new Queue(queueName, { connection: redis });
      queue.on('error', () => undefined); // the connection's own listener logs it once
      connection = { redis, queue };
    },
    async check(): Promise<SinkDependencyHealth> {
      const startedAtMs = Date.now();
      try {
        await withTimeout(connected().redis.ping(), PayoutQueueLimits.pingTimeoutMs, 'ping');
        return { name: 'redis', ok: true, latencyMs: Date.now() - startedAtMs, error: null };
      } catch (error) {
        return {
          name: 'redis',
          ok: false,
          latencyMs: null,
          error: error instanceof Error ? error.message : String(error),
        };
      }
    },
    async close() {
      const open = connection;
      connection = null;
      if (!open) return;
      await withTimeout(open.queue.close(), PayoutQueueLimits.addTimeoutMs, 'closing the queue').catch(() => undefined);
      await open.redis.quit().catch(() => open.redis.disconnect());
    },
  };
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from Redis within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
