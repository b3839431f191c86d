// The special test operations (`object: testRunner`): fail points and assertions about sessions,
// commands, collections and indexes. They return nothing and fail the test on a difference.
import type { Document, MongoClient } from 'mongodb';
import { describe } from '../bsonTypes.ts';
import { fail, unsupported } from '../outcomes.ts';
import type { Arguments, OperationHandler, TestContext } from './context.ts';
import { CMAP_EVENT_NAMES, SDAM_EVENT_NAMES, type ClientEntity } from '../clientEntity.ts';
import { eventDifference } from '../expectEvents.ts';
import type { TopologySnapshot } from '../entities.ts';

type Handler = OperationHandler<undefined>;

// The driver's transaction states, named as the unified format names them.
const TRANSACTION_STATES: Record<string, string> = {
  NO_TRANSACTION: 'none',
  STARTING_TRANSACTION: 'starting',
  TRANSACTION_IN_PROGRESS: 'in_progress',
  TRANSACTION_COMMITTED: 'committed',
  TRANSACTION_COMMITTED_EMPTY: 'committed',
  TRANSACTION_ABORTED: 'aborted',
};

const NOTHING = { value: undefined };

function sessionOf(args: Arguments, context: TestContext) {
  return context.entities.get(args.required<string>('session'), 'session');
}

function lastTwoLsids(args: Arguments, context: TestContext): [unknown, unknown] {
  const client = context.entities.get(args.required<string>('client'), 'client');
  const started = client.startedCommands;
  if (started.length < 2) fail(`expected two commands on ${client.id}, observed ${started.length}`);
  const lsids = started.slice(-2).map((event) => (event.command as Document | undefined)?.lsid);
  if (lsids.some((lsid) => lsid === undefined)) fail(`one of the last two commands on ${client.id} has no lsid`);
  return [lsids[0], lsids[1]];
}

async function collectionExists(client: MongoClient, args: Arguments): Promise<boolean> {
  const [db, name] = [args.required<string>('databaseName'), args.required<string>('collectionName')];
  const found = await client.db(db).listCollections({ name }, { nameOnly: true }).toArray();
  return found.length > 0;
}

async function indexExists(client: MongoClient, args: Arguments): Promise<boolean> {
  const [db, name, index] = [
    args.required<string>('databaseName'),
    args.required<string>('collectionName'),
    args.required<string>('indexName'),
  ];
  const indexes = await client
    .db(db)
    .collection(name)
    .listIndexes()
    .toArray()
    .catch(() => [] as Document[]);
  return indexes.some((i) => i.name === index);
}

const UNSUPPORTED = ['targetedFailPoint', 'loop', 'runOnThread', 'waitForThread', 'assertNumberConnectionsCheckedOut'];

/** waitForEvent's bound: the format names none; 10 s like waitForPrimaryChange's default. */
const WAIT_FOR_EVENT_TIMEOUT_MS = 10_000;
const WAIT_FOR_EVENT_POLL_MS = 10;

/** How many of a client's observed events satisfy `event` (`{ name: assertions }`), as expectEvents judges one. */
function matchingEvents(client: ClientEntity, event: Document, context: TestContext): number {
  const [name] = Object.keys(event);
  if (name === undefined) throw new Error('an event to count needs its name');
  if (!CMAP_EVENT_NAMES.has(name) && !SDAM_EVENT_NAMES.has(name) && !name.startsWith('command'))
    unsupported(`counting ${name}`);
  return client.events.filter(
    (observed) => eventDifference(event as Record<string, Record<string, unknown>>, observed, context.matcher) === null,
  ).length;
}

/** waitForPrimaryChange's default timeoutMS (unified test format). */
const PRIMARY_CHANGE_TIMEOUT_MS = 10_000;
const PRIMARY_CHANGE_POLL_MS = 25;

/**
 * The driver's current topology description, read as the unified format's SDAM operations need it
 * (the Node driver keeps it on client.topology.description; not a public API).
 */
function topologyOf(client: MongoClient): TopologySnapshot {
  const description = (
    client as unknown as { topology?: { description: { type: string; servers: Map<string, { type: string }> } } }
  ).topology?.description;
  if (!description) fail('the client has no topology (not connected)');
  const primary = [...description.servers].find(([, server]) => server.type === 'RSPrimary')?.[0];
  return { type: description.type, primary };
}

export const testRunnerOperations: Record<string, Handler> = {
  async failPoint(_target, args, context) {
    const client = context.entities.get(args.required<string>('client'), 'client').client;
    const failPoint = args.required<Document>('failPoint');
    await client.db('admin').command(failPoint);
    context.failPoints.push({ client, name: String(failPoint.configureFailPoint) });
    return NOTHING;
  },
  async assertSessionTransactionState(_target, args, context) {
    const { session } = sessionOf(args, context);
    const expected = args.required<string>('state');
    // The driver's transaction state machine is internal; its state names are stable.
    const state = (session as unknown as { transaction: { state: string } }).transaction.state;
    const actual = TRANSACTION_STATES[state] ?? state;
    if (actual !== expected) fail(`session transaction state is ${actual}, expected ${expected}`);
    return NOTHING;
  },
  async assertSessionPinned(_target, args, context) {
    if (!sessionOf(args, context).session.isPinned) fail('session is not pinned');
    return NOTHING;
  },
  async assertSessionUnpinned(_target, args, context) {
    if (sessionOf(args, context).session.isPinned) fail('session is pinned');
    return NOTHING;
  },
  async assertSessionDirty(_target, args, context) {
    if (sessionOf(args, context).session.serverSession?.isDirty !== true) fail('session is not dirty');
    return NOTHING;
  },
  async assertSessionNotDirty(_target, args, context) {
    if (sessionOf(args, context).session.serverSession?.isDirty === true) fail('session is dirty');
    return NOTHING;
  },
  async assertSameLsidOnLastTwoCommands(_target, args, context) {
    const [a, b] = lastTwoLsids(args, context);
    const difference = context.matcher.matchNested(a, b);
    if (difference !== null) fail(`last two commands used different lsids: ${describe(a)} vs ${describe(b)}`);
    return NOTHING;
  },
  async assertDifferentLsidOnLastTwoCommands(_target, args, context) {
    const [a, b] = lastTwoLsids(args, context);
    if (context.matcher.matchNested(a, b) === null) fail(`last two commands used the same lsid ${describe(a)}`);
    return NOTHING;
  },
  async assertCollectionExists(_target, args, context) {
    if (!(await collectionExists(context.internalClient, args))) fail('collection does not exist');
    return NOTHING;
  },
  async assertCollectionNotExists(_target, args, context) {
    if (await collectionExists(context.internalClient, args)) fail('collection exists');
    return NOTHING;
  },
  async assertIndexExists(_target, args, context) {
    if (!(await indexExists(context.internalClient, args))) fail('index does not exist');
    return NOTHING;
  },
  async assertIndexNotExists(_target, args, context) {
    if (await indexExists(context.internalClient, args)) fail('index exists');
    return NOTHING;
  },
  async recordTopologyDescription(_target, args, context) {
    const client = context.entities.get(args.required<string>('client'), 'client').client;
    context.entities.set(args.required<string>('id'), 'topologyDescription', topologyOf(client));
    return NOTHING;
  },
  async assertTopologyType(_target, args, context) {
    const recorded = context.entities.get(args.required<string>('topologyDescription'), 'topologyDescription');
    const expected = args.required<string>('topologyType');
    if (recorded.type !== expected) fail(`topology type is ${recorded.type}, expected ${expected}`);
    return NOTHING;
  },
  async waitForPrimaryChange(_target, args, context) {
    const client = context.entities.get(args.required<string>('client'), 'client').client;
    const prior = context.entities.get(args.required<string>('priorTopologyDescription'), 'topologyDescription');
    const timeoutMs = args.optional<number>('timeoutMS') ?? PRIMARY_CHANGE_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { primary } = topologyOf(client);
      if (primary !== undefined && primary !== prior.primary) return NOTHING;
      if (Date.now() > deadline)
        fail(`the primary did not change from ${String(prior.primary)} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, PRIMARY_CHANGE_POLL_MS));
    }
  },
  async assertEventCount(_target, args, context) {
    const client = context.entities.get(args.required<string>('client'), 'client');
    const event = args.required<Document>('event');
    const count = matchingEvents(client, event, context);
    const expected = args.required<number>('count');
    if (count !== expected) fail(`${describe(event)}: observed ${count}, expected ${expected}`);
    return NOTHING;
  },
  async waitForEvent(_target, args, context) {
    const client = context.entities.get(args.required<string>('client'), 'client');
    const [event, count] = [args.required<Document>('event'), args.required<number>('count')];
    const deadline = Date.now() + WAIT_FOR_EVENT_TIMEOUT_MS;
    for (;;) {
      const observed = matchingEvents(client, event, context);
      if (observed >= count) return NOTHING;
      if (Date.now() > deadline)
        fail(`waitForEvent ${describe(event)}: ${observed} of ${count} within ${WAIT_FOR_EVENT_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_EVENT_POLL_MS));
    }
  },
  async createEntities(_target, args, context) {
    await context.entities.create(args.required('entities'));
    return NOTHING;
  },
  async wait(_target, args) {
    await new Promise((resolve) => setTimeout(resolve, args.required<number>('ms')));
    return NOTHING;
  },
  ...Object.fromEntries(
    UNSUPPORTED.map((name): [string, Handler] => [name, async () => unsupported(`the ${name} test operation`)]),
  ),
};
