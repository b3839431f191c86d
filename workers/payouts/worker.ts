// The payout worker, assembled: an SDK client and createWorker over the PAYOUT kind, the HTTP
// provider (or one given), and log lines for what an operator follows. main.ts runs it as a
// process; a test may start it with another provider.
import { createClient, createWorker, type Worker } from '@precondition/sdk';
import WebSocket from 'ws';
import type { PayoutWorkerConfig } from './config.ts';
import { createPayoutHandler, PAYOUT_KIND } from './handler.ts';
import { createHttpPayoutProvider, type PayoutProvider } from './provider.ts';

export interface PayoutWorkerLog {
  info(line: Record<string, unknown>): void;
  debug(line: Record<string, unknown>): void;
}

/** One JSON object per line on stdout, as the API logs. */
export function jsonLog(level: PayoutWorkerConfig['logLevel'], write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): PayoutWorkerLog {
  const emit = (name: string) => (line: Record<string, unknown>) => write(JSON.stringify({ time: new Date().toISOString(), level: name, ...line }));
  const nothing = () => undefined;
  return { info: level === 'silent' ? nothing : emit('info'), debug: level === 'debug' ? emit('debug') : nothing };
}

export interface RunningPayoutWorker {
  worker: Worker;
  /** Stops claiming, lets running payouts finish within the grace period (then releases them), closes the client. */
  close(): Promise<void>;
}

export function startPayoutWorker(config: PayoutWorkerConfig, options: { provider?: PayoutProvider; log?: PayoutWorkerLog } = {}): RunningPayoutWorker {
  const log = options.log ?? jsonLog(config.logLevel);
  const provider = options.provider ?? createHttpPayoutProvider({ url: config.providerUrl, timeoutMs: config.providerTimeoutMs });
  const client = createClient({ url: config.apiUrl, apiKey: config.apiKey, webSocketImpl: WebSocket });
  const worker = createWorker({
    client,
    kinds: [PAYOUT_KIND],
    concurrency: config.concurrency,
    leaseSeconds: config.leaseSeconds,
    poll: { maxMs: config.pollMaxMs },
    ...(config.workerId ? { workerId: config.workerId } : {}),
    handler: createPayoutHandler(provider),
    on: {
      claimed: ({ item }) => log.debug({ msg: 'payout claimed', itemId: item.id, key: item.idempotencyKey, attempt: item.attempts, version: item.version }),
      completed: ({ item, result }) => log.debug({ msg: 'payout done', itemId: item.id, key: item.idempotencyKey, result }),
      failed: ({ item, error }) => log.info({ msg: 'payout failed', itemId: item.id, key: item.idempotencyKey, attempt: item.attempts, error: messageOf(error) }),
      leaseLost: ({ item, reason }) => log.info({ msg: 'payout lease lost', itemId: item.id, key: item.idempotencyKey, version: item.version, reason }),
      error: ({ error }) => log.info({ msg: 'payout worker error', error: messageOf(error) }),
    },
  });
  log.info({ msg: 'payout worker started', workerId: worker.workerId, kind: PAYOUT_KIND, concurrency: config.concurrency, leaseSeconds: config.leaseSeconds, api: config.apiUrl, provider: config.providerUrl });
  let closed: Promise<void> | null = null;
  return {
    worker,
    close() {
      return (closed ??= (async () => {
        await worker.close({ timeoutMs: config.shutdownGraceMs });
        await client.close();
        log.info({ msg: 'payout worker stopped', workerId: worker.workerId });
      })());
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
