// Readiness (GET /readyz): may this process take traffic? Yes only when the engine answers a ping
// within `enginePingTimeoutMs`, a replica set has a primary, and every live feed's shared change
// stream is open. Liveness
// (GET /healthz) stays "the process answers": a restart does not fix a database outage, so an
// orchestrator should stop routing here (readiness), not kill the process (liveness).
import type { Db } from 'mongodb';
import { replicaSetHasPrimary } from '../db/topology.ts';
import type { FeedStatus } from '../fanout/index.ts';
import type { PayoutSink, ProjectionStatus, SinkDependencyHealth } from '../payouts/index.ts';

/** What readiness reads of the app's services: the live feeds' statuses and the payout projection's. */
export interface ReadinessSources {
  liveFeeds: { statuses(): FeedStatus[] | null };
  payoutProjection: {
    readonly running: boolean;
    readonly status: ProjectionStatus;
    readonly sink: Pick<PayoutSink, 'kind' | 'queueName' | 'check'>;
  };
}

export const ReadinessLimits = Object.freeze({
  /** A ping slower than this counts as no answer (the issue's 1 s). */
  enginePingTimeoutMs: 1_000,
});

export interface Readiness {
  ready: boolean;
  /** Why not ready, one sentence each; empty when ready. */
  reasons: string[];
  engine: { ok: boolean; latencyMs: number | null; error: string | null };
  /** Whether the replica set has a primary the driver knows (null: not a replica set, or not discovered yet). */
  primary: boolean | null;
  feeds: FeedStatus[];
  /** Reported, not required: a standby or retrying projection does not stop this process serving requests. */
  payoutProjection: ProjectionStatus | null;
  /**
   * Where payouts go, and the sink's own dependency (Redis for PAYOUT_QUEUE=bullmq) with a ping.
   * Reported, not required, like the projection: a process whose Redis is down still serves
   * money moves; its projection waits (retrying) and catches up when Redis is back.
   */
  payoutSink: { kind: PayoutSink['kind']; queueName: string | null; dependency: SinkDependencyHealth | null };
}

export async function checkReadiness(
  db: Db,
  services: ReadinessSources,
  options: { shuttingDown?: boolean } = {},
): Promise<Readiness> {
  const reasons: string[] = [];
  if (options.shuttingDown) reasons.push('the process is shutting down');
  const engine = await pingEngine(db, ReadinessLimits.enginePingTimeoutMs);
  if (!engine.ok)
    reasons.push(`the engine did not answer a ping within ${ReadinessLimits.enginePingTimeoutMs} ms: ${engine.error}`);
  // Without a primary no move can be decided (each waits for an election, then answers
  // OutcomeUnknown or RequestInProgress): stop routing here until one is elected.
  const primary = replicaSetHasPrimary(db.client);
  if (primary === false) reasons.push('the replica set has no primary: moves wait for an election');
  const feeds = services.liveFeeds.statuses();
  if (feeds === null) reasons.push('the live feeds are not running in this process');
  for (const feed of feeds ?? []) {
    if (feed.state !== 'open') {
      reasons.push(
        `live feed ${feed.name} is ${feed.state}${feed.lastError ? ` (${feed.consecutiveFailures} failures, last: ${feed.lastError})` : ''}`,
      );
    }
  }
  const { sink } = services.payoutProjection;
  const payoutSink = {
    kind: sink.kind,
    queueName: sink.queueName,
    dependency: services.payoutProjection.running ? await sink.check() : null,
  };
  return {
    ready: reasons.length === 0,
    reasons,
    engine,
    primary,
    feeds: feeds ?? [],
    payoutProjection: services.payoutProjection.running ? services.payoutProjection.status : null,
    payoutSink,
  };
}

async function pingEngine(db: Db, timeoutMs: number): Promise<Readiness['engine']> {
  const startedAtMs = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
  });
  try {
    await Promise.race([db.command({ ping: 1 }), timeout]);
    return { ok: true, latencyMs: Date.now() - startedAtMs, error: null };
  } catch (error) {
    return { ok: false, latencyMs: null, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
