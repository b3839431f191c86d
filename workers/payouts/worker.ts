// The payout worker, assembled: an SDK client and createWorker over the PAYOUT kind, the HTTP
// provider (or one given), and log lines for what an operator follows. main.ts runs it as a
// process; a test may start it with another provider.
import { createClient, createWorker, type Worker } from '@precondition/sdk';
import WebSocket from 'ws';
import type { PayoutWorkerConfig } from './config.ts';
import { createPayoutHandler, PAYOUT_KIND } from './handler.ts';
import { createHttpPayoutProvider, type PayoutProvider } from './provider.ts';

// The log lines live in log.ts, which the BullMQ mode (bullmq.ts) shares without loading the SDK.
import { jsonLog, type PayoutWorkerLog } from './log.ts';
export { jsonLog, type PayoutWorkerLog };

export interface RunningPayoutWorker {
  worker: Worker;
  /**
   * Settles when the API refused the key itself (UNAUTHENTICATED: unknown or malformed; FORBIDDEN:
   * a role that may not claim): no retry can help, so the process stops rather than poll forever.
   */
  refused: Promise<string>;
  /** Stops claiming, lets running payouts finish within the grace period (then releases them), closes the client. */
  close(): Promise<void>;
}

export function startPayoutWorker(
  config: PayoutWorkerConfig,
  options: { provider?: PayoutProvider; log?: PayoutWorkerLog } = {},
): RunningPayoutWorker {
  const log = options.log ?? jsonLog(config.logLevel);
  const provider =
    options.provider ?? createHttpPayoutProvider({ url: config.providerUrl, timeoutMs: config.providerTimeoutMs });
  const client = createClient({ url: config.apiUrl, apiKey: config.apiKey, webSocketImpl: WebSocket });
  let refuse: (message: string) => void = () => undefined;
  const refused = new Promise<string>((resolve) => (refuse = resolve));
  const worker = createWorker({
    client,
    kinds: [PAYOUT_KIND],
    concurrency: config.concurrency,
    leaseSeconds: config.leaseSeconds,
    poll: { maxMs: config.pollMaxMs },
    ...(config.workerId ? { workerId: config.workerId } : {}),
    handler: createPayoutHandler(provider),
    on: {
      claimed: ({ item }) =>
        log.debug({
          msg: 'payout claimed',
          itemId: item.id,
          key: item.idempotencyKey,
          attempt: item.attempts,
          version: item.version,
        }),
      // A working worker says what it paid: one line per payout, as the API logs one per withdrawal.
      completed: ({ item, result }) =>
        log.info({ msg: 'payout done', itemId: item.id, key: item.idempotencyKey, result }),
      failed: ({ item, error }) =>
        log.info({
          msg: 'payout failed',
          itemId: item.id,
          key: item.idempotencyKey,
          attempt: item.attempts,
          error: messageOf(error),
        }),
      leaseLost: ({ item, reason }) =>
        log.info({
          msg: 'payout lease lost',
          itemId: item.id,
          key: item.idempotencyKey,
          version: item.version,
          reason,
        }),
      error: ({ error }) => {
        const code = (error as { code?: unknown }).code;
        if (code === 'UNAUTHENTICATED' || code === 'FORBIDDEN') {
          refuse(
            `the API at ${config.apiUrl} refused API_KEY (${messageOf(error)}): set API_KEY to a key of the worker role from the API's API_KEYS (or, against a development server, the admin key npm start printed)`,
          );
          return;
        }
        log.info({ msg: 'payout worker error', error: messageOf(error) });
      },
    },
  });
  log.info({
    msg: 'payout worker started',
    workerId: worker.workerId,
    kind: PAYOUT_KIND,
    concurrency: config.concurrency,
    leaseSeconds: config.leaseSeconds,
    api: config.apiUrl,
    provider: config.providerUrl,
  });
  let closed: Promise<void> | null = null;
  return {
    worker,
    refused,
    close() {
      return (closed ??= (async () => {
        await worker.close({ timeoutMs: config.shutdownGraceMs });
        // A socket the API refused (4401, 4403) rejects its close with that close event: nothing is left to close.
        await client.close().catch(() => undefined);
        log.info({ msg: 'payout worker stopped', workerId: worker.workerId });
      })());
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
