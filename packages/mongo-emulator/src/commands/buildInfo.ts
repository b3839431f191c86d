import type { CommandDefinition } from './types.ts';

export const SERVER_VERSION = '7.0.14';
const VERSION_ARRAY = [7, 0, 14, 0];

/** What the emulator claims to be; `emulator` says what it really is. */
export const buildInfo: CommandDefinition = {
  names: ['buildInfo', 'buildinfo'],
  run: () => ({
    version: SERVER_VERSION,
    gitVersion: 'mongo-emulator',
    versionArray: VERSION_ARRAY,
    bits: 64,
    debug: false,
    maxBsonObjectSize: 16 * 1024 * 1024,
    storageEngines: ['emulator'],
    javascriptEngine: 'none',
    modules: [],
    emulator: { name: '@precondition/mongo-emulator', persistence: false },
  }),
};
