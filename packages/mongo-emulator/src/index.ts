export {
  startEmulator,
  DEFAULT_OPLOG_MAX_ENTRIES,
  DEFAULT_OPLOG_SIZE_MB,
  type EmulatorOptions,
  type RunningEmulator,
} from './server.ts';
export type { EmulatorLogger } from './serverState.ts';
export { CommandError, ErrorCodes, type ErrorCodeName } from './errors.ts';
export {
  startReplicaSet,
  waitForPrimary,
  type ReplicaSetMember,
  type ReplicaSetOptions,
  type RunningReplicaSet,
} from './replicaSet.ts';
