// Proves which schema versions the runner accepts (1.0 to 1.20) and that it refuses the others
// with a clear reason.
import { describe, expect, it } from 'vitest';
import { compareVersions, parseVersion, schemaVersionProblem } from './schemaVersion.ts';

describe('schema versions', () => {
  it('accepts 1.0 through 1.20, with or without a patch component', () => {
    for (const version of ['1', '1.0', '1.4', '1.9', '1.12', '1.17', '1.20', '1.20.1'])
      expect(schemaVersionProblem(version)).toBeNull();
  });

  it('refuses newer minors, other majors and a missing version, saying why', () => {
    expect(schemaVersionProblem('1.21')).toMatch(
      /schemaVersion 1.21 is not supported \(this runner supports 1.0 to 1.20\)/,
    );
    expect(schemaVersionProblem('2.0')).toMatch(/not supported/);
    expect(schemaVersionProblem('0.9')).toMatch(/not supported/);
    expect(schemaVersionProblem(undefined)).toMatch(/no schemaVersion/);
  });

  it('compares versions component by component and ignores pre-release suffixes', () => {
    expect(compareVersions('4.0.10', '4.0.9')).toBeGreaterThan(0);
    expect(compareVersions('3.6', '3.6.0')).toBe(0);
    expect(compareVersions('4.2', '4.10')).toBeLessThan(0);
    expect(parseVersion('4.9.0-alpha4-271-g7d5cf02')).toEqual([4, 9, 0]);
  });
});
