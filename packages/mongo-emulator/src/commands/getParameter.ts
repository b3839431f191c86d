import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';
import type { ServerState } from '../serverState.ts';
import type { CommandDefinition } from './types.ts';

/** The server parameters clients and the spec runner ask about that never change at runtime. */
const FIXED_PARAMETERS: Readonly<Document> = Object.freeze({
  featureCompatibilityVersion: { version: '7.0' },
  enableTestCommands: true,
  authenticationMechanisms: [],
  requireApiVersion: false,
});

/** Every parameter getParameter reports, with its current value. */
export function serverParameters(server: ServerState): Document {
  return { ...FIXED_PARAMETERS, transactionLifetimeLimitSeconds: server.transactions.transactionLifetimeLimitSeconds };
}

export const getParameter: CommandDefinition = {
  names: ['getParameter'],
  adminOnly: true,
  run({ command, server }) {
    const parameters = serverParameters(server);
    if (command.getParameter === '*') return parameters;
    const wanted = Object.keys(command).filter(
      (key) => key !== 'getParameter' && !key.startsWith('$') && key !== 'lsid',
    );
    const reply: Document = {};
    for (const key of wanted) if (Object.hasOwn(parameters, key)) reply[key] = parameters[key];
    if (Object.keys(reply).length === 0) throw new CommandError('InvalidOptions', 'no option found to get');
    return reply;
  },
};
