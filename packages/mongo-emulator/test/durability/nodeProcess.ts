// One emulator process on a data directory, as a user starts it (the CLI), for the durability
// tests: SIGKILL it, start it again on the same directory, read what it printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/mongo-emulator.mjs', import.meta.url));
const READY_TIMEOUT_MS = 60_000;
/**
 * The bound on a test that starts, kills and restarts emulator processes: each start compiles the
 * sources (tsx) and, on a machine shared with other test runs, took up to 10 s.
 */
export const PROCESS_TEST_TIMEOUT_MS = 120_000;

export interface NodeProcess {
  readonly uri: string;
  readonly pid: number;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs the CLI to its end (a refused start): its exit code and output. */
export async function runToExit(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { code, output };
}

/** Starts `mongo-emulator --port 0 --dbpath DIR ...args` and waits for its ready line. */
export async function startNode(dbpath: string, args: string[] = []): Promise<NodeProcess> {
  const child: ChildProcess = spawn(process.execPath, [BIN, '--port', '0', '--dbpath', dbpath, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const uri = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ready line in ${READY_TIMEOUT_MS} ms: ${output}`)),
      READY_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /mongo-emulator ready on (mongodb:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before it was ready: ${output}`));
    });
  });
  return {
    uri,
    pid: child.pid!,
    output: () => output,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
