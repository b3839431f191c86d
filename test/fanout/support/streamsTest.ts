// Helpers of the streams tests: work-item transitions over HTTP, subscriptions read to a count,
// and change streams counted through $currentOp.
import type { MongoClient } from 'mongodb';
import { expect } from 'vitest';
import type { Role } from '../../../src/access/roles.ts';
import type { TestApp } from '../../support/app.ts';
import type { TestSubscription } from '../../support/ws.ts';
import { waitFor } from '../../support/waiting.ts';

export const WORK_ITEM_STATUS = `subscription ($id: ID, $kinds: [String!], $after: String) {
  workItemStatusChanged(id: $id, kinds: $kinds, after: $after) {
    __typename
    ... on WorkItemStatusChanged { cursor itemId kind status previousStatus version at }
    ... on ResyncRequired { cursor reason }
  }
}`;

export interface StatusEvent {
  __typename: 'WorkItemStatusChanged' | 'ResyncRequired';
  cursor: string | null;
  itemId?: string;
  kind?: string;
  status?: string;
  previousStatus?: string | null;
  version?: number;
  reason?: string;
}

export function subscriberCount(app: TestApp): number {
  return app.services.liveFeeds.workItems.subscriberCount;
}

/** Opens `count` subscriptions (one WebSocket client each) and waits until the feed has attached them all. */
export async function subscribeAll(
  app: TestApp,
  count: number,
  variables: (i: number) => Record<string, unknown> = () => ({}),
  role: Role = 'ops',
): Promise<TestSubscription[]> {
  const before = subscriberCount(app);
  const subscriptions = Array.from({ length: count }, (_, i) => app.ws(role).subscribe(WORK_ITEM_STATUS, variables(i)));
  await waitFor(() => subscriberCount(app) === before + count, `${count} more subscribers`);
  return subscriptions;
}

/**
 * Asserts that none of `subscriptions` has anything left after the events already taken, exactly:
 * `writeMarker` commits one more change (or one per filter) that each of them matches, after the
 * last expected one, and the next event each one receives must be a marker (`isMarker`). A feed
 * delivers in commit order, so an extra event committed before the marker would arrive first.
 * Waiting for a stretch of silence instead could only guess how long "nothing more" takes.
 */
export async function expectNoMore(
  subscriptions: readonly TestSubscription[],
  writeMarker: () => Promise<unknown>,
  isMarker: (event: Record<string, unknown>) => boolean,
  timeoutMs = 10_000,
): Promise<void> {
  await writeMarker();
  for (const sub of subscriptions) {
    const result = await sub.next(timeoutMs);
    expect(result.errors).toBeUndefined();
    const [event] = Object.values(result.data ?? {}) as Array<Record<string, unknown>>;
    expect(isMarker(event!), `the next event is the marker, not ${JSON.stringify(event)}`).toBe(true);
  }
}

/** Reads `count` events (or fewer if the subscription ends) from a subscription. */
export async function take(subscription: TestSubscription, count: number, timeoutMs = 10_000): Promise<StatusEvent[]> {
  const events: StatusEvent[] = [];
  while (events.length < count) {
    const result = await subscription.next(timeoutMs);
    expect(result.errors).toBeUndefined();
    events.push((result.data as { workItemStatusChanged: StatusEvent }).workItemStatusChanged);
  }
  return events;
}

/** Change streams open on `dbName`'s collections, as the server lists them ($currentOp, idle included). */
export async function changeStreamsOn(client: MongoClient, dbName: string): Promise<Array<{ ns: string }>> {
  const ops = await client
    .db('admin')
    .aggregate([{ $currentOp: { idleCursors: true } }])
    .toArray();
  return ops
    .filter((op) => typeof op['ns'] === 'string' && op['ns'].startsWith(`${dbName}.`))
    .filter((op) =>
      JSON.stringify(op['cursor']?.originatingCommand?.pipeline ?? op['command']?.pipeline ?? []).includes(
        '$changeStream',
      ),
    )
    .map((op) => ({ ns: op['ns'] as string }));
}

const CREATE = `mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) {
  __typename ... on CreateWorkItemSuccess { item { id version } } } }`;
const CLAIM = `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) {
  __typename ... on ClaimSuccess { item { id version } } } }`;
const COMPLETE = `mutation ($input: CompleteWorkItemInput!) { completeWorkItem(input: $input) { __typename } }`;

export async function createItem(app: TestApp, kind: string, key: string): Promise<string> {
  const res = await app.gql(CREATE, { input: { kind, idempotencyKey: key } }, { key: 'service' });
  expect(res.data?.createWorkItem.__typename).toBe('CreateWorkItemSuccess');
  return res.data.createWorkItem.item.id as string;
}

/** Claims `id` (PENDING → PROCESSING) and completes it (PROCESSING → DONE): versions 2 and 3. */
export async function claimAndComplete(app: TestApp, id: string, workerId: string): Promise<void> {
  const claim = await app.gql(CLAIM, { input: { id, workerId } }, { key: 'worker' });
  expect(claim.data?.claimWorkItem.__typename).toBe('ClaimSuccess');
  const version = claim.data.claimWorkItem.item.version as number;
  const done = await app.gql(
    COMPLETE,
    { input: { id, workerId, version, outcome: 'DONE', result: null } },
    { key: 'worker' },
  );
  expect(done.data?.completeWorkItem.__typename).toBe('CompleteSuccess');
}

/** Events grouped by item, each group in arrival order. */
export function groupByItem(events: readonly StatusEvent[]): Map<string, StatusEvent[]> {
  const byItem = new Map<string, StatusEvent[]>();
  for (const event of events) byItem.set(event.itemId ?? '', [...(byItem.get(event.itemId ?? '') ?? []), event]);
  return byItem;
}
