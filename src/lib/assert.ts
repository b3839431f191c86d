// The one assertion of the code's own invariants: a failure is a bug of this code (or a broken
// mutant under test), never a caller's mistake, so it throws and is answered as an internal error.
// A message built from values is passed as a function, so the hot path builds no string.

export class InvariantViolation extends Error {
  override name = 'InvariantViolation';
}

/** Throws `invariant: <message>` unless `condition` holds. */
export function invariant(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new InvariantViolation(`invariant: ${typeof message === 'function' ? message() : message}`);
}

/** Returns `value`, or throws `invariant: <message>` when it is null or undefined. */
export function present<T>(value: T | null | undefined, message: string | (() => string)): T {
  invariant(value !== null && value !== undefined, message);
  return value;
}
