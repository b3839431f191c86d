// The composition root: everything that lives as long as the app is built here, once, and handed
// down. `createApp` resolves the engine and connects (or takes a database a test already holds),
// makes the app's own metrics registry (GET /metrics serves it), builds the services over that
// one connection (`buildServices`), runs the start-up tasks over them, and returns one `stop()`
// that takes it all down in reverse. src/server/startServer.ts only wires HTTP and WebSockets to what this
// returns; no other module constructs a service or holds a registry.
import type { Db, MongoClient } from 'mongodb';
import type { Registry } from 'prom-client';
import { LedgerAudit, type LedgerAuditOptions } from '../audit/LedgerAudit.ts';
import { AUDIT_LEASE_NAME } from '../audit/model.ts';
import { holderOf } from '../db/leaseJob.ts';
import { createAuditTelemetry } from '../audit/telemetry.ts';
import type { Config, PayoutQueueConfig } from '../config.ts';
import { connectMongo } from '../db/connect.ts';
import { resolveEngine, type EngineInfo } from '../db/engine.ts';
import { createEngineStatus } from '../db/engineStatus.ts';
import { DbLimits } from '../db/limits.ts';
import { acrossElections } from '../db/elections.ts';
import { appNameOf, createLivenessTelemetry, createProcessLiveness, newProcessId } from '../db/processLiveness.ts';
import type { RunningTask, StartupTask } from '../db/startupTask.ts';
import { createLedgerDashboard } from '../ledger/dashboard.ts';
import { createLedgerService } from '../ledger/service.ts';
import { createLedgerTelemetry } from '../ledger/telemetry.ts';
import { StopList, stopBefore } from '../lib/stopList.ts';
import { createLogger, type Logger } from '../observability/logger.ts';
import { createMetricsRegistry } from '../observability/metrics.ts';
import { registerOpsGauges } from '../observability/opsGauges.ts';
import { registerReplicaSetGauges } from '../db/replicaSetGauges.ts';
import { traceMongoCommands } from '../observability/mongoCommandSpans.ts';
import { tracingEnabled } from '../observability/tracing.ts';
import type { AppServices } from './services.ts';
import { appStartupTasks } from './startupList.ts';
import { createLiveFeeds } from './liveFeeds.ts';
import { createPayoutLeaseReader } from '../payouts/leaseState.ts';
import {
  createPayoutProjection,
  PAYOUT_LEASE_NAME,
  type PayoutProjection,
  type PayoutProjectionDeps,
  type PayoutProjectionOptions,
} from '../payouts/PayoutProjection.ts';
import { createBullmqPayoutSink } from '../payouts/bullmqSink.ts';
import type { PayoutSink } from '../payouts/sink.ts';
import { workItemsSink } from '../payouts/sink.ts';
import { createPayoutQueueTelemetry } from '../payouts/telemetry.ts';
import { createStreamsTelemetry } from '../fanout/telemetry.ts';
import { createWorkService } from '../work/service.ts';
import { createWorkTelemetry } from '../work/telemetry.ts';

export interface AppOptions {
  config: Config;
  /** An already-connected database (tests). Without it the engine is resolved and started here. */
  db?: Db;
  /**
   * With `db`: the process id its client announces as appName `precondition/<processId>`
   * (src/db/processLiveness.ts); without it, a fresh one is made and the app's client carries it.
   */
  processId?: string;
  /** Which engine `db` lives on, for the `health` query; only with `db`. */
  engine?: EngineInfo;
  logger?: Logger;
  /** Where the app's metrics register; by default a registry of its own, with the process metrics. */
  registry?: Registry;
  payoutProjection?: PayoutProjectionOptions;
  ledgerAudit?: LedgerAuditOptions;
  /** Which of the app's start-up tasks run, in order (all by default); tests leave some out. */
  startupTasks?: (tasks: readonly StartupTask[]) => readonly StartupTask[];
  /** Builds the payout projection from its parts instead (tests, through src/testing only). */
  buildPayoutProjection?: (deps: PayoutProjectionDeps, options: PayoutProjectionOptions) => PayoutProjection;
}

export interface App {
  config: Config;
  logger: Logger;
  /** Served at GET /metrics. */
  registry: Registry;
  client: MongoClient;
  db: Db;
  engine: EngineInfo;
  services: AppServices;
  /** Idempotent: stops the start-up tasks' workers, then Mongo and an embedded engine. */
  stop(): Promise<void>;
}

type BuildOptions = Pick<AppOptions, 'payoutProjection' | 'ledgerAudit' | 'buildPayoutProjection'>;

/** Every service of the app over one database, built once; nothing runs until the start-up tasks start it. */
export function buildServices(
  parts: {
    db: Db;
    engine: EngineInfo;
    logger: Logger;
    registry: Registry;
    processId?: string;
    payoutQueue?: PayoutQueueConfig;
  },
  options: BuildOptions = {},
): AppServices {
  const { db, engine, logger, registry } = parts;
  const processId = parts.processId ?? newProcessId();
  const work = createWorkService({ db, telemetry: createWorkTelemetry(registry, logger) });
  const streamsTelemetry = createStreamsTelemetry(registry);
  const projectionLogger = logger.child({ component: 'payoutProjection' });
  const payoutSink = buildPayoutSink(parts.payoutQueue ?? { kind: 'work-items' }, {
    db,
    logger: projectionLogger,
    registry,
    work,
  });
  const projectionDeps: PayoutProjectionDeps = {
    db,
    logger: projectionLogger,
    telemetry: streamsTelemetry,
    work,
    sink: payoutSink,
  };
  // The holder of each one-at-a-time job's lease is this process (src/db/leaseJob.ts).
  const projectionOptions = { holder: holderOf(processId, PAYOUT_LEASE_NAME), ...options.payoutProjection };
  return {
    ledger: createLedgerService({ db, telemetry: createLedgerTelemetry(registry, logger) }),
    ledgerDashboard: createLedgerDashboard(db),
    work,
    liveFeeds: createLiveFeeds(db, logger, streamsTelemetry),
    payoutProjection: (options.buildPayoutProjection ?? createPayoutProjection)(projectionDeps, projectionOptions),
    payoutLease: createPayoutLeaseReader(db),
    ledgerAudit: new LedgerAudit(
      db,
      logger.child({ component: 'ledgerAudit' }),
      { holder: holderOf(processId, AUDIT_LEASE_NAME), ...options.ledgerAudit },
      createAuditTelemetry(registry),
    ),
    engineStatus: createEngineStatus(db, engine),
    processLiveness: createProcessLiveness({
      db,
      processId,
      logger: logger.child({ component: 'processLiveness' }),
      telemetry: createLivenessTelemetry(registry),
    }),
  };
}

/** PAYOUT_QUEUE's sink; its metrics are registered either way (the dashboard reads them). */
function buildPayoutSink(
  queue: PayoutQueueConfig,
  deps: { db: Db; logger: Logger; registry: Registry; work: ReturnType<typeof createWorkService> },
): PayoutSink {
  const telemetry = createPayoutQueueTelemetry(deps.registry);
  if (queue.kind === 'work-items') return workItemsSink(deps.work);
  return createBullmqPayoutSink({
    db: deps.db,
    redisUrl: queue.redisUrl,
    queueName: queue.queueName,
    logger: deps.logger,
    telemetry,
  });
}

export async function createApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const cleanups = new StopList((error) => logger.error({ err: error }, 'shutdown step failed'));
  // The background tasks' stops share one deadline, set when the stop begins: whatever one of
  // them waits on, the app stops within the shutdown grace.
  const stopDeadline = { atMs: Number.POSITIVE_INFINITY };
  const stopAll = () => {
    stopDeadline.atMs = Math.min(stopDeadline.atMs, Date.now() + config.limits.shutdownGraceMs);
    return cleanups.stopAll();
  };
  try {
    // Named before connecting: the client announces it as its appName (src/db/processLiveness.ts).
    const processId = options.processId ?? newProcessId();
    const { client, db, engine } = await openDatabase(options, logger, cleanups, appNameOf(processId));
    // A span per MongoDB command, child of the request's (the client was opened with monitorCommands).
    if (tracingEnabled()) {
      const stopTracingCommands = traceMongoCommands(client);
      cleanups.push(async () => stopTracingCommands());
    }
    const registry = options.registry ?? createMetricsRegistry();
    const opsGauges = registerOpsGauges(registry, db);
    cleanups.push(async () => opsGauges.stop());
    const replicaSetGauges = registerReplicaSetGauges(registry, db);
    cleanups.push(async () => replicaSetGauges.stop());
    const services = buildServices(
      { db, engine, logger, registry, processId, payoutQueue: config.payoutQueue },
      options,
    );
    const tasks = appStartupTasks(services);
    await runStartupTasks(
      options.startupTasks ? options.startupTasks(tasks) : tasks,
      { client, db, config, logger, processId },
      cleanups,
      stopDeadline,
    );
    let stopping: Promise<void> | undefined;
    return {
      config,
      logger,
      registry,
      client,
      db,
      engine,
      services,
      stop: () => (stopping ??= stopAll()),
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function openDatabase(
  options: AppOptions,
  logger: Logger,
  cleanups: StopList,
  appName: string,
): Promise<{ client: MongoClient; db: Db; engine: EngineInfo }> {
  if (options.db) {
    const engine = options.engine ?? { kind: 'uri', reason: 'a database was handed to the app' };
    return { client: options.db.client, db: options.db, engine };
  }
  const { config } = options;
  const engine = await resolveEngine(config);
  cleanups.push(() => engine.stop());
  const log = engine.kind === 'emulator' ? logger.warn.bind(logger) : logger.info.bind(logger);
  log({ engine: engine.kind }, `MongoDB engine: ${engine.kind}, because ${engine.reason}`);
  const client = await connectMongo(engine.uri, config.limits, appName);
  cleanups.push(() => client.close());
  return { client, db: client.db(config.mongodbDb), engine: { kind: engine.kind, reason: engine.reason } };
}

/** The least a background task's stop is waited for, even past the shared shutdown deadline. */
const TASK_STOP_FLOOR_MS = 1_000;

async function runStartupTasks(
  tasks: readonly StartupTask[],
  deps: Parameters<StartupTask['run']>[0],
  cleanups: StopList,
  stopDeadline: { readonly atMs: number },
): Promise<void> {
  for (const task of tasks) {
    const startedAtMs = Date.now();
    const running: RunningTask | void = await duringElections(task, () => task.run(deps), deps.logger);
    if (running) {
      cleanups.push(async () => {
        // A task after one that used up the grace still gets a short while of its own (most stop at once).
        const deadlineMs = Math.max(
          stopDeadline.atMs,
          Date.now() + Math.min(deps.config.limits.shutdownGraceMs, TASK_STOP_FLOOR_MS),
        );
        if (!(await stopBefore(() => running.stop(), deadlineMs))) {
          deps.logger.warn(
            { task: task.name, graceMs: deps.config.limits.shutdownGraceMs },
            'startup task did not stop within the shutdown grace; left behind',
          );
        }
      });
    }
    deps.logger.info({ task: task.name, durationMs: Date.now() - startedAtMs }, 'startup task done');
  }
}

/**
 * Runs a start-up task, again while it fails because the set is between primaries (a process
 * started during a failover waits for the new primary rather than exiting), up to
 * DbLimits.startupElectionWaitMs. A task that failed that way left nothing running: each creates
 * indexes (idempotent), starts its work only after its commands succeeded (the projection), or
 * stops what it started when it fails (the live feeds).
 */
function duringElections<T>(task: StartupTask, run: () => Promise<T>, logger: Logger): Promise<T> {
  return acrossElections(run, {
    budgetMs: DbLimits.startupElectionWaitMs,
    pauseMs: () => DbLimits.startupRetryPauseMs,
    onRetry: (error) =>
      logger.warn({ task: task.name, err: error }, 'startup task met a replica set without a primary; trying again'),
  });
}
