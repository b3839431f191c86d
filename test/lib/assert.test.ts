import { describe, expect, it } from 'vitest';
import { invariant, InvariantViolation, present } from '../../src/lib/assert.ts';

describe('invariant and present (src/lib/assert.ts)', () => {
  it('pass through what holds and throw InvariantViolation with the invariant: prefix otherwise', () => {
    expect(() => invariant(true, 'never shown')).not.toThrow();
    expect(present(0, 'zero is present')).toBe(0);
    expect(() => invariant(false, 'a group of lone moves is never linked')).toThrow(
      new InvariantViolation('invariant: a group of lone moves is never linked'),
    );
    expect(() => present(null, () => 'request k vanished')).toThrow(/^invariant: request k vanished$/);
  });

  it('builds a message from values only when the invariant fails', () => {
    let built = 0;
    const message = () => `built ${(built += 1)}`;
    invariant(1 > 0, message);
    expect(built).toBe(0);
    expect(() => invariant(1 < 0, message)).toThrow(InvariantViolation);
    expect(built).toBe(1);
  });
});
