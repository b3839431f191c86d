import { CommandError } from '../errors.ts';
import { DEFAULT_CATCH_UP_SECS, DEFAULT_STEP_DOWN_SECS } from '../repl/ReplCoordinator.ts';
import { replCoordinator } from './lib/replCoordinator.ts';
import type { CommandDefinition } from './types.ts';

/**
 * `replSetStepDown: secs`: the primary waits up to `secondaryCatchUpPeriodSecs` for an electable
 * secondary to catch up (unless `force`), steps down, and may not stand again for `secs`
 * (cmd_replsetstepdown / replication_coordinator_impl.cpp stepDown).
 */
export const replSetStepDown: CommandDefinition = {
  names: ['replSetStepDown'],
  adminOnly: true,
  async run(context) {
    const { command, connection, server } = context;
    const repl = replCoordinator(context);
    const secs = Number(command.replSetStepDown ?? DEFAULT_STEP_DOWN_SECS);
    const catchUpSecs = Number(command.secondaryCatchUpPeriodSecs ?? Math.min(DEFAULT_CATCH_UP_SECS, secs));
    if (!Number.isFinite(secs) || secs < 0)
      throw new CommandError('BadValue', 'replSetStepDown requires a non-negative number of seconds');
    await repl.stepDown({ secs, catchUpSecs, force: command.force === true }, [
      connection.closeSignal,
      server.stopSignal,
    ]);
    return {};
  },
};
