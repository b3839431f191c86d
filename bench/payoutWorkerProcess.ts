// The payout worker in its own process, as `npm run worker:payouts` runs it (the script is read
// from package.json), for the bench's end-to-end payout scenario.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START_TIMEOUT_MS = 60_000;

/**
 * `npm run worker:payouts` as package.json says it, less `node`: its script is
 * `PRECONDITION_PARENT_PID=$PPID exec node <args>` (src/main.ts says why), run here without npm.
 */
export function workerScriptArgs(): string[] {
  const scripts = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const [node, ...args] = scripts['worker:payouts']!.replace(/^PRECONDITION_PARENT_PID=\$PPID\s+/, '')
    .replace(/^exec\s+/, '')
    .split(/\s+/);
  if (node !== 'node') throw new Error(`worker:payouts is expected to run node, not ${node}`);
  return args;
}

export interface PayoutWorkerProcess {
  pid: number;
  /** SIGTERM (the worker closes cleanly), then waits for the exit. */
  stop(): Promise<void>;
}

export async function startPayoutWorkerProcess(env: Record<string, string>): Promise<PayoutWorkerProcess> {
  const args = workerScriptArgs();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`payout worker not started within ${START_TIMEOUT_MS} ms: ${output}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      if (output.includes('"payout worker started"')) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`payout worker exited (${code}) before it started: ${output}`)));
  });
  // Keep draining its output so a chatty worker never blocks on a full pipe.
  child.stdout.resume();
  child.stderr.resume();
  return {
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
