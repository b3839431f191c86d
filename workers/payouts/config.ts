// The payout worker's configuration, read once from the environment at start and validated with
// zod: a wrong or missing variable stops the process with a message naming each one and what it
// expected (never echoing a value: API_KEY is a secret).
import { z } from 'zod';

export interface PayoutWorkerConfig {
  /** The API's GraphQL endpoint (http://host:port/graphql). */
  apiUrl: string;
  /** A key of the `worker` role (or any role that may claim, heartbeat and complete). */
  apiKey: string;
  /** The provider's base URL; payouts are POSTed to `<url>/payouts`. */
  providerUrl: string;
  /** PAYOUT items handled at once by this process. */
  concurrency: number;
  /** Each claim's lease; heartbeats renew it every third of it. */
  leaseSeconds: number;
  /** One provider call's longest wait. */
  providerTimeoutMs: number;
  /** How long SIGTERM/SIGINT lets running payouts finish before they are released. */
  shutdownGraceMs: number;
  /** Idle polling's longest interval when no subscription event wakes the worker. */
  pollMaxMs: number;
  /** Names this process in claims and in every item's history; a random id when unset. */
  workerId: string | undefined;
  /** Log lines: `info` (start, stop, each payout made, lease lost, failures and errors), `debug` (each claim too), or `silent`. */
  logLevel: 'silent' | 'info' | 'debug';
}

export class PayoutWorkerConfigError extends Error {
  override readonly name = 'PayoutWorkerConfigError';
}

/** An integer variable between `min` and `max`, `fallback` when unset; one message for every way it can be wrong. */
export const int = (min: number, max: number, fallback: number) => {
  const expected = `expected an integer between ${min} and ${max}`;
  return z.coerce
    .number({ error: expected })
    .int({ error: expected })
    .min(min, { error: expected })
    .max(max, { error: expected })
    .default(fallback);
};

const httpUrl = (example: string) =>
  z.url({ protocol: /^https?$/, error: `expected an http:// or https:// URL such as ${example}` });

const envSchema = z.object({
  API_URL: httpUrl('http://localhost:4000/graphql'),
  API_KEY: z
    .string({ error: "expected an API key of the worker role, as the API's API_KEYS grants it" })
    .regex(/^\S+$/, { error: 'expected the bare key (no spaces, no "Bearer " prefix)' }),
  PAYOUT_PROVIDER_URL: httpUrl('https://payouts.example.com (payouts are POSTed to <url>/payouts)'),
  PAYOUT_WORKER_CONCURRENCY: int(1, 256, 4),
  // The server refuses leases past WorkLimits.leaseMaxSeconds (3 600).
  PAYOUT_WORKER_LEASE_SECONDS: int(1, 3_600, 30),
  PAYOUT_PROVIDER_TIMEOUT_MS: int(100, 600_000, 10_000),
  PAYOUT_WORKER_SHUTDOWN_GRACE_MS: int(0, 600_000, 10_000),
  PAYOUT_WORKER_POLL_MAX_MS: int(10, 600_000, 5_000),
  PAYOUT_WORKER_ID: z
    .string()
    .regex(/^[\w.:-]{1,128}$/, { error: 'expected 1 to 128 letters, digits, or . _ : -' })
    .optional(),
  PAYOUT_WORKER_LOG_LEVEL: z.enum(['silent', 'info', 'debug']).default('info'),
});

/** Reads and validates the environment; throws a PayoutWorkerConfigError naming every wrong variable. */
export function loadPayoutWorkerConfig(env: NodeJS.ProcessEnv = process.env): PayoutWorkerConfig {
  // An empty variable means unset, as in the API's own config.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      return `  ${name || '(environment)'}: ${name && !(name in present) ? `required; ${issue.message}` : issue.message}`;
    });
    throw new PayoutWorkerConfigError(`Invalid payout worker configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    apiUrl: e.API_URL,
    apiKey: e.API_KEY,
    providerUrl: e.PAYOUT_PROVIDER_URL,
    concurrency: e.PAYOUT_WORKER_CONCURRENCY,
    leaseSeconds: e.PAYOUT_WORKER_LEASE_SECONDS,
    providerTimeoutMs: e.PAYOUT_PROVIDER_TIMEOUT_MS,
    shutdownGraceMs: e.PAYOUT_WORKER_SHUTDOWN_GRACE_MS,
    pollMaxMs: e.PAYOUT_WORKER_POLL_MAX_MS,
    workerId: e.PAYOUT_WORKER_ID,
    logLevel: e.PAYOUT_WORKER_LOG_LEVEL,
  };
}
