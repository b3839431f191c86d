// What the `health` query reports of the engine: which one runs and why (resolved at start-up),
// the version it reports and its replica-set status, read when asked.
import type { Db } from 'mongodb';
import type { EngineInfo } from './engine.ts';

export interface ReplicaSetView {
  name: string;
  members: number;
  /** host:port of the primary, if one is elected. */
  primary: string | null;
}

export function createEngineStatus(db: Db, engine: EngineInfo) {
  return Object.freeze({
    engine,
    async version(): Promise<string> {
      const buildInfo = await db.admin().command({ buildInfo: 1 });
      return String(buildInfo['version']);
    },
    /** Null when the server is not a replica set or hides its status. */
    async replicaSet(): Promise<ReplicaSetView | null> {
      try {
        const status = await db.admin().command({ replSetGetStatus: 1 });
        const members = (status['members'] ?? []) as Array<{ name: string; stateStr: string }>;
        return {
          name: String(status['set']),
          members: members.length,
          primary: members.find((member) => member.stateStr === 'PRIMARY')?.name ?? null,
        };
      } catch {
        // Not a replica set, or the user may not run replSetGetStatus (e.g. some Atlas tiers).
        return null;
      }
    },
  });
}

export type EngineStatus = ReturnType<typeof createEngineStatus>;
