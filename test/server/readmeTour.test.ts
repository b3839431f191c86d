// Proves the README's curl tour works as written: its ```sh blocks (between the tour markers) run
// in order in one bash with the real curl against a running API, the printed key pasted where the
// README says and localhost:4000 pointed at this test's server, and each block prints exactly the
// JSON lines shown under it (ids, which differ on every run, read as <id>). The docs cannot drift
// from the API without this test going red.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const run = promisify(execFile);
const KEY_PLACEHOLDER = "KEY='<the key npm start printed>'";
const STEP_MARKER = '---tour-step---';

async function readTour(): Promise<Array<{ script: string; expected: string[] }>> {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const tour = /<!-- tour:start -->([\s\S]*?)<!-- tour:end -->/.exec(readme)?.[1];
  if (tour === undefined) throw new Error('README.md has no tour between its markers');
  return [...tour.matchAll(/```sh\n([\s\S]*?)```\s*```json\n([\s\S]*?)```/g)].map(([, script, json]) => ({
    script: script!,
    expected: json!.trim().split('\n'),
  }));
}

/** What changes from run to run: ObjectIds and consistency tokens. */
const normalized = (line: string) => line.replace(/\b[0-9a-f]{24}\b/g, '<id>').replace(/"consistencyToken":"[^"]+"/g, '"consistencyToken":"<token>"');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { SEED_DEMO: '0' } });
});
afterAll(async () => {
  await app?.close();
});

describe('the README tour', () => {
  it('prints what the README shows, block by block, when run with bash and curl as written', async () => {
    const steps = await readTour();
    expect(steps.length).toBeGreaterThanOrEqual(4);
    expect(steps[0]!.script).toContain(KEY_PLACEHOLDER);
    const { host } = new URL(app.url);
    const script = ['set -e', ...steps.map((step) => `${step.script}\necho ${STEP_MARKER}`)]
      .join('\n')
      .replace(KEY_PLACEHOLDER, `KEY='${app.keys.admin}'`)
      .replaceAll('localhost:4000', host);
    const { stdout } = await run('bash', ['-c', script], { timeout: 30_000 });
    console.log(`the tour printed:\n${stdout}`);
    const printed = stdout.split(`${STEP_MARKER}\n`).slice(0, steps.length);
    expect(printed).toHaveLength(steps.length);
    printed.forEach((output, index) => {
      const lines = output.split('\n').filter((line) => line.trim() !== '').map(normalized);
      expect({ step: index + 1, lines }).toEqual({ step: index + 1, lines: steps[index]!.expected });
    });
  }, 60_000);
});
