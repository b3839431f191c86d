// R3: the transactions a killed API process left open stop holding their documents within 5 s,
// with the server at its default transactionLifetimeLimitSeconds (60). mongod offers what it takes
// (docs/ledger.md, "A process killed mid-transaction"):
// - every API process connects with the appName `precondition/<processId>`, and mongod reports an
//   open transaction between statements as an idle session naming the appName of the client that
//   ran its last statement (`$currentOp` with `idleSessions: true`; reportStashedState in
//   src/mongo/db/transaction/transaction_participant.cpp);
// - every process keeps a liveness lease in `process_liveness`, renewed every 500 ms, lapsing
//   2.5 s after the last renewal by the database server's clock ($$NOW), never a process's clock;
// - every process, once a second, lists the idle transactions of processes whose lease lapsed and
//   ends them with `killSessions` (src/mongo/db/commands/kill_sessions_command.cpp), which aborts
//   them and releases their writes at once.
// killSessions is user-scoped on mongod: any user may kill their own sessions, so a survivor sends
// only the lsid's `id` (the server fills in its own user's digest) and every API process must log
// in as the same MongoDB user; `$currentOp` with `allUsers: false` likewise lists only that user's
// sessions. A live process is never a candidate: its lease is current. Only a process that stalls
// longer than the lease (2.5 s) loses its open transactions, which then abort and retry.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection, Db, Document } from 'mongodb';
import type { Registry } from 'prom-client';
import type { Logger } from '../observability/logger.ts';
import { counterOn } from '../observability/metrics.ts';
import { ProcessLivenessLimits } from './limits.ts';
import type { RunningTask, StartupTask } from './startupTask.ts';

export const PROCESS_LIVENESS_COLLECTION = 'process_liveness';
/** The appName prefix of an API process's client; what follows is its process id. */
export const APP_NAME_PREFIX = 'precondition/';

export interface ProcessLivenessDoc {
  /** The process id, as in its appName. */
  _id: string;
  host: string;
  pid: number;
  startedAt: Date;
  /** Database clock: the lease lapses here unless renewed. */
  expiresAt: Date;
}

/** A new process id: short (an appName is at most 128 bytes), unique across hosts and restarts. */
export function newProcessId(): string {
  return `${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** The appName this process's MongoClient announces, so others can tell its transactions apart. */
export function appNameOf(processId: string): string {
  return `${APP_NAME_PREFIX}${processId}`;
}

function processIdOf(appName: unknown): string | undefined {
  return typeof appName === 'string' && appName.startsWith(APP_NAME_PREFIX)
    ? appName.slice(APP_NAME_PREFIX.length)
    : undefined;
}

export function createLivenessTelemetry(registry: Registry) {
  return {
    orphansEndedTotal: counterOn(registry, {
      name: 'orphan_transactions_ended_total',
      help: 'Open transactions of API processes whose liveness lease lapsed (killed, or stalled past the lease), ended by this process with killSessions (R3)',
    }),
    sweepFailuresTotal: counterOn(registry, {
      name: 'orphan_sweep_failures_total',
      help: 'Liveness heartbeats or orphan sweeps of this process that failed (the database was unreachable or refused $currentOp/killSessions)',
      labelNames: ['step'] as const,
    }),
  };
}

export type LivenessTelemetry = ReturnType<typeof createLivenessTelemetry>;

export interface ProcessLiveness {
  readonly processId: string;
  /** Renews this process's lease once (the loop does it every heartbeatIntervalMs). */
  heartbeat(): Promise<void>;
  /** One sweep: ends the idle transactions of lapsed processes; returns how many sessions it killed. */
  sweepOnce(): Promise<number>;
  /** Writes the lease, creates its TTL index, then heartbeats and sweeps until stopped. */
  start(): Promise<RunningTask>;
}

export function createProcessLiveness(deps: {
  db: Db;
  processId: string;
  logger: Logger;
  telemetry: LivenessTelemetry;
}): ProcessLiveness {
  const { db, processId, logger, telemetry } = deps;
  const leases: Collection<ProcessLivenessDoc> = db.collection(PROCESS_LIVENESS_COLLECTION, {
    readPreference: 'primary',
    writeConcern: { w: 'majority' },
  });
  const startedAt = new Date();
  const host = hostname();

  async function heartbeat(): Promise<void> {
    await leases.updateOne(
      { _id: processId },
      [
        {
          $set: {
            host: { $literal: host },
            pid: { $literal: process.pid },
            startedAt: { $literal: startedAt },
            expiresAt: { $add: ['$$NOW', ProcessLivenessLimits.leaseMs] },
          },
        },
      ],
      { upsert: true },
    );
  }

  async function sweepOnce(): Promise<number> {
    const idle = await db.client
      .db('admin')
      .aggregate([
        { $currentOp: { idleSessions: true, idleConnections: false, allUsers: false } },
        { $match: { type: 'idleSession', appName: { $regex: `^${APP_NAME_PREFIX}` } } },
        { $project: { lsid: 1, appName: 1 } },
        { $limit: ProcessLivenessLimits.sessionsPerSweepMax },
      ])
      .toArray();
    const byProcess = new Map<string, Document[]>();
    for (const op of idle) {
      const owner = processIdOf(op['appName']);
      if (owner === undefined || owner === processId) continue;
      byProcess.set(owner, [...(byProcess.get(owner) ?? []), op['lsid'] as Document]);
    }
    if (byProcess.size === 0) return 0;
    // Only processes that wrote a lease in this database and let it lapse: another application's
    // (or another database's) processes on the same server are never touched.
    const lapsed = await leases
      .find(
        { _id: { $in: [...byProcess.keys()] }, $expr: { $lt: ['$expiresAt', '$$NOW'] } },
        { projection: { _id: 1 } },
      )
      .toArray();
    if (lapsed.length === 0) return 0;
    const lsids = lapsed.flatMap((doc) => byProcess.get(doc._id)!);
    // Only the id: the server fills in the caller's user, which may kill its own sessions (a `uid`
    // would need the killAnySession privilege).
    await db.admin().command({ killSessions: lsids.map((lsid) => ({ id: lsid['id'] })) });
    telemetry.orphansEndedTotal.inc(lsids.length);
    logger.warn(
      { processes: lapsed.map((doc) => doc._id), sessions: lsids.length },
      'ended the open transactions of API processes whose liveness lease lapsed (R3)',
    );
    return lsids.length;
  }

  async function loop(
    every: number,
    step: 'heartbeat' | 'sweep',
    work: () => Promise<unknown>,
    signal: AbortSignal,
  ): Promise<void> {
    while (!signal.aborted) {
      await sleep(every, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) return;
      try {
        await work();
      } catch (error) {
        telemetry.sweepFailuresTotal.inc({ step });
        logger.warn({ err: error, step }, 'process liveness: step failed');
      }
    }
  }

  return {
    processId,
    heartbeat,
    sweepOnce,
    async start() {
      await leases.createIndex({ expiresAt: 1 }, { expireAfterSeconds: ProcessLivenessLimits.lapsedLeaseKeepSeconds });
      await heartbeat();
      const stop = new AbortController();
      const loops = [
        loop(ProcessLivenessLimits.heartbeatIntervalMs, 'heartbeat', heartbeat, stop.signal),
        loop(ProcessLivenessLimits.sweepIntervalMs, 'sweep', sweepOnce, stop.signal),
      ];
      return {
        // The lease is left to lapse: a process stopping gracefully has ended its sessions.
        async stop() {
          stop.abort();
          await Promise.all(loops);
        },
      };
    },
  };
}

/** The start-up task: this process's lease first, so its transactions are never taken for orphans. */
export function processLivenessTask(liveness: ProcessLiveness): StartupTask {
  return { name: 'db: process liveness and orphaned transactions', run: () => liveness.start() };
}
