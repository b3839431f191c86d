// The one place that reads the environment. Every variable is validated here with zod; a wrong
// value stops start-up with a message naming the variable and what it expected. To add a limit,
// add one line to `envSchema` (and one row to the README's configuration table).
import { z } from 'zod';
import { parseApiKeys, type ApiKeyEntry } from './access/apiKeys.ts';
import { isRole, ROLES, type Role } from './access/roles.ts';
import type { BucketSize, RateLimits } from './access/rateLimits.ts';
import {
  readManifest,
  TRUSTED_DOCUMENT_MODES,
  type TrustedDocumentsConfig,
} from './access/trustedDocumentsManifest.ts';
import { resolve } from 'node:path';

export const MONGO_ENGINES = ['uri', 'memory-server', 'emulator'] as const;

/** PAYOUT_QUEUE: where the payout projection hands payouts (docs/payout-queue.md); the same list as src/payouts/sink.ts's PAYOUT_SINK_KINDS. */
export const PAYOUT_QUEUES = ['work-items', 'bullmq'] as const;

/** Where payouts go: the API's work items (the default), or a BullMQ queue on Redis. */
export type PayoutQueueConfig = { kind: 'work-items' } | { kind: 'bullmq'; redisUrl: string; queueName: string };
export type MongoEngineKind = (typeof MONGO_ENGINES)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** json: one JSON object per line (for collectors; the default); pretty: one readable line each, for a terminal. */
const LOG_FORMATS = ['json', 'pretty'] as const;

const intVar = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: `expected an integer between ${min} and ${max}` })
    .int({ error: `expected an integer between ${min} and ${max}` })
    .min(min, { error: `expected an integer between ${min} and ${max}` })
    .max(max, { error: `expected an integer between ${min} and ${max}` })
    .default(fallback);

/**
 * Per-key token buckets by role, as `perSecond/burst`. One key usually serves a whole client
 * (every worker, every dashboard user), so the seed's peak on one key must fit with room: 900
 * withdrawals/s plus the work items a service creates (`service`), 900 payouts/s = 1,800 claim
 * and complete calls/s (`worker`), 200 entry pages/s (`dashboard`). The limit stops a runaway
 * client, not a busy one. `ops` and `admin` are people and scripts.
 */
export const RATE_LIMITS_DEFAULT: RateLimits = Object.freeze({
  dashboard: { perSecond: 500, burst: 1_000 },
  ops: { perSecond: 50, burst: 100 },
  worker: { perSecond: 5_000, burst: 10_000 },
  service: { perSecond: 5_000, burst: 10_000 },
  admin: { perSecond: 200, burst: 400 },
});

/** `role=perSecond/burst,...` over the defaults; `off` turns the limit off. */
function parseRateLimits(raw: string): { ok: true; limits: RateLimits | null } | { ok: false; error: string } {
  if (raw.trim() === 'off') return { ok: true, limits: null };
  const limits: Record<Role, BucketSize> = { ...RATE_LIMITS_DEFAULT };
  for (const [index, entry] of raw.split(',').entries()) {
    const match = /^\s*([a-z]+)=(\d+(?:\.\d+)?)\/(\d+)\s*$/.exec(entry);
    if (!match)
      return { ok: false, error: `entry ${index + 1}: expected role=perSecond/burst (e.g. worker=200/400) or off` };
    const [, role, perSecond, burst] = match as unknown as [string, string, string, string];
    if (!isRole(role)) return { ok: false, error: `entry ${index + 1}: expected a role among ${ROLES.join(', ')}` };
    if (Number(perSecond) <= 0 || Number(burst) < 1)
      return { ok: false, error: `entry ${index + 1}: expected perSecond > 0 and burst ≥ 1` };
    limits[role] = { perSecond: Number(perSecond), burst: Number(burst) };
  }
  return { ok: true, limits: Object.freeze(limits) };
}

/**
 * How long a client may take to send a request, sized for this API rather than Node's minutes
 * (a connection held open by a slow client is a socket and a parser the process cannot give to
 * another). Headers are a few hundred bytes, at most Node's 16 KiB maxHeaderSize: they arrive in
 * one round trip, so 10 s is a very bad network with room. A body is at most
 * HTTP_BODY_LIMIT_BYTES (1 MiB): at 64 KiB/s, a poor mobile link, 16 s; with the headers, 30 s.
 * An idle keep-alive connection closes after 5 s (Node's default), longer than undici's 4 s
 * client-side idle timeout (Node's fetch, the SDK), so the client, not the server, closes a pooled
 * connection first and never sends on one being closed.
 */
export const HTTP_TIMEOUTS_DEFAULT = Object.freeze({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 });

const envSchema = z
  .object({
    PORT: intVar(0, 65_535, 4000),
    HOST: z.string().min(1).default('0.0.0.0'),
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    LOG_FORMAT: z.enum(LOG_FORMATS).default('json'),
    // Traces over OTLP/HTTP to <endpoint>/v1/traces when set; no tracing SDK runs when unset.
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    OTEL_SERVICE_NAME: z.string().min(1).default('precondition'),
    MONGODB_URI: z
      .string()
      .regex(/^mongodb(\+srv)?:\/\/\S+$/, { error: 'expected a mongodb:// or mongodb+srv:// connection string' })
      .optional(),
    MONGODB_DB: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,63}$/, { error: 'expected a database name (letters, digits, _ or -)' })
      .default('precondition'),
    MONGO_ENGINE: z.enum(MONGO_ENGINES).optional(),
    // mongodb-memory-server's own variables, read here too: engine resolution (src/db/engine.ts)
    // decides whether a mongod can be had before it starts the library.
    MONGOMS_SYSTEM_BINARY: z.string().min(1).optional(),
    MONGOMS_DOWNLOAD_URL: z.string().min(1).optional(),
    MONGOMS_DOWNLOAD_MIRROR: z.string().min(1).optional(),
    API_KEYS: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined || raw.trim() === '') return undefined;
        const parsed = parseApiKeys(raw);
        if (parsed.ok) return parsed.entries;
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }),
    RATE_LIMITS: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined) return RATE_LIMITS_DEFAULT;
        const parsed = parseRateLimits(raw);
        if (parsed.ok) return parsed.limits;
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }),
    // W5: per-kind concurrency limits across every API process, e.g. PAYOUT=8,EMAIL=2.
    WORK_KIND_LIMITS: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        const parsed = parseWorkKindLimits(raw ?? '');
        if (parsed.ok) return parsed.limits;
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }),
    // W9: per-group concurrency limits of a kind across every API process, e.g. PAYOUT=2.
    WORK_GROUP_LIMITS: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        const parsed = parseWorkKindLimits(raw ?? '');
        if (parsed.ok) return parsed.limits;
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }),
    TRUSTED_DOCUMENTS: z.enum(TRUSTED_DOCUMENT_MODES).default('off'),
    TRUSTED_DOCUMENTS_MANIFEST: z.string().min(1).default('packages/sdk/trusted-documents.json'),
    TRUSTED_DOCUMENTS_ADMIN_ADHOC: z.enum(['0', '1'], { error: 'expected 0 or 1' }).default('0'),
    // Limits. Units go last in every name.
    MONGO_SOCKET_TIMEOUT_MS: intVar(100, 600_000, 10_000),
    MONGO_SERVER_SELECTION_TIMEOUT_MS: intVar(100, 600_000, 10_000),
    MONGOD_DOWNLOAD_PROBE_TIMEOUT_MS: intVar(100, 60_000, 3_000),
    HTTP_BODY_LIMIT_BYTES: intVar(1_024, 10_485_760, 1_048_576),
    SHUTDOWN_GRACE_MS: intVar(0, 120_000, 10_000),
    // Slow clients (Node's defaults: 60 s for headers, 300 s per request). Each default derived in
    // HTTP_TIMEOUTS_DEFAULT below.
    HTTP_HEADERS_TIMEOUT_MS: intVar(500, 120_000, HTTP_TIMEOUTS_DEFAULT.headersMs),
    HTTP_REQUEST_TIMEOUT_MS: intVar(500, 600_000, HTTP_TIMEOUTS_DEFAULT.requestMs),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: intVar(500, 600_000, HTTP_TIMEOUTS_DEFAULT.keepAliveMs),
    // Query limits (graphql-armor); src/server/queryLimits.ts derives each default.
    GRAPHQL_DEPTH_MAX: intVar(1, 100, 10),
    GRAPHQL_ALIASES_MAX: intVar(0, 1_000, 30),
    GRAPHQL_COST_MAX: intVar(1, 1_000_000, 12_000),
    GRAPHQL_TOKENS_MAX: intVar(1, 100_000, 2_400),
    GRAPHQL_DIRECTIVES_MAX: intVar(0, 1_000, 10),
    GRAPHQL_BATCH_MAX: intVar(1, 100, 10),
    // Where the payout projection hands payouts: work items (default) or a BullMQ queue on REDIS_URL.
    PAYOUT_QUEUE: z.enum(PAYOUT_QUEUES, { error: `expected ${PAYOUT_QUEUES.join(' or ')}` }).default('work-items'),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\/\S+$/, { error: 'expected a redis:// or rediss:// URL (e.g. redis://127.0.0.1:6379)' })
      .optional(),
    // BullMQ keys are <prefix>:<queue>:<...>: a colon in the name would blur them.
    PAYOUT_QUEUE_NAME: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,100}$/, {
        error: 'expected a queue name of 1 to 100 letters, digits, _, . or - (no colon)',
      })
      .default('payouts'),
    // On the embedded engine only: open the README's demo accounts at start-up (0 turns it off).
    SEED_DEMO: z.enum(['0', '1'], { error: 'expected 0 or 1' }).default('1'),
    DATA_DIR: z.string().min(1).default('.data'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.API_KEYS === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['API_KEYS'],
        message: 'required when NODE_ENV=production (format: token1=role1,token2=role2)',
      });
    }
    if (env.TRUSTED_DOCUMENTS === 'enforce') {
      const manifest = readManifest(resolve(env.TRUSTED_DOCUMENTS_MANIFEST));
      if (!manifest.ok)
        ctx.addIssue({
          code: 'custom',
          path: ['TRUSTED_DOCUMENTS_MANIFEST'],
          message: `TRUSTED_DOCUMENTS=enforce, but ${manifest.error}`,
        });
    }
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      // Node refuses it too: the headers are part of the request.
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must not be longer than HTTP_REQUEST_TIMEOUT_MS',
      });
    }
    if (env.PAYOUT_QUEUE === 'bullmq' && env.REDIS_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_URL'],
        message: 'required when PAYOUT_QUEUE=bullmq (e.g. redis://127.0.0.1:6379)',
      });
    }
    if (env.MONGO_ENGINE === 'uri' && env.MONGODB_URI === undefined) {
      ctx.addIssue({ code: 'custom', path: ['MONGODB_URI'], message: 'required when MONGO_ENGINE=uri' });
    }
  });

export interface Config {
  port: number;
  host: string;
  nodeEnv: 'development' | 'test' | 'production';
  logLevel: (typeof LOG_LEVELS)[number];
  logFormat: (typeof LOG_FORMATS)[number];
  /** OTEL_EXPORTER_OTLP_ENDPOINT: where traces go; null when tracing is off. */
  otlpEndpoint: string | null;
  otelServiceName: string;
  mongodbUri: string | undefined;
  mongodbDb: string;
  mongoEngine: MongoEngineKind | undefined;
  /** MONGOMS_SYSTEM_BINARY: a mongod binary to run instead of a cached or downloaded one. */
  mongodSystemBinary: string | undefined;
  /** MONGOMS_DOWNLOAD_URL, else MONGOMS_DOWNLOAD_MIRROR: where a mongod would be downloaded from. */
  mongodDownloadUrl: string | undefined;
  /** Undefined when API_KEYS is unset: outside production a random admin key is generated. */
  apiKeys: readonly ApiKeyEntry[] | undefined;
  seedDemo: boolean;
  /** DATA_DIR, absolute: what a development server keeps across restarts (the generated admin key, the embedded engine's data). */
  dataDir: string;
  /** Token buckets per API key by role; null when RATE_LIMITS=off. */
  rateLimits: RateLimits | null;
  trustedDocuments: TrustedDocumentsConfig;
  /** PAYOUT_QUEUE, REDIS_URL, PAYOUT_QUEUE_NAME: where the payout projection hands payouts. */
  payoutQueue: PayoutQueueConfig;
  /** WORK_KIND_LIMITS: kind → most items of it PROCESSING at once, across all processes (written to the database at start-up). */
  workKindLimits: Readonly<Record<string, number>>;
  /** WORK_GROUP_LIMITS: kind → most items of each of its groups PROCESSING at once, across all processes. */
  workGroupLimits: Readonly<Record<string, number>>;
  limits: {
    mongoSocketTimeoutMs: number;
    mongoServerSelectionTimeoutMs: number;
    mongodDownloadProbeTimeoutMs: number;
    httpBodyLimitBytes: number;
    shutdownGraceMs: number;
    /** A request's headers must all arrive within this (a client dripping them is cut). */
    httpHeadersTimeoutMs: number;
    /** A whole request (headers and body) must arrive within this. */
    httpRequestTimeoutMs: number;
    /** An idle keep-alive connection is closed after this. */
    httpKeepAliveTimeoutMs: number;
    graphqlDepthMax: number;
    graphqlAliasesMax: number;
    graphqlCostMax: number;
    graphqlTokensMax: number;
    graphqlDirectivesMax: number;
    /** Operations in one batched HTTP request (a JSON array); 1 turns batching off. */
    graphqlBatchMax: number;
  };
}

/** A kind's limit: 1 to 10,000 items at once (the holders live in one document: 10,000 × ~40 bytes stays far below 16 MiB). */
const WORK_KIND_LIMIT_MAX = 10_000;

export function parseWorkKindLimits(
  raw: string,
): { ok: true; limits: Record<string, number> } | { ok: false; error: string } {
  const limits: Record<string, number> = {};
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const [index, entry] of entries.entries()) {
    const match = /^([A-Za-z][A-Za-z0-9_.-]{0,63})=(\d+)$/.exec(entry);
    const limit = match ? Number(match[2]) : NaN;
    if (!match || limit < 1 || limit > WORK_KIND_LIMIT_MAX) {
      return {
        ok: false,
        error: `entry ${index + 1}: expected KIND=limit with limit 1 to ${WORK_KIND_LIMIT_MAX} (e.g. PAYOUT=8)`,
      };
    }
    limits[match[1]!] = limit;
  }
  return { ok: true, limits };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the environment; throws a ConfigError naming every wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (`PORT=`) means unset, not zero.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    // Messages never echo the value: API_KEYS and MONGODB_URI may hold secrets.
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
    otelServiceName: e.OTEL_SERVICE_NAME,
    mongodbUri: e.MONGODB_URI,
    mongodbDb: e.MONGODB_DB,
    mongoEngine: e.MONGO_ENGINE,
    mongodSystemBinary: e.MONGOMS_SYSTEM_BINARY,
    mongodDownloadUrl: e.MONGOMS_DOWNLOAD_URL ?? e.MONGOMS_DOWNLOAD_MIRROR,
    apiKeys: e.API_KEYS,
    seedDemo: e.SEED_DEMO === '1',
    dataDir: resolve(e.DATA_DIR),
    rateLimits: e.RATE_LIMITS,
    workKindLimits: e.WORK_KIND_LIMITS,
    workGroupLimits: e.WORK_GROUP_LIMITS,
    payoutQueue:
      e.PAYOUT_QUEUE === 'bullmq'
        ? { kind: 'bullmq', redisUrl: e.REDIS_URL!, queueName: e.PAYOUT_QUEUE_NAME }
        : { kind: 'work-items' },
    trustedDocuments: {
      mode: e.TRUSTED_DOCUMENTS,
      manifestPath: resolve(e.TRUSTED_DOCUMENTS_MANIFEST),
      adminAdHoc: e.TRUSTED_DOCUMENTS_ADMIN_ADHOC === '1',
    },
    limits: {
      mongoSocketTimeoutMs: e.MONGO_SOCKET_TIMEOUT_MS,
      mongoServerSelectionTimeoutMs: e.MONGO_SERVER_SELECTION_TIMEOUT_MS,
      mongodDownloadProbeTimeoutMs: e.MONGOD_DOWNLOAD_PROBE_TIMEOUT_MS,
      httpBodyLimitBytes: e.HTTP_BODY_LIMIT_BYTES,
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
      httpHeadersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      httpRequestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      httpKeepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      graphqlDepthMax: e.GRAPHQL_DEPTH_MAX,
      graphqlAliasesMax: e.GRAPHQL_ALIASES_MAX,
      graphqlCostMax: e.GRAPHQL_COST_MAX,
      graphqlTokensMax: e.GRAPHQL_TOKENS_MAX,
      graphqlDirectivesMax: e.GRAPHQL_DIRECTIVES_MAX,
      graphqlBatchMax: e.GRAPHQL_BATCH_MAX,
    },
  };
}
