// Proves that a trusted document answers the same through its compiled plan (graphql-jit,
// src/server/compiledExecution.ts) as through graphql-js: every query and mutation of the SDK's
// manifest, each with variables fast-check generates from the operation's variable definitions
// (ids and keys drawn mostly from what the seeded database holds, some values of the wrong type),
// under every role, is sent to two servers on one database that share one schema: one executing
// trusted documents with graphql-js, one through their plans. The HTTP status and the whole JSON
// body (data, errors with their messages, paths, locations and extensions) must be the same.
//
// A mutation cannot run twice alike (the second is a replay, ids and times differ), so the
// resolvers run once: every field resolver of the schema is wrapped so that the graphql-js
// server's request records, by response path, each resolver's arguments and answer (or what it
// threw), and the compiled server's request replays them. What differs between the two is then
// the executors' own work only: coercing variables and arguments, null propagation, abstract
// types, serialising leaves, locating and formatting errors; and a resolver called with other
// arguments, or one called that the other did not call, is a difference too.
//
// Subscriptions are left out: graphql-ws executes them with graphql-js alone (websocket.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import {
  defaultFieldResolver,
  GraphQLEnumType,
  type GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  isObjectType,
  Kind,
  parse,
  responsePathAsArray,
  typeFromAST,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppSchema } from '../../src/app/schema.ts';
import { ROLES, type Role } from '../../src/access/roles.ts';
import { startTestApp, type GqlResponse, type TestApp } from '../support/app.ts';

const MANIFEST = fileURLToPath(new URL('../../packages/sdk/trusted-documents.json', import.meta.url));
/**
 * Generated cases per document: 44 documents, in about half a minute. Not fewer for time: the
 * distinct outcomes (status, error codes and paths, data or none) still grow to the last run; 12
 * runs would meet 16 of 130 fewer, 8 runs 35.
 */
const RUNS_PER_DOCUMENT = 16;
/** Every role, admin more often than the others: most operations are refused to some role, and those refusals are one path. */
const roleArbitrary = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Role>('admin') },
  { weight: 2, arbitrary: fc.constantFrom<Role>(...ROLES) },
);

type Mode = 'pass' | 'record' | 'replay';
interface Call {
  args: string;
  outcome: { value: unknown } | { thrown: unknown };
}

/** Wraps every object field's resolver of `schema` (in place) in a recorder whose mode the test sets per request. */
function recordAndReplay(schema: GraphQLSchema) {
  const state = { mode: 'pass' as Mode, calls: new Map<string, Call>(), differences: [] as string[] };
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        if (state.mode === 'pass') return resolve(source, args, context, info);
        const key = responsePathAsArray(info.path).join('.');
        const argsText = stableJson(args);
        if (state.mode === 'record') {
          const call: Call = { args: argsText, outcome: { value: undefined } };
          state.calls.set(key, call);
          const settle = (value: unknown) => ((call.outcome = { value }), value);
          const fail = (error: unknown) => {
            call.outcome = { thrown: error };
            throw error;
          };
          let result: unknown;
          try {
            result = resolve(source, args, context, info);
          } catch (error) {
            return fail(error);
          }
          return result instanceof Promise ? result.then(settle, fail) : settle(result);
        }
        const call = state.calls.get(key);
        state.calls.delete(key);
        if (!call) {
          state.differences.push(`${key}: resolved by the compiled plan only`);
          return null;
        }
        if (call.args !== argsText)
          state.differences.push(`${key}: arguments ${argsText}, graphql-js passed ${call.args}`);
        if ('thrown' in call.outcome) return Promise.reject(call.outcome.thrown);
        return Promise.resolve(call.outcome.value);
      };
    }
  }
  return state;
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/** What the seed put in the database, by the name of the argument or input field it fits, to draw ids and keys from. */
const pools = {
  account: [] as string[],
  id: [] as string[],
  hold: [] as string[],
  request: [] as string[],
  key: [] as string[],
  kind: ['diff-kind', 'PAYOUT'],
  currency: ['EUR', 'USD'],
  worker: ['worker-1'],
  name: ['diff-schedule'],
  cron: ['0 2 * * *', '*/10 * * * * *'],
};

function poolFor(name: string): string[] {
  if (/account|transferBalanceTo/i.test(name)) return pools.account;
  if (name === 'holdId') return pools.hold;
  if (name === 'id' || name === 'entryId') return pools.id;
  if (/requestId/i.test(name)) return pools.request;
  if (/key/i.test(name)) return pools.key;
  if (/^kinds?$/.test(name)) return pools.kind;
  if (name === 'currency') return pools.currency;
  if (name === 'workerId') return pools.worker;
  if (name === 'cron') return pools.cron;
  if (name === 'name') return pools.name;
  return Object.values(pools).flat();
}

function scalarArbitrary(type: GraphQLScalarType, name: string): fc.Arbitrary<unknown> {
  switch (type.name) {
    case 'String':
    case 'ID':
      // Mostly what the database holds (found, or a key replayed), then fresh keys, then anything.
      return fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...poolFor(name)) },
        { weight: 3, arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/) },
        { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
      );
    case 'Int':
    case 'SafeInt':
      return fc.oneof(
        { weight: 8, arbitrary: fc.integer({ min: 1, max: name === 'first' ? 20 : 120 }) },
        { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 2 ** 53, 1e6) },
      );
    case 'Boolean':
      return fc.boolean();
    case 'DateTime':
      return fc.oneof(
        {
          weight: 8,
          arbitrary: fc
            .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
            .map((date) => date.toISOString()),
        },
        { weight: 1, arbitrary: fc.constant('not a date') },
      );
    case 'BigIntString':
      return fc.bigInt({ min: -5n, max: 10n ** 20n }).map(String);
    case 'JSON':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constant({ note: 'x' }) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
      );
    default:
      throw new Error(`no generator for the scalar ${type.name}: add one`);
  }
}

/** Values of `type`, nearly always of the right type (a wrong one now and then, for the coercion errors). */
function inputArbitrary(type: GraphQLInputType, name: string): fc.Arbitrary<unknown> {
  if (type instanceof GraphQLNonNull) return inputArbitrary(type.ofType, name);
  if (type instanceof GraphQLList) return fc.array(inputArbitrary(type.ofType, name), { maxLength: 3 });
  if (type instanceof GraphQLEnumType)
    return fc.oneof(
      { weight: 19, arbitrary: fc.constantFrom(...type.getValues().map((value) => value.name)) },
      { weight: 1, arbitrary: fc.constant('NOT_A_VALUE') },
    );
  if (type instanceof GraphQLScalarType) return scalarArbitrary(type, name);
  const input = type as GraphQLInputObjectType;
  const fields = Object.values(input.getFields());
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of fields)
    model[field.name] =
      field.type instanceof GraphQLNonNull
        ? inputArbitrary(field.type, field.name)
        : fc.option(inputArbitrary(field.type, field.name), { nil: null });
  const required = fields.filter((field) => field.type instanceof GraphQLNonNull).map((field) => field.name);
  return fc.record(model, { requiredKeys: required });
}

function variablesArbitrary(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType;
    const name = definition.variable.name.value;
    const value = inputArbitrary(type, name);
    // A wrong shape altogether, now and then: a string for an object, an object for a scalar.
    model[name] = fc.oneof(
      { weight: 30, arbitrary: value },
      { weight: 1, arbitrary: fc.constantFrom('wrong', { wrong: true }) },
    );
    if (type instanceof GraphQLNonNull) required.push(name);
  }
  // A required variable left out, now and then.
  return fc.tuple(fc.record(model, { requiredKeys: required }), fc.nat(30)).map(([variables, dice]) => {
    if (dice === 0 && required.length > 0) delete variables[required[0]!];
    return variables;
  });
}

/** The manifest's queries and mutations, by operation name. */
function trustedOperations(): { name: string; text: string; operation: OperationDefinitionNode }[] {
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, string>;
  return Object.values(manifest)
    .map((text) => ({
      text,
      operation: parse(text).definitions.find(
        (node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION,
      )!,
    }))
    .filter(({ operation }) => operation.operation !== 'subscription')
    .map(({ text, operation }) => ({ name: operation.name?.value ?? '(anonymous)', text, operation }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The answer without what the server adds after execution and that differs by the request's time: the consistency token. */
function comparable(response: GqlResponse & { extensions?: Record<string, unknown> }): unknown {
  const { extensions, ...rest } = response;
  const { consistencyToken: _token, ...others } = extensions ?? {};
  return Object.keys(others).length > 0 ? { ...rest, extensions: others } : rest;
}

describe('trusted documents through compiled plans', () => {
  let schema: GraphQLSchema;
  let recorder: ReturnType<typeof recordAndReplay>;
  let graphqlJs: TestApp;
  let compiled: TestApp;

  beforeAll(async () => {
    schema = await buildAppSchema();
    recorder = recordAndReplay(schema);
    const dbName = `test_compiled_${randomBytes(6).toString('hex')}`;
    graphqlJs = await startTestApp({ schema, dbName, trustedExecution: 'graphql-js', env: { SEED_DEMO: '0' } });
    compiled = await startTestApp({ schema, dbName, env: { SEED_DEMO: '0' } });
    await seed(graphqlJs);
  }, 120_000); // two servers and a seed: well past the default hook timeout on a busy machine
  afterAll(async () => {
    await compiled?.close();
    await graphqlJs?.db.dropDatabase().catch(() => undefined);
    await graphqlJs?.close();
  });

  it('answers every query and mutation of the manifest as graphql-js does, errors included', {
    timeout: 600_000,
  }, async () => {
    const operations = trustedOperations();
    expect(operations.length).toBeGreaterThan(30);
    for (const { name, text, operation } of operations) {
      await fc.assert(
        fc.asyncProperty(variablesArbitrary(schema, operation), roleArbitrary, async (variables, role) => {
          recorder.calls.clear();
          recorder.differences.length = 0;
          recorder.mode = 'record';
          const expected = await graphqlJs.gql(text, variables, { key: graphqlJs.keys[role] });
          recorder.mode = 'replay';
          const actual = await compiled.gql(text, variables, { key: compiled.keys[role] });
          recorder.mode = 'pass';
          for (const key of recorder.calls.keys()) recorder.differences.push(`${key}: resolved by graphql-js only`);
          expect(recorder.differences, name).toEqual([]);
          expect(comparable(actual), name).toEqual(comparable(expected));
        }),
        { numRuns: RUNS_PER_DOCUMENT, seed: 43 },
      );
    }
    // Every one of them ran through a plan, not through graphql-js by another way.
    expect(compiled.server.compiledDocuments()).toBe(operations.length);
    expect(graphqlJs.server.compiledDocuments()).toBe(0);
  });
});

/** Accounts with money, a hold, a few work items (one claimed), a schedule: something for most documents to find. */
async function seed(app: TestApp): Promise<void> {
  const run = async (query: string, variables: Record<string, unknown>, key: Role = 'admin') => {
    const response = await app.gql(query, variables, { key });
    if (response.errors) throw new Error(`seed: ${JSON.stringify(response.errors)}`);
    return response.data as Record<string, any>;
  };
  for (const [accountId, currency] of [
    ['diff-a', 'EUR'],
    ['diff-b', 'EUR'],
    ['diff-c', 'USD'],
    ['diff-empty', 'EUR'],
  ] as const) {
    await run('mutation ($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }', {
      input: { accountId, currency },
    });
    pools.account.push(accountId);
  }
  for (const accountId of ['diff-a', 'diff-b', 'diff-c']) {
    const requestId = `seed-deposit-${accountId}`;
    await run('mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }', {
      input: { accountId, amount: 1_000, requestId, reference: 'inv-1' },
    });
    pools.request.push(requestId);
  }
  const withdrawn = await run(
    'mutation ($input: WithdrawInput!) { withdraw(input: $input) { ... on WithdrawSuccess { entry { id } } } }',
    {
      input: { accountId: 'diff-a', amount: 50, requestId: 'seed-withdraw' },
    },
  );
  pools.request.push('seed-withdraw');
  pools.id.push(withdrawn['withdraw'].entry.id);
  const held = await run(
    'mutation ($input: AuthorizeHoldInput!) { authorizeHold(input: $input) { ... on AuthorizeHoldSuccess { hold { id } } } }',
    {
      input: { accountId: 'diff-b', amount: 100, expiresInSeconds: 600, requestId: 'seed-hold' },
    },
  );
  pools.request.push('seed-hold');
  pools.hold.push(held['authorizeHold'].hold.id);
  pools.id.push(held['authorizeHold'].hold.id);
  for (const key of ['seed-item-1', 'seed-item-2', 'seed-item-3']) {
    const created = await run(
      'mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) { ... on CreateWorkItemSuccess { item { id } } } }',
      {
        input: { kind: 'diff-kind', idempotencyKey: key, payload: { n: 1 } },
      },
    );
    pools.key.push(key);
    pools.id.push(created['createWorkItem'].item.id);
  }
  await run(
    'mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) { __typename } }',
    { input: { kinds: ['diff-kind'], workerId: 'worker-1' } },
    'worker',
  );
  await run('mutation ($input: ScheduleWorkInput!) { scheduleWork(input: $input) { __typename } }', {
    input: { name: 'diff-schedule', kind: 'diff-kind', cron: '0 2 * * *' },
  });
}
