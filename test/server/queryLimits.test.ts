// Proves the query limits: the largest operations a client has reason to send pass at the
// defaults (so the ceilings are sized from real operations), and an operation past any limit is
// refused with an error naming the limit, before anything executes (the refused mutations below
// would have opened accounts). Also: batches are bounded, field suggestions are off and stack
// traces absent in production, and graphql-ws applies the same limits.
import { parse, validate, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { queryLimitProtection } from '../../src/server/queryLimits.ts';
import { buildAppSchema } from '../../src/app/schema.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { exhaustiveOperations, readmeOperations } from '../support/operations.ts';
import { Registry } from 'prom-client';
import { createGraphqlTelemetry } from '../../src/server/telemetry.ts';

/** The gate's counters on a registry of the test's own. */
const telemetry = createGraphqlTelemetry(new Registry());

const HOPS = ['entries', 'items', 'account'] as const;

/** Inside `account(id:)`: entries → items → account → …; with `account` itself, `levels` deep. */
function deepAccountSelection(levels: number, leaf = '__typename'): string {
  const hops = Array.from({ length: levels - 2 }, (_, i) => HOPS[i % HOPS.length] as string);
  return hops.reduceRight((inner, hop) => `${hop} { ${inner} }`, leaf);
}

function openAccountAliases(count: number, prefix: string): string {
  const fields = Array.from(
    { length: count },
    (_, i) => `a${i}: openAccount(input: { accountId: "${prefix}-${i}", currency: "EUR" }) { __typename }`,
  );
  return `mutation { ${fields.join(' ')} }`;
}

describe('query limits are sized from real operations', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await buildAppSchema();
  });

  it('lets every exhaustive operation and every README operation through at the defaults', () => {
    const limits = queryLimitProtection(loadConfig({}).limits, telemetry);
    const documents = [...exhaustiveOperations(schema).map((op) => op.document), ...readmeOperations()];
    expect(documents.length).toBeGreaterThan(20);
    for (const document of documents) {
      expect(validate(schema, parse(document), limits.validationRules), document).toEqual([]);
      expect(limits.checkTokens(document), document).toBeNull();
    }
  });

  it('remembers the texts that passed the token check, never one that was refused, and stays bounded', async () => {
    const registry = new Registry();
    const limits = queryLimitProtection(
      { ...loadConfig({}).limits, graphqlTokensMax: 20 },
      createGraphqlTelemetry(registry),
    );
    const refusals = async () =>
      Number(
        /limit="tokens"} (\d+)/.exec(
          await registry.getSingleMetricAsString('graphql_query_limit_refusals_total'),
        )?.[1] ?? 0,
      );
    const small = '{ __typename }';
    const large = `{ ${'__typename '.repeat(30)}}`;
    // A refused text is refused (and counted) every time: a refusal is never remembered as a pass.
    for (let i = 0; i < 3; i += 1) expect(limits.checkTokens(large)?.message).toMatch(/Token limit of 20 exceeded/);
    expect(await refusals()).toBe(3);
    expect(limits.checkTokens(small)).toBeNull();
    expect(limits.checkTokens(small)).toBeNull();
    // Thousands of distinct passing texts later (each evicting the oldest), both answers still hold.
    for (let i = 0; i < 3_000; i += 1) expect(limits.checkTokens(`{ a${i}: __typename }`)).toBeNull();
    expect(limits.checkTokens(small)).toBeNull();
    expect(limits.checkTokens(large)?.message).toMatch(/Token limit of 20 exceeded/);
    expect(await refusals()).toBe(4);
  });

  it('refuses the largest of them once the cost ceiling is below it', () => {
    const transfer = exhaustiveOperations(schema).find((op) => op.name === 'mutation transfer')!;
    const costUnder = (graphqlCostMax: number) =>
      validate(
        schema,
        parse(transfer.document),
        queryLimitProtection({ ...loadConfig({}).limits, graphqlCostMax }, telemetry).validationRules,
      ).map((error) => error.message);
    // Its cost, as the rule reports it when any ceiling is below it; a ceiling just under it refuses it, one at it lets it through.
    const cost = Number(/found (\d+(?:\.\d+)?)/.exec(costUnder(1)[0] ?? '')?.[1]);
    expect(cost).toBeGreaterThan(1);
    expect(costUnder(Math.ceil(cost) - 1)).toEqual([
      expect.stringMatching(new RegExp(`Cost limit of ${Math.ceil(cost) - 1} exceeded, found \\d+`)),
    ]);
    expect(costUnder(Math.ceil(cost))).toEqual([]);
  });
});

describe('query limits over HTTP', () => {
  let app: TestApp;
  let prod: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    prod = await startTestApp({ env: { NODE_ENV: 'production' } });
  });
  afterAll(async () => {
    await app?.close();
    await prod?.close();
  });

  const accountsOpened = (prefix: string) =>
    app.db.collection('accounts').countDocuments({ _id: { $regex: `^${prefix}-` } } as never);

  it('executes a query 10 levels deep and refuses one 11 deep', async () => {
    const ok = await app.gql(`{ account(id: "nobody") { ${deepAccountSelection(10)} } }`);
    expect(ok.errors).toBeUndefined();
    const refused = await app.gql(`{ account(id: "nobody") { ${deepAccountSelection(11)} } }`);
    expect(refused.status).toBe(400);
    expect(refused.data).toBeUndefined();
    expect(refused.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/depth limit of 10 exceeded, found 11/),
        extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }),
      }),
    ]);
  });

  it('refuses a mutation 11 deep without executing it', async () => {
    const deep = `mutation { openAccount(input: { accountId: "deep-1", currency: "EUR" }) { ... on OpenAccountSuccess { account { ${deepAccountSelection(10)} } } } }`;
    const res = await app.gql(deep);
    expect(res.errors?.[0]?.message).toMatch(/depth limit of 10 exceeded/);
    expect(await accountsOpened('deep')).toBe(0);
  });

  it('executes 30 aliases and refuses 31 (and 5,000) without executing any', async () => {
    const thirty = await app.gql(openAccountAliases(30, 'ok30'));
    expect(thirty.errors).toBeUndefined();
    expect(await accountsOpened('ok30')).toBe(30);

    const refused = await app.gql(openAccountAliases(31, 'no31'));
    expect(refused.status).toBe(400);
    expect(refused.errors?.map((error) => error.message)).toContainEqual(
      expect.stringMatching(/Aliases limit of 30 exceeded, found 31/),
    );
    expect(await accountsOpened('no31')).toBe(0);

    const fiveThousand = await app.gql(
      `{ ${Array.from({ length: 5_000 }, (_, i) => `a${i}: account(id: "x") { id }`).join(' ')} }`,
    );
    expect(fiveThousand.data ?? undefined).toBeUndefined();
    expect(fiveThousand.errors?.[0]?.message).toMatch(/limit of \d+ exceeded/);
  });

  it('refuses an operation over the cost ceiling', async () => {
    // 30 aliases (the alias ceiling), each legal alone (depth 10), together under 2,400 tokens but over the 12,000 cost ceiling.
    const field = (i: number) =>
      `a${i}: account(id: "x") { ${deepAccountSelection(10, 'id amount kind currency balanceAfter versionAfter createdAt requestId')} }`;
    const res = await app.gql(`{ ${Array.from({ length: 30 }, (_, i) => field(i)).join(' ')} }`);
    expect(res.status).toBe(400);
    expect(res.data).toBeUndefined();
    expect(res.errors).toHaveLength(1);
    expect(res.errors?.map((error) => error.message)).toContainEqual(
      expect.stringMatching(/Cost limit of 12000 exceeded, found \d+/),
    );
  });

  it('refuses a mutation over a (lowered) cost ceiling without executing it', async () => {
    const strict = await startTestApp({ env: { GRAPHQL_COST_MAX: '100' } });
    try {
      const chain = 'account { entries { items { account { id balance currency version } } } }';
      const fields = Array.from(
        { length: 5 },
        (_, i) =>
          `a${i}: openAccount(input: { accountId: "cost-${i}", currency: "EUR" }) { ... on OpenAccountSuccess { ${chain} } }`,
      );
      const res = await strict.gql(`mutation { ${fields.join(' ')} }`);
      expect(res.errors?.map((error) => error.message)).toEqual([
        expect.stringMatching(/Cost limit of 100 exceeded, found \d+/),
      ]);
      expect(await strict.db.collection('accounts').countDocuments({ _id: { $regex: '^cost-' } } as never)).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it('refuses a document over the token ceiling without executing it', async () => {
    const padding = Array.from({ length: 2_400 }, () => '__typename').join(' ');
    const res = await app.gql(
      `mutation { openAccount(input: { accountId: "tokens-1", currency: "EUR" }) { ${padding} } }`,
    );
    expect(res.status).toBe(400);
    expect(res.errors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/Token limit of 2400 exceeded/) }),
    ]);
    expect(await accountsOpened('tokens')).toBe(0);
  });

  it('refuses more than 10 directives', async () => {
    const fields = Array.from({ length: 11 }, (_, i) => `e${i}: engine @include(if: true)`).join(' ');
    const res = await app.gql(`{ health { ${fields} } }`);
    expect(res.status).toBe(400);
    expect(res.errors?.[0]?.message).toMatch(/Directives limit of 10 exceeded, found 11/);
  });

  it('bounds batched HTTP requests at 10 operations', async () => {
    const post = (count: number) =>
      fetch(app.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.admin}` },
        body: JSON.stringify(Array.from({ length: count }, () => ({ query: '{ health { engine } }' }))),
      });
    const ten = await post(10);
    expect(ten.status).toBe(200);
    expect(await ten.json()).toHaveLength(10);
    const eleven = await post(11);
    expect(eleven.status).toBe(400);
    expect(await eleven.json()).toEqual({
      errors: [
        expect.objectContaining({ message: expect.stringMatching(/at most 10 operations; this one carries 11/) }),
      ],
    });
  });

  it('suggests field names in development only', async () => {
    const dev = await app.gql('{ healt { engine } }');
    expect(dev.errors?.[0]?.message).toMatch(/Did you mean "health"/);
    const res = await prod.gql('{ healt { engine } }');
    expect(res.errors?.[0]?.message).toMatch(/Cannot query field "healt"/);
    expect(res.errors?.[0]?.message).not.toMatch(/health/);
  });

  it('answers refusals without stack traces in production', async () => {
    const res = await prod.gql(`{ account(id: "nobody") { ${deepAccountSelection(11)} } }`);
    expect(res.errors?.[0]?.message).toMatch(/depth limit/);
    expect(JSON.stringify(res.errors)).not.toMatch(/stacktrace|at .*\.ts:/);
    // Outside production a stack trace only with LOG_LEVEL=debug (test/server/errorsSayWhatToDo.test.ts).
    const dev = await app.gql(`{ account(id: "nobody") { ${deepAccountSelection(11)} } }`);
    expect(dev.errors?.[0]?.extensions).not.toHaveProperty('stacktrace');
  });

  it('applies the same limits over graphql-ws', async () => {
    const ws = app.ws('admin');
    const deep = await ws
      .execute(`{ account(id: "nobody") { ${deepAccountSelection(11)} } }`)
      .catch((error: unknown) => error);
    expect(JSON.stringify(deep)).toMatch(/depth limit of 10 exceeded/);
    const tokens = await ws
      .execute(
        `mutation { openAccount(input: { accountId: "wstokens-1", currency: "EUR" }) { ${'__typename '.repeat(2_400)} } }`,
      )
      .catch((error: unknown) => error);
    expect(JSON.stringify(tokens)).toMatch(/Token limit of 2400 exceeded/);
    expect(await accountsOpened('wstokens')).toBe(0);
  });
});
