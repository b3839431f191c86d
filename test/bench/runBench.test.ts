import { describe, expect, it } from 'vitest';
import { runBench } from '../../bench/runBench.ts';
import { scenarios } from '../../bench/scenarios/index.ts';
import { testMongoUri } from '../support/mongo.ts';

// Keeps `npm run bench` from rotting: runs its quick mode in-process on the test engine and
// checks that every scenario reported a line with its target, no request went wrong, and the
// invariants were checked and held. Speed is not asserted here: targets only report.

async function bench(argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runBench({ argv, env: { MONGODB_URI: testMongoUri() }, write: (line) => void lines.push(line) });
  return { code, lines };
}

const figureLine = (name: string) => new RegExp(`^${name}\\s+\\d+ ops .* errors 0 .*\\| target .*: (MET|MISSED)$`);

describe('npm run bench', () => {
  it('runs every scenario in quick mode without errors and checks the invariants', async () => {
    const { code, lines } = await bench(['--quick']);
    expect(code, lines.join('\n')).toBe(0);
    expect(lines).toContain('engine: uri, because MONGODB_URI is set');
    const names = [
      ...scenarios.map((scenario) => scenario.name).filter((name) => !['work', 'fanout-1000', 'cost-per-withdrawal'].includes(name)),
      'cost-per-withdrawal-money',
      'cost-per-withdrawal-payout-work',
      'work-create',
      'work-drain',
      'fanout-1000-writes-alone',
      'fanout-1000-writes',
      'fanout-1000-delivery',
    ];
    for (const name of names) expect(lines.filter((line) => figureLine(name).test(line)), name).toHaveLength(1);
    // The plain-driver baseline ran on the same load, and each comparison line was printed.
    for (const name of ['raw-withdraw-c1-spread', 'raw-withdraw-c32-spread']) expect(lines.filter((line) => figureLine(name).test(line)), name).toHaveLength(1);
    for (const name of ['withdraw-c1-spread', 'withdraw-c32-spread']) {
      expect(lines.filter((line) => new RegExp(`^api/raw-${name}\\s+api/raw +\\d+%.*\\| target .*: (MET|MISSED)$`).test(line)), name).toHaveLength(1);
    }
    expect(lines.filter((line) => /^fanout-1000-writes-ratio\s+with\/without +\d+%/.test(line))).toHaveLength(1);
    // Every subscriber got every event once (errors 0 above counts lost and duplicated).
    expect(lines.find((line) => line.startsWith('fanout-1000-delivery'))).toMatch(/lost 0, duplicated 0/);
    expect(lines.filter((line) => line.startsWith('✓ invariant:'))).toHaveLength(7);
    expect(lines.at(-1)).toBe('invariants hold');
  }, 240_000); // every scenario, two of them seeding a database of their own in bulk

  it('runs only the scenarios a name picks', async () => {
    const { code, lines } = await bench(['--quick', 'replay']);
    expect(code).toBe(0);
    expect(lines.filter((line) => line.startsWith('▶'))).toEqual([expect.stringMatching(/^▶ replay: /)]);
    expect(lines.some((line) => figureLine('replay').test(line))).toBe(true);
  }, 30_000);

  it('reports a scenario that fails, goes on with the next, checks the invariants and exits 1', async () => {
    const replay = scenarios.find((scenario) => scenario.name === 'replay')!;
    const failing = { name: 'fails', describe: () => 'throws in its set-up', run: () => Promise.reject(new Error('the engine stopped answering')) };
    const lines: string[] = [];
    const code = await runBench({ argv: ['--quick'], env: { MONGODB_URI: testMongoUri() }, write: (line) => void lines.push(line), scenarios: [failing, replay] });
    expect(code).toBe(1);
    expect(lines).toContain('✗ fails failed: Error: the engine stopped answering');
    expect(lines.some((line) => figureLine('replay').test(line))).toBe(true);
    expect(lines).toContain('invariants hold');
    expect(lines.at(-1)).toBe('1 scenario(s) FAILED: fails');
  }, 30_000);

  it('refuses an unknown engine placement with exit code 2', async () => {
    const lines: string[] = [];
    const code = await runBench({ argv: ['--engine', 'elsewhere'], env: {}, write: (line) => void lines.push(line) });
    expect(code).toBe(2);
    expect(lines).toEqual(['unknown --engine elsewhere; known: process, in-process']);
  });

  it('refuses an unknown scenario name with exit code 2, listing the known ones', async () => {
    const { code, lines } = await bench(['no-such-scenario']);
    expect(code).toBe(2);
    expect(lines).toEqual([expect.stringContaining('unknown scenario no-such-scenario; known: withdraw-c1-hot')]);
  });
});
