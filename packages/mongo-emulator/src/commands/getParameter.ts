import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';
import type { CommandDefinition } from './types.ts';

/** The server parameters clients and the spec runner ask about. */
const PARAMETERS: Readonly<Document> = Object.freeze({
  featureCompatibilityVersion: { version: '7.0' },
  enableTestCommands: true,
  authenticationMechanisms: [],
  requireApiVersion: false,
  transactionLifetimeLimitSeconds: 60,
});

export const getParameter: CommandDefinition = {
  names: ['getParameter'],
  adminOnly: true,
  run({ command }) {
    if (command.getParameter === '*') return { ...PARAMETERS };
    const wanted = Object.keys(command).filter((key) => key !== 'getParameter' && !key.startsWith('$') && key !== 'lsid');
    const reply: Document = {};
    for (const key of wanted) if (Object.hasOwn(PARAMETERS, key)) reply[key] = PARAMETERS[key];
    if (Object.keys(reply).length === 0) throw new CommandError('InvalidOptions', 'no option found to get');
    return reply;
  },
};
