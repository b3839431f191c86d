// Executing one test of a file: initial data, entities, operations, then the checks on events
// and collection contents, and a cleanup that runs whatever happened.
import type { Document, MongoClient } from 'mongodb';
import { EntityMap } from './entities.ts';
import { executeOperation } from './executeOperation.ts';
import { eventsDifference, type ExpectedEventsForClient } from './expectEvents.ts';
import { Matcher, exactDifference } from './matcher.ts';
import { SkipTest, TestFailure, unsupported } from './outcomes.ts';
import type { Operation, TestContext } from './operations/context.ts';

export interface CollectionData {
  databaseName: string;
  collectionName: string;
  createOptions?: Document;
  documents: Document[];
}

export interface TestCase {
  description: string;
  runOnRequirements?: unknown[];
  skipReason?: string;
  operations: Operation[];
  expectEvents?: ExpectedEventsForClient[];
  /** Schema 1.13+: log messages a client must have emitted (not supported: the test is skipped). */
  expectLogMessages?: unknown[];
  outcome?: CollectionData[];
}

export interface TestFile {
  description: string;
  schemaVersion: string;
  runOnRequirements?: unknown[];
  createEntities?: Array<Record<string, Record<string, unknown>>>;
  initialData?: CollectionData[];
  tests: TestCase[];
}

const MAJORITY = { w: 'majority' } as const;

/** initialData: drop, create (with createOptions), insert, all with a majority write concern. */
export async function loadInitialData(client: MongoClient, data: CollectionData[]): Promise<void> {
  for (const { databaseName, collectionName, createOptions, documents } of data) {
    const db = client.db(databaseName);
    await db.collection(collectionName).drop({ writeConcern: MAJORITY });
    if (createOptions !== undefined || documents.length === 0) {
      await db.command({ create: collectionName, ...createOptions, writeConcern: MAJORITY });
    }
    if (documents.length > 0) await db.collection(collectionName).insertMany(documents, { writeConcern: MAJORITY });
  }
}

/** Every collection of `outcome` whose contents differ, each with all its differences. */
async function outcomeDifferences(client: MongoClient, outcome: CollectionData[]): Promise<string[]> {
  const differences: string[] = [];
  for (const { databaseName, collectionName, documents } of outcome) {
    const actual = await client
      .db(databaseName)
      .collection(collectionName)
      .find({}, { sort: { _id: 1 }, readPreference: 'primary', readConcern: { level: 'local' } })
      .toArray();
    const difference = exactDifference(documents, actual, `outcome ${databaseName}.${collectionName}`);
    if (difference !== null) differences.push(difference);
  }
  return differences;
}

/** Kill every open session, so transactions a test left open cannot block the next one. */
export async function killAllSessions(client: MongoClient): Promise<void> {
  await client
    .db('admin')
    .command({ killAllSessions: [] })
    .catch(() => undefined);
}

/** One test's execution; `cleanup` must run afterwards even when `execute` failed or hung. */
export class TestRun {
  private readonly entities: EntityMap;
  private readonly context: TestContext;
  private failed = true;

  constructor(
    private readonly file: TestFile,
    private readonly test: TestCase,
    uri: string,
    private readonly internalClient: MongoClient,
  ) {
    this.entities = new EntityMap(uri);
    const context: TestContext = {
      entities: this.entities,
      internalClient,
      matcher: new Matcher(this.entities),
      failPoints: [],
      startedTransaction: false,
      runOperations: async (operations, { propagateErrors }) => {
        for (const operation of operations) await executeOperation(operation, context, propagateErrors);
      },
    };
    this.context = context;
  }

  async execute(): Promise<void> {
    // Skipped before it touches the server: its log assertions could never be checked.
    if (this.test.expectLogMessages !== undefined) unsupported('expectLogMessages (log message assertions)');
    await loadInitialData(this.internalClient, this.file.initialData ?? []);
    await this.entities.create(this.file.createEntities ?? []);
    // A failed operation ends the operations (later ones depend on it), but the events and the
    // outcome are still checked, so the report shows every difference of the test at once.
    const differences: string[] = [];
    try {
      await this.context.runOperations(this.test.operations, { propagateErrors: false });
    } catch (error) {
      if (!(error instanceof TestFailure)) throw error;
      differences.push(error.message);
    }
    for (const client of this.entities.clients()) client.stopObserving();
    await this.disableFailPoints();
    for (const expectation of this.test.expectEvents ?? []) {
      try {
        const difference = eventsDifference(expectation, this.entities, this.context.matcher);
        if (difference !== null) differences.push(difference);
      } catch (error) {
        // An unsupported assertion skips the test only when nothing else already failed it.
        if (error instanceof SkipTest && differences.length > 0) continue;
        throw error;
      }
    }
    differences.push(...(await outcomeDifferences(this.internalClient, this.test.outcome ?? [])));
    if (differences.length > 0) throw new TestFailure(differences.join('\n'));
    this.failed = false;
  }

  private async disableFailPoints(): Promise<void> {
    // One node: the internal client reaches the server that holds the fail point.
    const failPoints = this.context.failPoints.splice(0);
    for (const { name } of failPoints) {
      await this.internalClient.db('admin').command({ configureFailPoint: name, mode: 'off' });
    }
  }

  async cleanup(): Promise<void> {
    await this.disableFailPoints().catch(() => undefined);
    await this.entities.close();
    if (this.context.startedTransaction || this.failed) await killAllSessions(this.internalClient);
  }
}
