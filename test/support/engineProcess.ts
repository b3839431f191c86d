import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The engine as an operator runs it: the emulator's CLI in a process of its own, on a free port,
// for the process-level tests that kill API processes around it.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface EngineProcess {
  child: ChildProcess;
  uri: string;
}

/** Starts the emulator's CLI with `args` (e.g. `--setParameter`), resolving once it prints its URI. */
export function startEngineProcess(args: readonly string[]): Promise<EngineProcess> {
  const cli = 'packages/mongo-emulator/bin/mongo-emulator.mjs';
  const child = spawn(process.execPath, [cli, '--port', '0', ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const match = /ready on (mongodb:\/\/\S+)/.exec(out);
      if (match) resolve({ child, uri: match[1]! });
    });
    child.stderr!.on('data', (chunk) => (out += String(chunk)));
    child.once('exit', () => reject(new Error(`engine exited: ${out}`)));
  });
}
