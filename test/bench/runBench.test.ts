import { describe, expect, it } from 'vitest';
import { runBench } from '../../bench/runBench.ts';
import { scenarios } from '../../bench/scenarios/index.ts';
import { testMongoUri } from '../support/mongo.ts';
import { bench, figureLine } from './benchLines.ts';

// Keeps `npm run bench`'s harness from rotting, fast enough for `npm test`: one scenario in quick
// mode on the test engine (its line with its target, the invariants checked and held), a failing
// scenario reported while the run goes on, and bad command lines refused. Every scenario in quick
// mode takes minutes: that run is test/bench/allScenarios.smoke.ts (`npm run test:bench`, in CI).
// Speed is not asserted here: targets only report.

describe('npm run bench', () => {
  it('runs only the scenarios a name picks, then checks the invariants', async () => {
    const { code, lines } = await bench(['--quick', 'replay']);
    expect(code, lines.join('\n')).toBe(0);
    expect(lines).toContain('engine: uri, because MONGODB_URI is set');
    expect(lines.filter((line) => line.startsWith('▶'))).toEqual([expect.stringMatching(/^▶ replay: /)]);
    expect(lines.filter((line) => figureLine('replay').test(line))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('✓ invariant:'))).toHaveLength(7);
    expect(lines.at(-1)).toBe('invariants hold');
  }, 30_000);

  it('reports a scenario that fails, goes on with the next, checks the invariants and exits 1', async () => {
    const replay = scenarios.find((scenario) => scenario.name === 'replay')!;
    const failing = {
      name: 'fails',
      describe: () => 'throws in its set-up',
      run: () => Promise.reject(new Error('the engine stopped answering')),
    };
    const lines: string[] = [];
    const code = await runBench({
      argv: ['--quick'],
      env: { MONGODB_URI: testMongoUri() },
      write: (line) => void lines.push(line),
      scenarios: [failing, replay],
    });
    expect(code).toBe(1);
    expect(lines).toContain('✗ fails failed: Error: the engine stopped answering');
    expect(lines.some((line) => figureLine('replay').test(line))).toBe(true);
    expect(lines).toContain('invariants hold');
    expect(lines.at(-1)).toBe('1 scenario(s) FAILED: fails');
  }, 30_000);

  it('with --tracing on, exports every span of the run over OTLP/HTTP (the overhead figure is this run beside one without)', async () => {
    const { code, lines } = await bench(['--quick', '--tracing', 'on', 'withdraw-c32-spread']);
    expect(code, lines.join('\n')).toBe(0);
    expect(lines).toContainEqual(
      expect.stringMatching(/^tracing: on, every span exported over OTLP\/HTTP to http:\/\/127\.0\.0\.1:\d+$/),
    );
    expect(lines.filter((line) => figureLine('withdraw-c32-spread').test(line))).toHaveLength(1);
    const received = Number(
      /^tracing: (\d+) OTLP export\(s\) received$/.exec(lines.find((line) => line.endsWith('received')) ?? '')?.[1],
    );
    expect(received).toBeGreaterThan(0);
  }, 30_000);

  it('refuses an unknown tracing setting with exit code 2', async () => {
    const lines: string[] = [];
    const code = await runBench({ argv: ['--tracing', 'maybe'], env: {}, write: (line) => void lines.push(line) });
    expect(code).toBe(2);
    expect(lines).toEqual(['unknown --tracing maybe; known: off, on']);
  });

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
