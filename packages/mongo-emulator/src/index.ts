export { startEmulator, DEFAULT_OPLOG_MAX_ENTRIES, type EmulatorOptions, type RunningEmulator } from './server.ts';
export type { EmulatorLogger } from './serverState.ts';
export { CommandError, ErrorCodes, type ErrorCodeName } from './errors.ts';
