// @module-tag processes
// Proves what a newcomer's first calls get (issue 37 items 9 and 10), run with the real curl as a
// user types them: a GET of /graphql, a POST without a JSON content type and GET / each say how to
// call the API instead of Apollo's CSRF paragraph or `Cannot GET /`; the README's first call
// pasted with its placeholder says to paste the printed key; a browser at / lands on the console.
// And the README's slips stay fixed: one bullet per console feature, docs/design.md cited by its
// path, the SDK's `npm pack` tarball ignored by git.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RECIPE =
  'Call the API with POST /graphql, the headers content-type: application/json and authorization: Bearer <key>';

let app: TestApp;
let origin: string;
beforeAll(async () => {
  app = await startTestApp();
  origin = new URL(app.url).origin;
});
afterAll(async () => {
  await app?.close();
});

/** curl as a user runs it: status code on the last line. */
async function curl(...args: string[]): Promise<{ status: number; body: string }> {
  const { stdout } = await run('curl', ['-s', '-w', '\n%{http_code}', ...args], { timeout: 20_000 });
  const at = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
}

describe('first contacts', () => {
  it('`curl localhost:4000/graphql` (a GET) says how to call the API', async () => {
    const { status, body } = await curl(app.url);
    expect(status).toBe(400);
    expect(JSON.parse(body).errors[0].message).toContain(RECIPE);
    expect(body).not.toMatch(/CSRF/);
  });

  it('a POST without a JSON content type (curl -d, or none at all) says to send JSON, and how', async () => {
    const form = await curl(
      app.url,
      '-H',
      `authorization: Bearer ${app.keys.admin}`,
      '-d',
      '{"query":"{ health { engine } }"}',
    );
    expect(form.status).toBe(415);
    expect(JSON.parse(form.body).errors[0].message).toMatch(
      /^The request body must be JSON, sent with content-type: application\/json \(this request had content-type application\/x-www-form-urlencoded\)\. Call the API/,
    );
    const none = await curl(
      app.url,
      '-H',
      'content-type:',
      '-H',
      `authorization: Bearer ${app.keys.admin}`,
      '--data-binary',
      '{"query":"{ health { engine } }"}',
    );
    expect(none.status).toBe(415);
    expect(JSON.parse(none.body).errors[0].message).toContain('(this request had no content-type)');
  });

  it('GET / points a program at /graphql and a browser at the console; /favicon.ico is found', async () => {
    const plain = await curl(`${origin}/`);
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.body)).toMatchObject({
      graphql: '/graphql',
      console: '/console',
      ready: '/readyz',
      howToCall: expect.stringContaining(RECIPE),
    });
    const browser = await fetch(`${origin}/`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
      redirect: 'manual',
    });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/console');
    const icon = await fetch(`${origin}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
  });

  it("the README's first call, pasted with its placeholder, says to paste the printed key", async () => {
    const readme = await readFile(`${ROOT}README.md`, 'utf8');
    const block = /<!-- first-call:start -->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toContain('<the printed key>');
    // The README says to wait for /readyz before calling, not /healthz.
    expect(readme.slice(0, readme.indexOf('<!-- first-call:start -->'))).toContain('curl -sf localhost:4000/readyz');
    const { stdout } = await run('bash', ['-c', block!.replaceAll('localhost:4000', new URL(app.url).host)], {
      timeout: 20_000,
    });
    const error = JSON.parse(stdout).errors[0];
    expect(error.extensions.code).toBe('UNAUTHENTICATED');
    expect(error.message).toMatch(
      /^The Authorization header holds a placeholder \(<\.\.\.>\): paste the key itself; npm start prints it/,
    );
    // With the key pasted, the same block answers.
    const pasted = await run(
      'bash',
      ['-c', block!.replaceAll('localhost:4000', new URL(app.url).host).replace('<the printed key>', app.keys.admin)],
      { timeout: 20_000 },
    );
    expect(JSON.parse(pasted.stdout).data.health.engine).toEqual(expect.any(String));
  });
});

describe("the README's slips (issue 37 item 10)", () => {
  it('lists each console feature once, cites docs/design.md by its path, and git ignores the SDK tarball', async () => {
    const readme = await readFile(`${ROOT}README.md`, 'utf8');
    const heads = [...readme.matchAll(/^- \*\*([^*]+)\*\*/gm)].map(([, head]) => head!);
    expect(heads.filter((head, index) => heads.indexOf(head) !== index)).toEqual([]);
    expect(readme.replaceAll('docs/design.md', '')).not.toMatch(/DESIGN\.md/i);
    for (const path of ['precondition-sdk-0.1.0.tgz', '.data/admin-key'])
      await run('git', ['check-ignore', '-q', path], { cwd: ROOT });
  });
});
