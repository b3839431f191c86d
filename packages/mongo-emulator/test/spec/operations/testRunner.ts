// The special test operations (`object: testRunner`): fail points and assertions about sessions,
// commands, collections and indexes. They return nothing and fail the test on a difference.
import type { Document, MongoClient } from 'mongodb';
import { describe } from '../bsonTypes.ts';
import { fail, unsupported } from '../outcomes.ts';
import type { Arguments, OperationHandler, TestContext } from './context.ts';

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
  const [db, name, index] = [args.required<string>('databaseName'), args.required<string>('collectionName'), args.required<string>('indexName')];
  const indexes = await client.db(db).collection(name).listIndexes().toArray().catch(() => [] as Document[]);
  return indexes.some((i) => i.name === index);
}

const UNSUPPORTED = [
  'targetedFailPoint', 'loop', 'runOnThread', 'waitForThread', 'waitForEvent', 'assertEventCount',
  'recordTopologyDescription', 'assertTopologyType', 'waitForPrimaryChange', 'assertNumberConnectionsCheckedOut',
];

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
