// @module-tag processes
// Proves the README's curl tour works as written: its ```sh blocks (between the tour markers) run
// in order in one bash with the real curl against a running API, the printed key pasted where the
// README says and localhost:4000 pointed at this test's server, and each block prints exactly the
// JSON lines shown under it (ids, which differ on every run, read as <id>). Then the whole tour
// runs a second time, as a user pasting it again does: each block prints what the README's "Run
// it again" part shows for it (replays and refusals, nothing moved twice), or, for a block it does
// not list, the same as the first time. The docs cannot drift from the API without this test
// going red.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const run = promisify(execFile);
const KEY_PLACEHOLDER = "KEY='<the key npm start printed>'";
const STEP_MARKER = '---tour-step---';

type Step = { script: string; expected: string[]; again: string[] };

async function readTour(): Promise<Step[]> {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const tour = /<!-- tour:start -->([\s\S]*?)<!-- tour:end -->/.exec(readme)?.[1];
  if (tour === undefined) throw new Error('README.md has no tour between its markers');
  const again = /<!-- tour-again:start -->([\s\S]*?)<!-- tour-again:end -->/.exec(readme)?.[1];
  if (again === undefined) throw new Error('README.md has no second run of the tour between its markers');
  const secondRun = new Map(
    [...again.matchAll(/\*\*Block (\d+)\*\*[^\n]*\n+```json\n([\s\S]*?)```/g)].map(([, block, json]) => [
      Number(block),
      json!.trim().split('\n'),
    ]),
  );
  const steps = [...tour.matchAll(/```sh\n([\s\S]*?)```\s*```json\n([\s\S]*?)```/g)].map(([, script, json], index) => {
    const expected = json!.trim().split('\n');
    return { script: script!, expected, again: secondRun.get(index + 1) ?? expected };
  });
  expect([...secondRun.keys()].every((block) => block >= 1 && block <= steps.length)).toBe(true);
  return steps;
}

/** What changes from run to run: ObjectIds and consistency tokens. */
const normalized = (line: string) =>
  line.replace(/\b[0-9a-f]{24}\b/g, '<id>').replace(/"consistencyToken":"[^"]+"/g, '"consistencyToken":"<token>"');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { SEED_DEMO: '0' } });
});
afterAll(async () => {
  await app?.close();
});

async function runTour(steps: Step[]): Promise<string[][]> {
  const { host } = new URL(app.url);
  const script = ['set -e', ...steps.map((step) => `${step.script}\necho ${STEP_MARKER}`)]
    .join('\n')
    .replace(KEY_PLACEHOLDER, `KEY='${app.keys.admin}'`)
    .replaceAll('localhost:4000', host);
  const { stdout } = await run('bash', ['-c', script], { timeout: 30_000 });
  console.log(`the tour printed:\n${stdout}`);
  const printed = stdout.split(`${STEP_MARKER}\n`).slice(0, steps.length);
  expect(printed).toHaveLength(steps.length);
  return printed.map((output) =>
    output
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(normalized),
  );
}

describe('the README tour', () => {
  it('prints what the README shows, block by block, when run with bash and curl as written, and again when run a second time', async () => {
    const steps = await readTour();
    expect(steps.length).toBeGreaterThanOrEqual(4);
    expect(steps[0]!.script).toContain(KEY_PLACEHOLDER);
    const first = await runTour(steps);
    for (const [index, lines] of first.entries())
      expect({ step: index + 1, lines }).toEqual({ step: index + 1, lines: steps[index]!.expected });
    const second = await runTour(steps);
    for (const [index, lines] of second.entries())
      expect({ step: index + 1, run: 2, lines }).toEqual({ step: index + 1, run: 2, lines: steps[index]!.again });
  }, 90_000);
});
