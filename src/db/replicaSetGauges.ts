// The replica set as the API sees it, for the failover, lag and rollback alerts of
// ops/prometheus/replica-set.rules.yml:
// - `mongodb_replica_set_has_primary`: whether the driver knows a primary now (no round trip);
// - `mongodb_primary_changes_total`: how often the primary the driver knows changed (a failover:
//   a step-down, a killed or paused primary), counted from the driver's topology events;
// - `mongodb_replica_set_member_lag_seconds{member}`: each secondary's last applied write behind
//   the primary's, and `mongodb_replica_set_members_in_rollback`: members in ROLLBACK, both read
//   from replSetGetStatus at each scrape (primaryPreferred: a set without a primary still
//   answers); absent when the status cannot be read (not a replica set, no privilege).
import type { Db, Document, TopologyDescriptionChangedEvent } from 'mongodb';
import type { Registry } from 'prom-client';
import { replicaSetHasPrimary } from './topology.ts';
import { counterOn, gaugeOn } from '../observability/metrics.ts';
import { OpsGaugeLimits } from '../observability/opsGauges.ts';

/** mongod's MemberState codes (src/mongo/db/repl/member_state.h). */
const MemberState = Object.freeze({ PRIMARY: 1, SECONDARY: 2, ROLLBACK: 9 } as const);

export interface ReplicaSetLag {
  /** host:port → seconds behind the primary (secondaries only). */
  lagSeconds: Map<string, number>;
  inRollback: number;
}

/** Each secondary's lag and the members in ROLLBACK, from replSetGetStatus; null when unreadable or without a primary to measure against. */
export async function readReplicaSetLag(db: Db): Promise<ReplicaSetLag | null> {
  const status = await db
    .admin()
    .command({ replSetGetStatus: 1 }, { readPreference: 'primaryPreferred' })
    .catch(() => null);
  const members = status?.['members'] as Document[] | undefined;
  if (!Array.isArray(members)) return null;
  const inRollback = members.filter((m) => m['state'] === MemberState.ROLLBACK).length;
  const primary = members.find((m) => m['state'] === MemberState.PRIMARY);
  const lagSeconds = new Map<string, number>();
  const primaryAt = primary?.['optimeDate'];
  if (primaryAt instanceof Date) {
    for (const member of members) {
      if (member['state'] !== MemberState.SECONDARY || !(member['optimeDate'] instanceof Date)) continue;
      lagSeconds.set(
        String(member['name']),
        Math.max(0, (primaryAt.getTime() - member['optimeDate'].getTime()) / 1000),
      );
    }
  }
  return { lagSeconds, inRollback };
}

/** Registers the gauges and the counter on `registry`; stop() detaches them from the client. */
export function registerReplicaSetGauges(registry: Registry, db: Db): { stop(): void } {
  let source: Db | null = db;
  let reading: Promise<ReplicaSetLag | null> | null = null;
  // One read per scrape for both gauges (prom-client collects them concurrently).
  const read = (): Promise<ReplicaSetLag | null> => {
    const current = source;
    if (current === null) return Promise.resolve(null);
    return (reading ??= withTimeout(readReplicaSetLag(current), OpsGaugeLimits.scrapeReadTimeoutMs)
      .catch(() => null)
      .finally(() => {
        reading = null;
      }));
  };
  gaugeOn(registry, {
    name: 'mongodb_replica_set_has_primary',
    help: '1 when the driver knows a primary of the replica set, 0 when it knows none (an election, or no majority); absent when not a replica set',
    labelNames: ['set'] as const,
    collect() {
      this.reset();
      const known = source ? replicaSetHasPrimary(source.client) : null;
      if (known !== null) this.set({ set: 'default' }, known ? 1 : 0);
    },
  });
  gaugeOn(registry, {
    name: 'mongodb_replica_set_member_lag_seconds',
    help: "Seconds a secondary's last applied write is behind the primary's (replSetGetStatus optimeDate); absent when the status is unreadable",
    labelNames: ['member'] as const,
    async collect() {
      this.reset();
      const lag = await read();
      for (const [member, seconds] of lag?.lagSeconds ?? []) this.set({ member }, seconds);
    },
  });
  gaugeOn(registry, {
    name: 'mongodb_replica_set_members_in_rollback',
    help: 'Members in state ROLLBACK at the scrape (they undo writes no majority acknowledged); absent when the status is unreadable',
    labelNames: ['set'] as const,
    async collect() {
      this.reset();
      const lag = await read();
      if (lag) this.set({ set: 'default' }, lag.inRollback);
    },
  });
  const changes = counterOn(registry, {
    name: 'mongodb_primary_changes_total',
    help: 'Times the primary the driver knows changed to another member (a failover: step-down, killed or paused primary)',
  });
  let lastPrimary: string | null = null;
  const onTopology = (event: TopologyDescriptionChangedEvent) => {
    const primary =
      [...event.newDescription.servers.values()].find((server) => server.type === 'RSPrimary')?.address ?? null;
    if (primary === null) return;
    if (lastPrimary !== null && primary !== lastPrimary) changes.inc();
    lastPrimary = primary;
  };
  db.client.on('topologyDescriptionChanged', onTopology);
  return {
    stop() {
      db.client.off('topologyDescriptionChanged', onTopology);
      source = null;
    },
  };
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
