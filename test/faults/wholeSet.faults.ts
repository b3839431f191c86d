// The whole set killed (issue 42 item 2), on its own: power lost to the rack twice while two API
// processes carry the workload, every member SIGKILLed at once and started again on its own data
// (the emulator's --dbpath; mongod's always). The whole checker holds across it (G1-G6, B2, H1-H2,
// W2-W3, P1, R1, R4, R5), and every key sent before the set was back is final within
// WHOLE_SET_FINAL_BOUND_MS of its return. The full run (full.faults.ts) draws this kind twice too.
import { expect, it } from 'vitest';
import { runFaultSuite, WHOLE_SET_FINAL_BOUND_MS } from './faultRun.ts';

it(`keeps every guarantee over what was acknowledged through two kills of the whole set, each key final within ${WHOLE_SET_FINAL_BOUND_MS} ms of its return`, async () => {
  const report = await runFaultSuite({
    seed: 42,
    workloadMs: 20_000,
    faultCount: 2,
    faultKinds: ['wholeSetSigkill'],
    apiProcesses: 2,
    lanes: 8,
    accounts: 4,
  });
  console.log(report.table);
  expect(report.faults.map((f) => f.kind)).toEqual(['wholeSetSigkill', 'wholeSetSigkill']);
  expect(report.faults.every((f) => f.backAt !== undefined)).toBe(true);
  expect(report.violations).toEqual([]);
}, 600_000);
