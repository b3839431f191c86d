// Proves the ratchet: unlisted failures and listed tests that stopped failing are both reported,
// regeneration keeps reasons, and the checked-in list gives every entry a real reason.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_REASON, judge, regenerate } from './knownFailures.ts';
import type { TestReport } from './runFile.ts';

const report = (file: string, test: string, status: TestReport['status']): TestReport => ({ file, area: file.split('/')[0]!, test, status });

describe('known failures ratchet', () => {
  const reports = [report('crud/a.json', 'one', 'failed'), report('crud/a.json', 'two', 'passed'), report('crud/a.json', 'three', 'failed')];

  it('reports a failure that is not listed', () => {
    const verdict = judge(reports, { 'crud/a.json :: one': 'known' });
    expect(verdict.newFailures.map((r) => r.test)).toEqual(['three']);
    expect(verdict.stale).toEqual([]);
  });

  it('reports a listed test that no longer fails, but only for files that ran', () => {
    const verdict = judge(reports, { 'crud/a.json :: one': 'x', 'crud/a.json :: three': 'y', 'crud/a.json :: two': 'z', 'crud/b.json :: other': 'w' });
    expect(verdict.newFailures).toEqual([]);
    expect(verdict.stale).toEqual(['crud/a.json :: two']);
  });

  it('regenerates the list: keeps reasons, adds placeholders, drops passing tests, keeps files not run', () => {
    const next = regenerate(reports, { 'crud/a.json :: one': 'reason one', 'crud/a.json :: two': 'old', 'crud/b.json :: other': 'kept' });
    expect(next).toEqual({ 'crud/a.json :: one': 'reason one', 'crud/a.json :: three': PLACEHOLDER_REASON, 'crud/b.json :: other': 'kept' });
  });

  it('has a real one-line reason for every checked-in entry', () => {
    const path = join(dirname(fileURLToPath(import.meta.url)), 'known-failures.json');
    const list = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
    for (const [key, reason] of Object.entries(list)) {
      expect(key).toMatch(/^[^/]+\/[^/]+\.json :: .+/);
      expect(reason, key).not.toBe(PLACEHOLDER_REASON);
      expect(reason.trim().length, key).toBeGreaterThan(10);
      expect(reason, key).not.toContain('\n');
    }
  });
});
