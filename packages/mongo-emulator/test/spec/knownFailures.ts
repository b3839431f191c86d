// The CI ratchet: spec tests known not to pass, each with a one-line reason and the differences it
// is known to fail with. A run fails when a test outside the list fails, when a listed test fails
// differently (its failure is no longer the known one: a regression hiding behind the entry),
// and when a listed test of a file that ran no longer fails, so the list can only shrink.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { TestReport } from './runFile.ts';

export interface KnownFailure {
  /** Why the test fails, in one line. */
  reason: string;
  /** The test's differences as the runner reports them, normalized (see normalizeDifference). */
  difference: string;
}

/** `area/file.json :: test description` → its known failure. */
export type KnownFailures = Record<string, KnownFailure>;

export const PLACEHOLDER_REASON = 'REASON NEEDED: write one line saying why this test fails';

export function testKey(report: Pick<TestReport, 'file' | 'test'>): string {
  return `${report.file} :: ${report.test}`;
}

/**
 * A failure's differences without what changes from run to run (cluster times, object ids,
 * session ids, dates, durations), so the same failure always reads the same.
 */
export function normalizeDifference(detail: string | undefined): string {
  return (detail ?? '')
    .replace(/\{"\$timestamp":\{"t":\d+,"i":\d+\}\}/g, '<timestamp>')
    .replace(/\{"\$oid":"[0-9a-f]{24}"\}/g, '<objectId>')
    .replace(/\{"\$binary":\{"base64":"[^"]*","subType":"[0-9a-f]+"\}\}/g, '<binary>')
    .replace(/\{"\$date":(?:"[^"]*"|\{"\$numberLong":"-?\d+"\})\}/g, '<date>')
    .replace(/\b\d+ ms\b/g, '<n> ms');
}

export function loadKnownFailures(path: string): KnownFailures {
  if (!existsSync(path)) return {};
  return JSON.parse(readFileSync(path, 'utf8')) as KnownFailures;
}

export interface FailingDifferently {
  key: string;
  expected: string;
  actual: string;
}

export interface RatchetVerdict {
  /** Failed tests that are not on the list. */
  newFailures: TestReport[];
  /** Listed tests that failed, but not with their known differences. */
  failingDifferently: FailingDifferently[];
  /** Listed tests of files that ran and did not fail (passed, skipped or gone). */
  stale: string[];
}

export function judge(reports: TestReport[], known: KnownFailures): RatchetVerdict {
  const failed = new Set(reports.filter((r) => r.status === 'failed').map(testKey));
  const filesRun = new Set(reports.map((r) => r.file));
  const failingDifferently: FailingDifferently[] = [];
  for (const report of reports.filter((r) => r.status === 'failed' && Object.hasOwn(known, testKey(r)))) {
    const key = testKey(report);
    const actual = normalizeDifference(report.detail);
    if (actual !== known[key]!.difference) failingDifferently.push({ key, expected: known[key]!.difference, actual });
  }
  return {
    newFailures: reports.filter((r) => r.status === 'failed' && !Object.hasOwn(known, testKey(r))),
    failingDifferently,
    stale: Object.keys(known).filter((key) => filesRun.has(key.split(' :: ')[0]!) && !failed.has(key)),
  };
}

/** True when the run must fail: a new failure, a known one failing differently, or a stale entry. */
export function ratchetFails(verdict: RatchetVerdict): boolean {
  return verdict.newFailures.length > 0 || verdict.failingDifferently.length > 0 || verdict.stale.length > 0;
}

/**
 * The list as it should be after this run: entries of files that did not run are kept, current
 * failures keep their reason (or get the placeholder) and take this run's differences, everything
 * else is dropped.
 */
export function regenerate(reports: TestReport[], known: KnownFailures): KnownFailures {
  const filesRun = new Set(reports.map((r) => r.file));
  const next: KnownFailures = {};
  for (const [key, entry] of Object.entries(known)) if (!filesRun.has(key.split(' :: ')[0]!)) next[key] = entry;
  for (const report of reports.filter((r) => r.status === 'failed')) {
    const key = testKey(report);
    next[key] = { reason: known[key]?.reason ?? PLACEHOLDER_REASON, difference: normalizeDifference(report.detail) };
  }
  return Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
}

export function writeKnownFailures(path: string, list: KnownFailures): void {
  writeFileSync(path, `${JSON.stringify(list, null, 2)}\n`);
}
