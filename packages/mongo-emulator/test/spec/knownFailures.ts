// The CI ratchet: spec tests known not to pass, each with a one-line reason. A run fails when a
// test outside the list fails, and when a listed test of a file that ran no longer fails, so the
// list can only shrink.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { TestReport } from './runFile.ts';

/** `area/file.json :: test description` → reason. */
export type KnownFailures = Record<string, string>;

export const PLACEHOLDER_REASON = 'REASON NEEDED: write one line saying why this test fails';

export function testKey(report: Pick<TestReport, 'file' | 'test'>): string {
  return `${report.file} :: ${report.test}`;
}

export function loadKnownFailures(path: string): KnownFailures {
  if (!existsSync(path)) return {};
  return JSON.parse(readFileSync(path, 'utf8')) as KnownFailures;
}

export interface RatchetVerdict {
  /** Failed tests that are not on the list. */
  newFailures: TestReport[];
  /** Listed tests of files that ran and did not fail (passed, skipped or gone). */
  stale: string[];
}

export function judge(reports: TestReport[], known: KnownFailures): RatchetVerdict {
  const failed = new Set(reports.filter((r) => r.status === 'failed').map(testKey));
  const filesRun = new Set(reports.map((r) => r.file));
  return {
    newFailures: reports.filter((r) => r.status === 'failed' && !Object.hasOwn(known, testKey(r))),
    stale: Object.keys(known).filter((key) => filesRun.has(key.split(' :: ')[0]!) && !failed.has(key)),
  };
}

/**
 * The list as it should be after this run: entries of files that did not run are kept, current
 * failures keep their reason or get the placeholder, everything else is dropped.
 */
export function regenerate(reports: TestReport[], known: KnownFailures): KnownFailures {
  const filesRun = new Set(reports.map((r) => r.file));
  const next: KnownFailures = {};
  for (const [key, reason] of Object.entries(known)) if (!filesRun.has(key.split(' :: ')[0]!)) next[key] = reason;
  for (const report of reports.filter((r) => r.status === 'failed')) next[testKey(report)] = known[testKey(report)] ?? PLACEHOLDER_REASON;
  return Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
}

export function writeKnownFailures(path: string, list: KnownFailures): void {
  writeFileSync(path, `${JSON.stringify(list, null, 2)}\n`);
}
