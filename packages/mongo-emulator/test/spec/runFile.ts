// Executing a test file: parse it as Extended JSON, check its schema version and requirements,
// then run each test with a bounded time and report one result per test.
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { EJSON } from 'bson';
import type { MongoClient } from 'mongodb';
import { SkipTest } from './outcomes.ts';
import { unmetRequirements, type RunOnRequirement, type ServerFacts } from './requirements.ts';
import { TestRun, type TestCase, type TestFile } from './runTest.ts';
import { schemaVersionProblem } from './schemaVersion.ts';

export type TestStatus = 'passed' | 'failed' | 'skipped' | 'notApplicable';

export interface TestReport {
  /** `area/file.json`: the area is the directory the file sits in. */
  file: string;
  area: string;
  test: string;
  status: TestStatus;
  /** Every difference of a failure (one per line), the reason for a skip. */
  detail?: string;
}

export interface RunnerResources {
  uri: string;
  internalClient: MongoClient;
  facts: ServerFacts;
  testTimeoutMs: number;
}

/** The bound on cleanup after a test (closing clients, switching fail points off). */
const CLEANUP_TIMEOUT_MS = 10_000;

export function fileKey(path: string): { file: string; area: string } {
  const area = basename(dirname(path));
  return { area, file: `${area}/${basename(path)}` };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Entity types this runner does not implement: a test that creates one is skipped before it
// touches the server, whatever the server would have answered.
const UNSUPPORTED_ENTITIES: Record<string, string> = {
  bucket: 'GridFS (bucket entities) is out of scope',
  clientEncryption: 'clientEncryption entities (CSFLE) are not supported',
  thread: 'thread entities are not supported',
};

function unsupportedEntityReason(file: TestFile, test: TestCase): string | undefined {
  const created = test.operations.filter((o) => o.object === 'testRunner' && o.name === 'createEntities');
  const definitions = [
    ...(file.createEntities ?? []),
    ...created.flatMap((o) => (o.arguments?.entities ?? []) as TestFile['createEntities'] & object),
  ];
  for (const definition of definitions) {
    const reason = UNSUPPORTED_ENTITIES[Object.keys(definition)[0] ?? ''];
    if (reason !== undefined) return `runner: ${reason}`;
  }
  return undefined;
}

async function runOneTest(
  file: TestFile,
  index: number,
  resources: RunnerResources,
): Promise<Pick<TestReport, 'status' | 'detail'>> {
  const test = file.tests[index]!;
  const unmet = await unmetRequirements(test.runOnRequirements as RunOnRequirement[] | undefined, resources.facts);
  if (unmet !== null) return { status: 'notApplicable', detail: unmet };
  if (test.skipReason !== undefined) return { status: 'skipped', detail: `skipReason: ${test.skipReason}` };
  const unsupportedReason = unsupportedEntityReason(file, test);
  if (unsupportedReason !== undefined) return { status: 'skipped', detail: unsupportedReason };
  const run = new TestRun(file, test, resources.uri, resources.internalClient);
  const execution = run.execute();
  execution.catch(() => undefined); // after a timeout its late rejection is expected
  try {
    await withTimeout(execution, resources.testTimeoutMs, 'test');
    return { status: 'passed' };
  } catch (error) {
    if (error instanceof SkipTest) return { status: 'skipped', detail: error.reason };
    return { status: 'failed', detail: error instanceof Error ? error.message : String(error) };
  } finally {
    await withTimeout(run.cleanup(), CLEANUP_TIMEOUT_MS, 'cleanup').catch(() => undefined);
  }
}

export async function runFile(path: string, resources: RunnerResources): Promise<TestReport[]> {
  const { file: fileName, area } = fileKey(path);
  const report = (test: string, result: Pick<TestReport, 'status' | 'detail'>): TestReport => ({
    file: fileName,
    area,
    test,
    ...result,
  });
  let file: TestFile;
  try {
    file = EJSON.parse(await readFile(path, 'utf8'), { relaxed: false }) as TestFile;
  } catch (error) {
    return [report('(file)', { status: 'failed', detail: `cannot parse: ${String(error)}` })];
  }
  const tests = Array.isArray(file.tests) ? file.tests : [];
  const versionProblem = schemaVersionProblem(file.schemaVersion);
  if (versionProblem !== null)
    return tests.map((t) => report(t.description, { status: 'failed', detail: versionProblem }));
  const unmet = await unmetRequirements(file.runOnRequirements as RunOnRequirement[] | undefined, resources.facts);
  if (unmet !== null) return tests.map((t) => report(t.description, { status: 'notApplicable', detail: unmet }));
  const reports: TestReport[] = [];
  for (let i = 0; i < tests.length; i += 1) {
    reports.push(report(tests[i]!.description, await runOneTest(file, i, resources)));
  }
  return reports;
}
