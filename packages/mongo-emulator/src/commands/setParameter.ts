import { Double, Int32, Long } from 'bson';
import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';
import { parseTransactionLifetimeLimitSeconds } from '../serverParameters.ts';
import { serverParameters } from './getParameter.ts';
import type { CommandDefinition } from './types.ts';

/**
 * setParameter as mongod answers it: each named parameter is checked first (unknown: 72
 * InvalidOptions; known but startup-only: 20 IllegalOperation; bad value: 2 BadValue), then all
 * are set and the reply's `was` is the previous value. transactionLifetimeLimitSeconds is the one
 * the emulator lets change at runtime; like mongod it applies to transactions begun afterwards.
 */
export const setParameter: CommandDefinition = {
  names: ['setParameter'],
  adminOnly: true,
  run({ command, server }) {
    const names = Object.keys(command).filter(
      (key) => key !== 'setParameter' && !key.startsWith('$') && key !== 'lsid' && key !== 'comment',
    );
    if (names.length === 0)
      throw new CommandError('InvalidOptions', 'no option found to set, use help:true to see options ');
    const known = serverParameters(server);
    const seconds: number[] = [];
    for (const name of names) {
      if (!Object.hasOwn(known, name))
        throw new CommandError(
          'InvalidOptions',
          `attempted to set unrecognized parameter [${name}], use help:true to see options `,
        );
      if (name !== 'transactionLifetimeLimitSeconds')
        throw new CommandError('IllegalOperation', `not allowed to change [${name}] at runtime`);
      const value = command[name] as unknown;
      const number =
        value instanceof Int32 || value instanceof Double
          ? value.value
          : value instanceof Long
            ? value.toNumber()
            : typeof value === 'bigint'
              ? Number(value)
              : value;
      seconds.push(parseTransactionLifetimeLimitSeconds(number));
    }
    const reply: Document = { was: known[names[0]!] };
    for (const s of seconds) server.transactions.transactionLifetimeLimitSeconds = s;
    return reply;
  },
};
