import type { TestProject } from 'vitest/node';
import { loadConfig } from '../src/config.ts';
import { resolveEngine } from '../src/db/engine.ts';
import { buildConsole } from '../scripts/buildConsole.ts';
import { buildProcessBundles } from '../scripts/buildProcesses.ts';

// Resolves the engine once per run, exactly as the server does (src/db/engine.ts), prints which
// and why, and hands its URI to every test file through `inject`; builds the ops console first.
export default async function setup(project: TestProject) {
  // The configuration's `env` reaches the workers only; the engine started here (the emulator, in
  // this process) reads EMULATOR_FREEZE_DOCUMENTS from this process's environment.
  for (const [name, value] of Object.entries(project.config.env ?? {})) process.env[name] ??= String(value);
  // The ops console's browser tests run on the built page, as the server serves it (a few ms when
  // its sources did not change since the last build).
  console.log(`[ops console] ${await buildConsole()}`);
  // The API and emulator processes the tests start run from bundles of their sources (a fraction
  // of a second to listen, against seconds through tsx's loader): built here when a source changed.
  console.log(`[process bundles] ${await buildProcessBundles()}`);
  const engine = await resolveEngine(loadConfig(process.env));
  console.log(`[test engine] ${engine.kind} at ${engine.uri} because ${engine.reason}`);
  project.provide('mongoUri', engine.uri);
  project.provide('mongoEngine', { kind: engine.kind, reason: engine.reason });
  return async () => {
    await engine.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUri: string;
    mongoEngine: { kind: 'uri' | 'memory-server' | 'emulator'; reason: string };
  }
}
