// The fault-injection run (issue 24 item 3), `npm run test:faults`: three API processes on a
// three-member set, a minute of moves through the SDK, every fault kind twice on the fixed seed's
// schedule, the whole checker, and the table. Bounded: the workload stops by itself, and so does
// every wait of the checker.
import { expect, it } from 'vitest';
import { FAULT_KINDS, runFaultSuite } from './faultRun.ts';

const SEED = Number(process.env['FAULT_SEED'] ?? 2024);

// Twenty minutes at most: fourteen faults, each waited out until the set is whole again, on a
// shared 2-core machine at load 20-30 (the whole-set kills and the restarted API processes take
// 30-60 s each there).
it(`keeps every guarantee over what was acknowledged, through every fault kind (seed ${SEED})`, async () => {
  const report = await runFaultSuite({
    seed: SEED,
    workloadMs: 75_000,
    faultCount: FAULT_KINDS.length * 2,
    apiProcesses: 3,
    lanes: 12,
    accounts: 6,
  });
  console.log(report.table);
  // Every kind twice, the whole set's kill included (issue 42 items 1-2), each whole set back.
  expect(
    Object.fromEntries(FAULT_KINDS.map((kind) => [kind, report.faults.filter((f) => f.kind === kind).length])),
  ).toEqual(Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 2])));
  expect(report.faults.filter((f) => f.kind === 'wholeSetSigkill').every((f) => f.backAt !== undefined)).toBe(true);
  expect(report.violations).toEqual([]);
}, 1_200_000);
