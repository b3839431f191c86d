// Helpers for the replica-set tests: a client per member (direct connection), the member that is
// primary now, fail points on a member. Everything waits on observable state (hello), never a sleep.
import { MongoClient, type Document } from 'mongodb';
import { expect } from 'vitest';
import type { ReplicaSetMember, RunningReplicaSet } from '../../src/index.ts';

/** Election timeout and heartbeat interval of the test sets: elections within about a second. */
export const TEST_ELECTION_TIMEOUT_MS = 1000;
export const TEST_HEARTBEAT_INTERVAL_MS = 200;

export function directClient(member: ReplicaSetMember): MongoClient {
  return new MongoClient(`mongodb://${member.address}/?directConnection=true`, { serverSelectionTimeoutMS: 5000 });
}

export async function adminCommand(member: ReplicaSetMember, command: Document): Promise<Document> {
  const client = directClient(member);
  try {
    return await client.db('admin').command(command);
  } finally {
    await client.close();
  }
}

/** The member every member agrees is primary (waits until they do). */
export async function settledPrimary(set: RunningReplicaSet, except?: ReplicaSetMember): Promise<ReplicaSetMember> {
  let primary: ReplicaSetMember | undefined;
  await expect
    .poll(
      async () => {
        const live = set.members.filter((m) => m !== except);
        const hellos = await Promise.all(live.map((m) => adminCommand(m, { hello: 1 }).catch(() => undefined)));
        const primaries = live.filter((_, i) => hellos[i]?.isWritablePrimary === true);
        const agreed = hellos.every(
          (h) => h && (h.isWritablePrimary === true || h.secondary === true) && h.primary === primaries[0]?.address,
        );
        primary = primaries.length === 1 && agreed ? primaries[0] : undefined;
        return primary !== undefined;
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe(true);
  return primary!;
}

/**
 * Sends `command` (a replSetStepDown) to the member that is primary when it is sent, again if an
 * election made another member primary in between (NotWritablePrimary, 10107); answers the member
 * that stepped down.
 */
export async function stepDownThePrimary(set: RunningReplicaSet, command: Document): Promise<ReplicaSetMember> {
  let steppedDown: ReplicaSetMember | undefined;
  await expect
    .poll(
      async () => {
        const primary = await settledPrimary(set);
        const done = await adminCommand(primary, command).then(
          () => true,
          (error: { code?: number }) => {
            if (error.code === 10107) return false;
            throw error;
          },
        );
        if (done) steppedDown = primary;
        return done;
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe(true);
  return steppedDown!;
}

export function secondariesOf(set: RunningReplicaSet, primary: ReplicaSetMember): ReplicaSetMember[] {
  return set.members.filter((m) => m !== primary);
}

export async function failPoint(member: ReplicaSetMember, name: string, mode: 'alwaysOn' | 'off'): Promise<void> {
  await adminCommand(member, { configureFailPoint: name, mode });
}
