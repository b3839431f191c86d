import { describe, expect, it } from 'vitest';
import { scenarios } from '../../bench/scenarios/index.ts';
import { bench, figureLine } from './benchLines.ts';

// Every scenario of `npm run bench` in quick mode on the test engine: each reported its line with
// its target, no request went wrong, and the invariants were checked and held. Minutes long (two
// scenarios seed a database of their own in bulk), so it runs apart from `npm test`:
// `npm run test:bench` (vitest.bench.config.ts), which .ci/run calls. Speed is not asserted.

describe('npm run bench, every scenario', () => {
  it('runs every scenario in quick mode without errors and checks the invariants', async () => {
    const { code, lines } = await bench(['--quick']);
    expect(code, lines.join('\n')).toBe(0);
    expect(lines).toContain('engine: uri, because MONGODB_URI is set');
    const names = [
      ...scenarios
        .map((scenario) => scenario.name)
        .filter((name) => !['work', 'work-claim', 'fanout-1000', 'cost-per-withdrawal', 'payout-e2e'].includes(name)),
      'cost-per-withdrawal-money',
      'cost-per-withdrawal-payout-work',
      'work-create',
      'work-drain',
      'work-claim-kinds',
      'work-claim-groups-1',
      'work-claim-groups-10',
      'work-claim-groups-1000',
      'fanout-1000-writes-alone',
      'fanout-1000-writes',
      'fanout-1000-delivery',
      'fanout-1000-graphql-ws-writes',
      'fanout-1000-graphql-ws-delivery',
      'payout-e2e-c1',
      'payout-e2e-c16',
    ];
    for (const name of names)
      expect(
        lines.filter((line) => figureLine(name).test(line)),
        name,
      ).toHaveLength(1);
    // The plain-driver baseline ran on the same load, and each comparison line was printed.
    for (const name of ['raw-withdraw-c1-spread', 'raw-withdraw-c32-spread'])
      expect(
        lines.filter((line) => figureLine(name).test(line)),
        name,
      ).toHaveLength(1);
    for (const name of ['withdraw-c1-spread', 'withdraw-c32-spread']) {
      expect(
        lines.filter((line) =>
          new RegExp(`^api/raw-${name}\\s+api/raw +\\d+%.*\\| target .*: (MET|MISSED)$`).test(line),
        ),
        name,
      ).toHaveLength(1);
    }
    for (const name of ['fanout-1000', 'fanout-1000-graphql-ws']) {
      expect(
        lines.filter((line) => new RegExp(`^${name}-writes-ratio\\s+with/without +\\d+%`).test(line)),
        name,
      ).toHaveLength(1);
      // Every subscriber got every event once (errors 0 above counts lost and duplicated).
      expect(
        lines.find((line) => line.startsWith(`${name}-delivery`)),
        name,
      ).toMatch(/lost 0, duplicated 0/);
    }
    // The second delivery line's subscribers were graphql-ws's own client, a UUID per operation.
    expect(lines.find((line) => line.startsWith('fanout-1000-graphql-ws-delivery'))).toMatch(
      /clients: graphql-ws createClient/,
    );
    expect(lines.filter((line) => line.startsWith('✓ invariant:'))).toHaveLength(7);
    expect(lines.at(-1)).toBe('invariants hold');
  }, 240_000); // every scenario, two of them seeding a database of their own in bulk
});
