import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';
import { consume, parseMode, type FailPointMode } from './FailPointMode.ts';
import { parseFailCommandData, type FailCommandAction, type FailCommandData } from './failCommand.ts';

/** The fail points this server knows; configuring any other is refused. */
const KNOWN_FAIL_POINTS = ['failCommand'] as const;

/** What the command about to run is, for matching fail points against it. */
export interface CommandProbe {
  /** Every name the command answers to (canonical first), as mongod's hasAlias. */
  names: readonly string[];
  appName: string | undefined;
  /** `db.collection` the command targets, or `db.$cmd`. */
  namespace: string;
}

/** The fail points of one server and how often each fired. */
export class FailPointRegistry {
  private failCommand: { mode: FailPointMode; data: FailCommandData } | undefined;
  private timesEntered = 0;

  /** configureFailPoint: replaces the fail point's mode and data; returns how often it fired. */
  configure(name: unknown, mode: unknown, data: unknown): number {
    if (!KNOWN_FAIL_POINTS.includes(name as (typeof KNOWN_FAIL_POINTS)[number])) {
      throw new CommandError('BadValue', `Cannot find failpoint: ${String(name)}`);
    }
    const parsedMode = parseMode(mode);
    const previous = this.timesEntered;
    this.failCommand = parsedMode.kind === 'off' ? undefined : { mode: parsedMode, data: parseFailCommandData(data) };
    this.timesEntered = 0;
    return previous;
  }

  /**
   * Evaluates failCommand for a command about to run. A command it does not match leaves
   * times/skip untouched, as on mongod; `configureFailPoint` itself is never failed.
   */
  failCommandFor(probe: CommandProbe): FailCommandAction | undefined {
    const active = this.failCommand;
    if (!active || probe.names.includes('configureFailPoint')) return undefined;
    const { data } = active;
    if (!data.failCommands.some((name) => probe.names.includes(name))) return undefined;
    if (data.appName !== undefined && data.appName !== probe.appName) return undefined;
    if (data.namespace !== undefined && data.namespace !== probe.namespace) return undefined;
    const { fires, next } = consume(active.mode);
    this.failCommand = next.kind === 'off' ? undefined : { mode: next, data };
    if (!fires) return undefined;
    this.timesEntered += 1;
    return data.action;
  }

  /** The current state, for tests and diagnostics. */
  describe(): Document {
    return { failCommand: this.failCommand ? { mode: this.failCommand.mode.kind } : { mode: 'off' } };
  }
}
