// The rate limit holds across processes: three API servers, each with its own MongoClient, its own
// limiter and its own HTTP port (as three processes of one deployment are; in one test process to
// keep the suite fast), on one database, one API key configured on all three. The key's budget is
// one bucket in MongoDB, so requests spread over two servers are admitted as one server would admit
// them, not twice over, and the third, which served none of them, then refuses with the same
// RATE_LIMITED / HTTP 429 / Retry-After as ever. With a bucket per process (the design before)
// each server would admit the whole burst. The refill (0.01/s) adds no token while the test runs.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const burst = 12;
const perSecond = 0.01;

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

describe('rate limit across API processes', () => {
  it("admits one key's budget once, whichever process serves it", async () => {
    const dbName = `test_shared_rate_limit_${randomBytes(4).toString('hex')}`;
    const shared = `shared-ops-${randomBytes(12).toString('hex')}`;
    apps.push(
      ...(await Promise.all(
        [0, 1, 2].map(() =>
          startTestApp({
            dbName,
            apiKeys: { [shared]: 'ops' },
            env: { RATE_LIMITS: `ops=${perSecond}/${burst}`, SEED_DEMO: '0' },
          }),
        ),
      )),
    );
    const [a, b, c] = apps as [TestApp, TestApp, TestApp];
    const asShared = { authorization: `Bearer ${shared}` };

    // Two servers spend the key's budget between them, in turns: the burst, once.
    const answers: string[] = [];
    for (let i = 0; i < 2 * burst; i++) {
      const reply = await (i % 2 === 0 ? a : b).gql('{ __typename }', {}, asShared);
      answers.push(reply.errors ? String(reply.errors[0]?.extensions?.['code']) : 'OK');
    }
    expect(answers.filter((answer) => answer === 'OK')).toHaveLength(burst);
    expect(answers.slice(burst)).toEqual(Array(burst).fill('RATE_LIMITED'));

    // The third server has served nothing of this key, yet its bucket is the same one: empty.
    const refused = await c.gql('{ __typename }', {}, asShared);
    expect(refused.status).toBe(429);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    // One token at 0.01/s: about 100 s away.
    expect(Number(refused.errors?.[0]?.extensions?.['retryAfterSeconds'])).toBeGreaterThan(90);
    // Another key of the same role keeps its own budget.
    expect((await c.gql('{ __typename }', {}, { key: 'ops' })).errors).toBeUndefined();
  });
});
