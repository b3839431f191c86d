// Runs `src/main.ts` as `npm start` does (node with tsx's ESM loader), for tests of the process as a whole.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Output kept per stream; a test needs only the first lines. */
const OUTPUT_CHARS_MAX = 1_000_000;

export interface MainProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when `pattern` appears on stdout or stderr; rejects on exit or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnMain(env: Record<string, string>): MainProcess {
  // Only what the test passes, plus PATH/HOME: nothing from the runner's own environment.
  const child = spawn(process.execPath, ['--import', 'tsx/esm', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (chunk) => {
    if (out.length < OUTPUT_CHARS_MAX) out += String(chunk);
    listeners.forEach((listener) => listener());
  });
  child.stderr?.on('data', (chunk) => {
    if (err.length < OUTPUT_CHARS_MAX) err += String(chunk);
    listeners.forEach((listener) => listener());
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    exited,
    stdout: () => out,
    stderr: () => err,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out) ?? pattern.exec(err);
          if (match) {
            done();
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${pattern} not seen within ${timeoutMs}ms; stdout: ${out}; stderr: ${err}`));
        }, timeoutMs);
        const onExit = () => {
          done();
          reject(new Error(`exited before ${pattern}; stdout: ${out}; stderr: ${err}`));
        };
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
        };
        listeners.add(check);
        child.once('exit', onExit);
        check();
      });
    },
  };
}
