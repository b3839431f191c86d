import type { TestProject } from 'vitest/node';
import { startEmulator } from '@precondition/mongo-emulator';

// Resolves the engine once per run and hands its URI to every test file through `inject`.
// (Engine resolution proper — MONGODB_URI, mongodb-memory-server, emulator — lives in src/db.)
export default async function setup(project: TestProject) {
  const emulator = await startEmulator({ port: 0, replSetName: 'rs0' });
  console.log(`[test engine] emulator at ${emulator.uri}`);
  project.provide('mongoUri', emulator.uri);
  return async () => {
    await emulator.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUri: string;
  }
}
