// @module-tag processes
// The fault-injection run's short form, inside `npm test` (issue 24 item 3): two API processes on
// a three-member set, a few seconds of moves through the SDK, a step-down and a SIGKILL of the
// primary on the fixed seed's schedule, and the whole checker. The long form, with every fault
// kind, is `npm run test:faults` (test/faults/full.faults.ts).
import { expect, it } from 'vitest';
import { runFaultSuite } from './faultRun.ts';

it('keeps every guarantee over what was acknowledged through a step-down and a killed primary', async () => {
  const report = await runFaultSuite({
    seed: 24,
    workloadMs: 8_000,
    faultCount: 2,
    faultKinds: ['stepDown', 'primarySigkill'],
    apiProcesses: 2,
    lanes: 6,
    accounts: 4,
  });
  console.log(report.table);
  expect(report.faults.map((f) => f.kind).sort()).toEqual(['primarySigkill', 'stepDown']);
  expect(report.moves.filter((m) => m.final !== undefined).length).toBeGreaterThan(20);
  expect(report.violations).toEqual([]);
}, 240_000);
