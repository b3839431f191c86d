import { CommandError } from '../errors.ts';

/**
 * When a fail point fires, as mongod's FailPoint modes: `off`, `alwaysOn`, `{times: n}` (the
 * next n matching evaluations), `{skip: n}` (every matching evaluation after the first n).
 */
export type FailPointMode =
  | { kind: 'off' }
  | { kind: 'alwaysOn' }
  | { kind: 'times'; remaining: number }
  | { kind: 'skip'; remaining: number };

export function parseMode(mode: unknown): FailPointMode {
  if (mode === 'off') return { kind: 'off' };
  if (mode === 'alwaysOn') return { kind: 'alwaysOn' };
  if (mode !== null && typeof mode === 'object' && !Array.isArray(mode)) {
    const entries = Object.entries(mode);
    const [key, value] = entries[0] ?? [];
    if (entries.length === 1 && (key === 'times' || key === 'skip')) {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0) throw new CommandError('BadValue', `'${key}' must be a non-negative integer`);
      return key === 'times'
        ? n === 0
          ? { kind: 'off' }
          : { kind: 'times', remaining: n }
        : { kind: 'skip', remaining: n };
    }
  }
  throw new CommandError('TypeMismatch', "'mode' must be 'off', 'alwaysOn', {times: n} or {skip: n}");
}

/** Consumes one matching evaluation; true when the fail point fires for it. */
export function consume(mode: FailPointMode): { fires: boolean; next: FailPointMode } {
  switch (mode.kind) {
    case 'off':
      return { fires: false, next: mode };
    case 'alwaysOn':
      return { fires: true, next: mode };
    case 'times':
      return {
        fires: true,
        next: mode.remaining <= 1 ? { kind: 'off' } : { kind: 'times', remaining: mode.remaining - 1 },
      };
    case 'skip':
      return mode.remaining > 0
        ? { fires: false, next: { kind: 'skip', remaining: mode.remaining - 1 } }
        : { fires: true, next: mode };
  }
}
