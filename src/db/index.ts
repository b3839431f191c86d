export { connectMongo } from './connect.ts';
export type { MongoLimits } from './connect.ts';
export { resolveEngine } from './engine.ts';
export type { EngineConfig, EngineInfo, ResolvedEngine } from './engine.ts';
export type { RunningTask, StartupDeps, StartupTask } from './startupTask.ts';
export { createEngineStatus, type EngineStatus, type ReplicaSetView } from './engineStatus.ts';
export { appNameOf, createLivenessTelemetry, createProcessLiveness, newProcessId, processLivenessTask, type ProcessLiveness } from './processLiveness.ts';
