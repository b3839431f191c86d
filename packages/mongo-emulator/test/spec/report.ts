// The run's report: failures with all their differences, a table per area, the ratchet's
// findings, and the closing `N passed, M failed` line.
import type { RatchetVerdict } from './knownFailures.ts';
import { testKey } from './knownFailures.ts';
import type { TestReport } from './runFile.ts';

interface AreaFigures {
  total: number;
  applicable: number;
  passed: number;
  failed: number;
  skipped: number;
}

export function figuresByArea(reports: TestReport[]): Map<string, AreaFigures> {
  const areas = new Map<string, AreaFigures>();
  for (const report of reports) {
    const figures = areas.get(report.area) ?? { total: 0, applicable: 0, passed: 0, failed: 0, skipped: 0 };
    figures.total += 1;
    if (report.status !== 'notApplicable') figures.applicable += 1;
    if (report.status === 'passed') figures.passed += 1;
    if (report.status === 'failed') figures.failed += 1;
    if (report.status === 'skipped') figures.skipped += 1;
    areas.set(report.area, figures);
  }
  return new Map([...areas].sort(([a], [b]) => a.localeCompare(b)));
}

export function formatFailure(report: TestReport): string {
  return `FAIL ${report.file} › ${report.test}\n     ${(report.detail ?? '').replaceAll('\n', '\n     ')}`;
}

export function formatSkips(reports: TestReport[]): string[] {
  const reasons = new Map<string, number>();
  for (const r of reports.filter((r) => r.status === 'skipped'))
    reasons.set(`${r.area}: ${r.detail}`, (reasons.get(`${r.area}: ${r.detail}`) ?? 0) + 1);
  return [...reasons].sort(([a], [b]) => a.localeCompare(b)).map(([reason, count]) => `  skipped ${count}× ${reason}`);
}

export function formatTable(reports: TestReport[]): string[] {
  const pad = (value: string | number, width: number) => String(value).padStart(width);
  const lines = [
    `${'area'.padEnd(30)}${pad('applicable', 11)}${pad('passed', 8)}${pad('failed', 8)}${pad('skipped', 9)}${pad('pass %', 8)}`,
  ];
  for (const [area, f] of figuresByArea(reports)) {
    const runnable = f.applicable - f.skipped;
    const rate = runnable > 0 ? ((100 * f.passed) / runnable).toFixed(1) : '-';
    lines.push(
      `${area.padEnd(30)}${pad(f.applicable, 11)}${pad(f.passed, 8)}${pad(f.failed, 8)}${pad(f.skipped, 9)}${pad(rate, 8)}`,
    );
  }
  return lines;
}

export function formatVerdict(verdict: RatchetVerdict): string[] {
  const lines: string[] = [];
  for (const report of verdict.newFailures) lines.push(`NEW FAILURE (not in known-failures): ${testKey(report)}`);
  for (const { key, expected, actual } of verdict.failingDifferently) {
    lines.push(`FAILS DIFFERENTLY (known-failures expects another difference): ${key}`);
    lines.push(`     known:  ${expected.replaceAll('\n', '\n             ')}`);
    lines.push(`     now:    ${actual.replaceAll('\n', '\n             ')}`);
  }
  for (const key of verdict.stale) lines.push(`NO LONGER FAILING (remove from known-failures): ${key}`);
  return lines;
}

export function summaryLine(reports: TestReport[]): string {
  const passed = reports.filter((r) => r.status === 'passed').length;
  const failed = reports.filter((r) => r.status === 'failed').length;
  return `${passed} passed, ${failed} failed`;
}
