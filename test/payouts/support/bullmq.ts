// Helpers of the BullMQ payout sink's tests: the mutant records (the job id alone), a watch of the
// queue's own event stream that counts every add Redis accepted per job id (and every add BullMQ
// refused because the job existed), and the projection process that the kill test ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import type { PayoutJobRecords } from '../../../src/payouts/payoutJobs.ts';
import { waitFor } from '../../support/waiting.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The mutant: no MongoDB record, so only BullMQ's job id stands between a replay and a second job. */
export function noPayoutJobRecords(): PayoutJobRecords {
  return {
    record: async (payouts) => ({ fresh: payouts, unconfirmed: [], added: [] }),
    markAdded: async () => undefined,
    addedAmong: async () => new Set(),
    ensureIndexes: async () => undefined,
  };
}

export interface QueueEventCounts {
  /** Jobs Redis created, per job id (BullMQ's `added` event, written by the add's own script). */
  added: Map<string, number>;
  /** Adds BullMQ refused because a job with that id existed (`duplicated`). */
  duplicated: Map<string, number>;
}

export function totalOf(counts: Map<string, number>): number {
  return [...counts.values()].reduce((sum, n) => sum + n, 0);
}

/**
 * Counts the queue's events from its stream (`bull:<queue>:events`, kept to ~10,000 events, far
 * more than a test adds): read straight with XRANGE, so nothing depends on a listener keeping up.
 */
export async function queueEventCounts(redis: Redis, queueName: string): Promise<QueueEventCounts> {
  const entries = await redis.xrange(`bull:${queueName}:events`, '-', '+');
  const added = new Map<string, number>();
  const duplicated = new Map<string, number>();
  for (const [, fields] of entries) {
    const event: Record<string, string> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) event[fields[i]!] = fields[i + 1]!;
    const map = event['event'] === 'added' ? added : event['event'] === 'duplicated' ? duplicated : null;
    if (map && event['jobId']) map.set(event['jobId'], (map.get(event['jobId']) ?? 0) + 1);
  }
  return { added, duplicated };
}

export interface ProjectionChild {
  process: ChildProcess;
  /** Resolves with the line once the child announced it holds inside an add's window. */
  holding(): Promise<string>;
  kill(): Promise<void>;
}

/** Starts test/payouts/support/bullmqProjectionChild.ts; it holds after `holdAfterEntries` entries were marked added. */
export async function startProjectionChild(env: {
  mongoUri: string;
  dbName: string;
  redisUrl: string;
  queueName: string;
  holdAfterEntries: number;
  records?: 'none';
}): Promise<ProjectionChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/payouts/support/bullmqProjectionChild.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      CHILD_MONGO_URI: env.mongoUri,
      CHILD_DB_NAME: env.dbName,
      CHILD_REDIS_URL: env.redisUrl,
      CHILD_QUEUE_NAME: env.queueName,
      HOLD_AFTER_ENTRIES: String(env.holdAfterEntries),
      ...(env.records ? { CHILD_RECORDS: env.records } : {}),
      ...(process.env['CHILD_LOG_LEVEL'] ? { CHILD_LOG_LEVEL: process.env['CHILD_LOG_LEVEL'] } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const line = (pattern: RegExp, what: string) => waitFor(() => pattern.exec(output)?.[0], what, 30_000);
  await line(/bullmq projection child started/, 'the projection child to start');
  return {
    process: child,
    holding: () => line(/holding in the window: .*/, 'the child to hold inside an add'),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
