// `npm run worker:payouts -- --queue bullmq`: the payout worker over the BullMQ queue the payout
// projection fills when the API runs with PAYOUT_QUEUE=bullmq (docs/payout-queue.md). The same
// provider contract and the same key per entry as the work-item worker (provider.ts, payoutKey),
// so W7 holds here too: a job retried by BullMQ (attempts with backoff) or taken again after its
// worker stalled (killed, paused past its lock) calls the provider under the same key, and the
// provider answers the payout it already made. Before calling the provider the worker marks the
// entry taken in a Redis hash that no queue retention touches: the API's sink reads it when a
// crash left it unsure whether a job it added, then saw removed, had existed (P1).
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { int } from './config.ts';
import { createHttpPayoutProvider, payoutKey, type PayoutProvider } from './provider.ts';
import { jsonLog, type PayoutWorkerLog } from './log.ts';

/** The hash of taken marks; src/payouts/bullmqSink.ts reads the same name (a test holds them equal). */
export function takenMarksKey(queueName: string): string {
  return `precondition:payouts-taken:${queueName}`;
}

/** BullMQ's job id of an entry's payout: its key, URI-encoded (BullMQ refuses a `:` in an id); as src/payouts/payoutJobs.ts makes it. */
export function payoutJobIdOf(entryId: string): string {
  return encodeURIComponent(payoutKey(entryId));
}

export interface BullmqPayoutWorkerConfig {
  redisUrl: string;
  queueName: string;
  providerUrl: string;
  /** Jobs handled at once by this process. */
  concurrency: number;
  providerTimeoutMs: number;
  /** How long SIGTERM/SIGINT lets running payouts finish before the worker closes without them (BullMQ then finds them stalled). */
  shutdownGraceMs: number;
  /** A job's lock; the worker renews it every half of it while the payout runs. Past it, a job whose worker died is stalled. */
  lockDurationMs: number;
  /** How often the worker looks for stalled jobs (whose lock ran out) and moves them back to waiting. */
  stalledIntervalMs: number;
  /** Stalls a job may have before it fails for good (it stays, failed, for an operator). */
  maxStalledCount: number;
  logLevel: 'silent' | 'info' | 'debug';
}

export class BullmqPayoutWorkerConfigError extends Error {
  override readonly name = 'BullmqPayoutWorkerConfigError';
}

const envSchema = z.object({
  REDIS_URL: z
    .string({ error: 'required with --queue bullmq: the Redis the API adds payout jobs to (redis://host:6379)' })
    .regex(/^rediss?:\/\/\S+$/, { error: 'expected a redis:// or rediss:// URL' }),
  PAYOUT_QUEUE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, {
      error: 'expected a queue name of 1 to 100 letters, digits, _, . or - (no colon)',
    })
    .default('payouts'),
  PAYOUT_PROVIDER_URL: z.url({
    protocol: /^https?$/,
    error: 'expected an http:// or https:// URL (payouts are POSTed to <url>/payouts)',
  }),
  PAYOUT_WORKER_CONCURRENCY: int(1, 256, 4),
  PAYOUT_PROVIDER_TIMEOUT_MS: int(100, 600_000, 10_000),
  PAYOUT_WORKER_SHUTDOWN_GRACE_MS: int(0, 600_000, 10_000),
  // Three times the provider's default timeout: a live worker renews long before it runs out.
  PAYOUT_WORKER_LOCK_MS: int(1_000, 600_000, 30_000),
  PAYOUT_WORKER_STALLED_INTERVAL_MS: int(1_000, 600_000, 30_000),
  PAYOUT_WORKER_MAX_STALLED: int(0, 100, 2),
  PAYOUT_WORKER_LOG_LEVEL: z.enum(['silent', 'info', 'debug']).default('info'),
});

/** Reads the BullMQ mode's environment; throws naming every wrong variable, never echoing a value (REDIS_URL may hold a password). */
export function loadBullmqPayoutWorkerConfig(env: NodeJS.ProcessEnv = process.env): BullmqPayoutWorkerConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new BullmqPayoutWorkerConfigError(
      `Invalid payout worker configuration (--queue bullmq):\n${lines.join('\n')}`,
    );
  }
  const e = parsed.data;
  return {
    redisUrl: e.REDIS_URL,
    queueName: e.PAYOUT_QUEUE_NAME,
    providerUrl: e.PAYOUT_PROVIDER_URL,
    concurrency: e.PAYOUT_WORKER_CONCURRENCY,
    providerTimeoutMs: e.PAYOUT_PROVIDER_TIMEOUT_MS,
    shutdownGraceMs: e.PAYOUT_WORKER_SHUTDOWN_GRACE_MS,
    lockDurationMs: e.PAYOUT_WORKER_LOCK_MS,
    stalledIntervalMs: e.PAYOUT_WORKER_STALLED_INTERVAL_MS,
    maxStalledCount: e.PAYOUT_WORKER_MAX_STALLED,
    logLevel: e.PAYOUT_WORKER_LOG_LEVEL,
  };
}

/** A payout job's data, as the API's sink adds it (DESIGN, flow 3). */
const payoutJobData = z.object({
  entryId: z.string().min(1),
  accountId: z.string().min(1),
  amount: z.number().int().positive(),
  currency: z.string().min(1),
});

export interface PayoutJobResult {
  providerId: string;
  key: string;
}

export interface RunningBullmqPayoutWorker {
  worker: Worker;
  close(): Promise<void>;
}

export function startBullmqPayoutWorker(
  config: BullmqPayoutWorkerConfig,
  options: { provider?: PayoutProvider; log?: PayoutWorkerLog } = {},
): RunningBullmqPayoutWorker {
  const log = options.log ?? jsonLog(config.logLevel);
  const provider =
    options.provider ?? createHttpPayoutProvider({ url: config.providerUrl, timeoutMs: config.providerTimeoutMs });
  const marks = new Redis(config.redisUrl, { maxRetriesPerRequest: 3 });
  marks.on('error', () => undefined); // the worker's own connection reports Redis errors
  const marksKey = takenMarksKey(config.queueName);

  const processor = async (job: Job, _token?: string, signal?: AbortSignal): Promise<PayoutJobResult> => {
    const data = payoutJobData.safeParse(job.data);
    // Not retried: no attempt would make a malformed job payable.
    if (!data.success)
      throw new UnrecoverableError(
        `job ${job.id} is not a payout: ${data.error.issues.map((issue) => `${issue.path.join('.') || 'data'}: ${issue.message}`).join('; ')}`,
      );
    const { entryId, accountId, amount, currency } = data.data;
    // Only the projection's jobs carry the id derived from their entry; any other job pays nothing.
    if (job.id !== payoutJobIdOf(entryId))
      throw new UnrecoverableError(
        `job ${job.id} was not added by the payout projection for entry ${entryId}: not paid`,
      );
    // Before the provider call: once a job was taken, the API's sink never adds it again.
    await marks.hsetnx(marksKey, entryId, job.id);
    const key = payoutKey(entryId);
    const receipt = await provider.pay({ key, entryId, accountId, amount, currency }, signal);
    return { providerId: receipt.id, key };
  };

  // BullMQ closes the connections it made (its blocking one) but not one it was given: this one is
  // quit below, after the worker. An ioredis client nobody quits reconnects for ever.
  const connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', () => undefined); // reported by the worker's 'error' event
  const worker = new Worker(config.queueName, processor, {
    connection,
    concurrency: config.concurrency,
    lockDuration: config.lockDurationMs,
    stalledInterval: config.stalledIntervalMs,
    maxStalledCount: config.maxStalledCount,
  });
  worker.on('completed', (job, result: PayoutJobResult) =>
    log.debug({
      msg: 'payout done',
      jobId: job.id,
      key: result.key,
      providerId: result.providerId,
      attempt: job.attemptsMade,
    }),
  );
  worker.on('failed', (job, error) =>
    log.info({
      msg: 'payout failed',
      jobId: job?.id,
      attempt: job?.attemptsMade,
      attempts: job?.opts.attempts,
      error: error.message,
    }),
  );
  worker.on('stalled', (jobId) =>
    log.info({ msg: 'payout job stalled (its worker stopped renewing the lock); it runs again', jobId }),
  );
  worker.on('error', (error) => log.info({ msg: 'payout worker error', error: error.message }));
  log.info({
    msg: 'payout worker started',
    queue: config.queueName,
    concurrency: config.concurrency,
    lockDurationMs: config.lockDurationMs,
    stalledIntervalMs: config.stalledIntervalMs,
    maxStalledCount: config.maxStalledCount,
    provider: config.providerUrl,
  });

  let closed: Promise<void> | null = null;
  return {
    worker,
    close() {
      return (closed ??= (async () => {
        // Running payouts get the grace period; past it the worker closes without them and their
        // locks run out, so another worker takes them as stalled (same key, paid once).
        let timer: NodeJS.Timeout | undefined;
        const graceOver = new Promise<'grace over'>(
          (resolve) => (timer = setTimeout(() => resolve('grace over'), config.shutdownGraceMs)),
        );
        const outcome = await Promise.race([worker.close(), graceOver]);
        clearTimeout(timer);
        if (outcome === 'grace over') await worker.close(true);
        await marks.quit().catch(() => marks.disconnect());
        await connection.quit().catch(() => connection.disconnect());
        log.info({ msg: 'payout worker stopped', queue: config.queueName });
      })());
    },
  };
}
