// Proves the ratchet: unlisted failures, listed tests that fail differently and listed tests that
// stopped failing are all reported, regeneration keeps reasons and records differences, and the
// checked-in list gives every entry a real reason and a difference.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  PLACEHOLDER_REASON,
  judge,
  normalizeDifference,
  ratchetFails,
  regenerate,
  type KnownFailures,
} from './knownFailures.ts';
import type { TestReport } from './runFile.ts';

const report = (file: string, test: string, status: TestReport['status'], detail?: string): TestReport => ({
  file,
  area: file.split('/')[0]!,
  test,
  status,
  ...(detail === undefined ? {} : { detail }),
});
const entry = (reason: string, difference = 'd'): KnownFailures[string] => ({ reason, difference });

describe('known failures ratchet', () => {
  const reports = [
    report('crud/a.json', 'one', 'failed', 'd'),
    report('crud/a.json', 'two', 'passed'),
    report('crud/a.json', 'three', 'failed', 'd'),
  ];

  it('reports a failure that is not listed', () => {
    const verdict = judge(reports, { 'crud/a.json :: one': entry('known') });
    expect(verdict.newFailures.map((r) => r.test)).toEqual(['three']);
    expect(verdict.stale).toEqual([]);
    expect(ratchetFails(verdict)).toBe(true);
  });

  it('reports a listed test that no longer fails, but only for files that ran', () => {
    const known = {
      'crud/a.json :: one': entry('x'),
      'crud/a.json :: three': entry('y'),
      'crud/a.json :: two': entry('z'),
      'crud/b.json :: other': entry('w'),
    };
    const verdict = judge(reports, known);
    expect(verdict.newFailures).toEqual([]);
    expect(verdict.failingDifferently).toEqual([]);
    expect(verdict.stale).toEqual(['crud/a.json :: two']);
    expect(ratchetFails(verdict)).toBe(true);
  });

  it('reports a listed test that fails with another difference than the known one', () => {
    const known = { 'crud/a.json :: one': entry('x', 'd'), 'crud/a.json :: three': entry('y', 'the known difference') };
    const verdict = judge(reports, known);
    expect(verdict.failingDifferently).toEqual([
      { key: 'crud/a.json :: three', expected: 'the known difference', actual: 'd' },
    ]);
    expect(verdict.newFailures).toEqual([]);
    expect(verdict.stale).toEqual([]);
    expect(ratchetFails(verdict)).toBe(true);
  });

  it('passes when every failure is listed with its difference and every listed test fails', () => {
    const verdict = judge(reports, { 'crud/a.json :: one': entry('x'), 'crud/a.json :: three': entry('y') });
    expect(ratchetFails(verdict)).toBe(false);
  });

  it('compares differences without what changes from run to run', () => {
    const first =
      'readConcern: unexpected key(s) afterClusterTime in {"afterClusterTime":{"$timestamp":{"t":1796132523,"i":29}}} id {"$oid":"65a1b2c3d4e5f60718293a4b"}; test timed out after 15000 ms';
    const second =
      'readConcern: unexpected key(s) afterClusterTime in {"afterClusterTime":{"$timestamp":{"t":1796132999,"i":3}}} id {"$oid":"0123456789abcdef01234567"}; test timed out after 14000 ms';
    expect(normalizeDifference(first)).toBe(normalizeDifference(second));
    expect(normalizeDifference('expected 1, got 2')).not.toBe(normalizeDifference('expected 1, got 3'));
  });

  it('regenerates the list: keeps reasons, records differences, adds placeholders, drops passing tests, keeps files not run', () => {
    const next = regenerate(reports, {
      'crud/a.json :: one': entry('reason one', 'old'),
      'crud/a.json :: two': entry('old'),
      'crud/b.json :: other': entry('kept', 'k'),
    });
    expect(next).toEqual({
      'crud/a.json :: one': entry('reason one', 'd'),
      'crud/a.json :: three': entry(PLACEHOLDER_REASON, 'd'),
      'crud/b.json :: other': entry('kept', 'k'),
    });
  });

  it.each(['known-failures.json', 'known-failures.three.json'])(
    'has a real one-line reason and a recorded difference for every entry of %s',
    (file) => {
      const path = join(dirname(fileURLToPath(import.meta.url)), file);
      const list = JSON.parse(readFileSync(path, 'utf8')) as KnownFailures;
      for (const [key, { reason, difference }] of Object.entries(list)) {
        expect(key).toMatch(/^[^/]+\/[^/]+\.json :: .+/);
        expect(reason, key).not.toBe(PLACEHOLDER_REASON);
        expect(reason.trim().length, key).toBeGreaterThan(10);
        expect(reason, key).not.toContain('\n');
        expect(difference.trim().length, key).toBeGreaterThan(0);
      }
    },
  );
});
