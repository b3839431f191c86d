import { CommandError } from '../errors.ts';
import type { CommandDefinition } from './types.ts';

/** mongod's default `timeoutSecs` for a primary's shutdown: how long it waits for a secondary to catch up. */
const PRIMARY_SHUTDOWN_CATCH_UP_SECS = 15;

/**
 * `shutdown` (cmd_shutdown.cpp): a primary first steps down, waiting up to `timeoutSecs` for an
 * electable secondary to catch up unless `force`; then the process stops and the connection
 * closes without a reply. Served only where the emulator runs as its own process (the CLI gives
 * it the way to stop); an emulator embedded in a test process refuses it.
 */
export const shutdown: CommandDefinition = {
  names: ['shutdown'],
  adminOnly: true,
  async run({ server, command, connection }) {
    const stopProcess = server.stopProcess;
    if (!stopProcess)
      throw new CommandError('CommandNotSupported', 'shutdown: stop an embedded mongo-emulator through its stop() API');
    const force = command.force === true;
    if (server.repl?.isPrimary) {
      const secs = Number(command.timeoutSecs ?? PRIMARY_SHUTDOWN_CATCH_UP_SECS);
      await server.repl.stepDown({ secs: Math.max(secs, 1), catchUpSecs: secs, force }, [
        connection.closeSignal,
        server.stopSignal,
      ]);
    }
    setImmediate(stopProcess);
    return {};
  },
};
