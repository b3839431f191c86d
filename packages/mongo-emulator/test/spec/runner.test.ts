// Proves the runner end to end on a hand-written unified test file, against the engine of this
// test run: matching tests pass, each kind of mismatch fails with all its differences, skips and
// non-applicable tests carry their reasons, and an unsupported schema version is refused.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testMongoUri } from '../../../../test/support/mongo.ts';
import { gatherServerFacts } from './requirements.ts';
import { runFile, type RunnerResources, type TestReport } from './runFile.ts';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'selftest.json');

describe('spec runner on a self-test file', () => {
  let client: MongoClient;
  let resources: RunnerResources;
  let reports: Map<string, TestReport>;

  beforeAll(async () => {
    const uri = testMongoUri();
    client = new MongoClient(uri);
    await client.connect();
    resources = { uri, internalClient: client, facts: await gatherServerFacts(client, uri), testTimeoutMs: 10_000 };
    reports = new Map((await runFile(FIXTURE, resources)).map((r) => [r.test, r]));
  });

  afterAll(async () => {
    await client
      .db('spec-runner-selftest')
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
  });

  it('names the area and file of every test', () => {
    expect([...reports.values()].every((r) => r.area === 'fixtures' && r.file === 'fixtures/selftest.json')).toBe(true);
  });

  it('passes a test whose results, events and outcome match', () => {
    expect(reports.get('passes when results, events and outcome match')).toMatchObject({ status: 'passed' });
    expect(reports.get('passes when the expected server error comes')).toMatchObject({ status: 'passed' });
  });

  it('checks events and outcome even after a failed operation, and reports every difference', () => {
    const detail =
      reports.get('reports every difference: a wrong result, a wrong event and a wrong outcome')?.detail ?? '';
    expect(detail.split('\n')).toEqual([
      'collection0.find: result[0].x: expected 12, got 11',
      'expectEvents[client0][1] commandStartedEvent (find): command.find: expected "other", got "coll0"',
      expect.stringMatching(/^outcome spec-runner-selftest.coll0: expected 2 elements, got 1/),
    ]);
  });

  it('fails each kind of mismatch with its difference', () => {
    expect(reports.get('fails on a wrong result')).toMatchObject({
      status: 'failed',
      detail: 'collection0.find: result[0].x: expected 12, got 11',
    });
    expect(reports.get('fails when a long is expected and an int comes')).toMatchObject({
      status: 'failed',
      detail: 'collection0.find: result[0].x: expected type long, got int 11',
    });
    expect(reports.get('fails on a wrong outcome')?.detail).toMatch(
      /^outcome spec-runner-selftest.coll0: expected 2 elements, got 1/,
    );
    expect(reports.get('fails when an expected error does not come')?.detail).toMatch(
      /collection0.insertOne: expected an error/,
    );
    expect(reports.get('fails on an unexpected extra event')?.detail).toMatch(
      /expectEvents\[client0\]: expected 0 events, observed 1/,
    );
  });

  it('reports skips and non-applicable tests with their reasons', () => {
    expect(reports.get('is skipped by its skipReason')).toMatchObject({
      status: 'skipped',
      detail: 'skipReason: a reason stated in the file',
    });
    expect(reports.get('is not applicable on a 7.0 server')).toMatchObject({
      status: 'notApplicable',
      detail: expect.stringMatching(/needs server >= 99.0/),
    });
    expect(reports.get('is skipped when it needs GridFS')).toMatchObject({
      status: 'skipped',
      detail: expect.stringMatching(/GridFS/),
    });
  });

  it('refuses a file of a newer schema version, failing each of its tests', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spec-runner-'));
    try {
      const path = join(dir, 'future.json');
      await writeFile(
        path,
        JSON.stringify({ description: 'future', schemaVersion: '1.21', tests: [{ description: 't', operations: [] }] }),
      );
      const [report] = await runFile(path, resources);
      expect(report).toMatchObject({
        status: 'failed',
        detail: expect.stringMatching(/schemaVersion 1.21 is not supported/),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('skips a test that asserts log messages (schema 1.13+) instead of passing it unchecked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spec-runner-'));
    try {
      const path = join(dir, 'logs.json');
      const expectLogMessages = [
        { client: 'c', messages: [{ level: 'debug', component: 'command', data: { message: 'Command started' } }] },
      ];
      await writeFile(
        path,
        JSON.stringify({
          description: 'logs',
          schemaVersion: '1.16',
          tests: [{ description: 't', operations: [], expectLogMessages }],
        }),
      );
      const [report] = await runFile(path, resources);
      expect(report).toMatchObject({
        status: 'skipped',
        detail: 'runner does not support expectLogMessages (log message assertions)',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('observes SDAM events, waits for one, and fails on a description of another type', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spec-runner-'));
    try {
      const path = join(dir, 'sdam.json');
      const client = { client: { id: 'c', observeEvents: ['topologyOpeningEvent', 'serverDescriptionChangedEvent'] } };
      const test = (description: string, type: string) => ({
        description,
        operations: [
          { name: 'createEntities', object: 'testRunner', arguments: { entities: [client] } },
          {
            name: 'waitForEvent',
            object: 'testRunner',
            arguments: {
              client: 'c',
              event: { serverDescriptionChangedEvent: { newDescription: { type: 'RSPrimary' } } },
              count: 1,
            },
          },
        ],
        expectEvents: [
          {
            client: 'c',
            eventType: 'sdam',
            ignoreExtraEvents: true,
            events: [{ topologyOpeningEvent: {} }, { serverDescriptionChangedEvent: { newDescription: { type } } }],
          },
        ],
      });
      const file = {
        description: 'sdam',
        schemaVersion: '1.17',
        tests: [test('primary', 'RSPrimary'), test('standalone', 'Standalone')],
      };
      await writeFile(path, JSON.stringify(file));
      const [primary, standalone] = await runFile(path, resources);
      expect(primary).toMatchObject({ status: 'passed' });
      expect(standalone).toMatchObject({
        status: 'failed',
        detail:
          'expectEvents[c][1] serverDescriptionChangedEvent: newDescription.type: expected Standalone, got RSPrimary',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
