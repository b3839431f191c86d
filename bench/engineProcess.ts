// The engine in its own process, as production runs it: the emulator's CLI (`mongo-emulator`) on
// a free loopback port. The bench's default when no MONGODB_URI / MONGO_ENGINE is given, so the
// engine's CPU is not charged to the API's event loop (nor the API's to the engine's).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../packages/mongo-emulator/bin/mongo-emulator.mjs', import.meta.url));
const READY = /mongo-emulator ready on (mongodb:\/\/\S+)/;
const START_TIMEOUT_MS = 60_000;
/**
 * The engine's V8 heap ceiling. The emulator keeps everything in memory, and the bench's largest
 * scenarios seed 1,000,000 documents and more beside the other scenarios' data: at Node's default
 * ceiling here (≈ 4 GB) the engine process died of "JavaScript heap out of memory" during the
 * payout catch-up's seeding, which the driver saw as closed connections. mongod would page to disk.
 */
const ENGINE_HEAP_MAX_MB = 8_192;

export interface EngineProcess {
  uri: string;
  pid: number;
  /** SIGTERM (a clean stop), then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL (a crash, as the driver sees it through TCP), then waits for the exit. */
  kill(): Promise<void>;
}

export interface EngineProcessOptions {
  /** 0 (the default) picks a free one; a test that restarts the engine names the port it had. */
  port?: number;
  /** mongod's --setParameter name=value pairs the emulator knows (transactionLifetimeLimitSeconds). */
  setParameters?: Record<string, string | number>;
}

export async function startEngineProcess(options: EngineProcessOptions = {}): Promise<EngineProcess> {
  const parameters = Object.entries(options.setParameters ?? {}).flatMap(([name, value]) => [
    '--setParameter',
    `${name}=${value}`,
  ]);
  const args = [
    `--max-old-space-size=${ENGINE_HEAP_MAX_MB}`,
    CLI,
    '--port',
    String(options.port ?? 0),
    '--host',
    '127.0.0.1',
    ...parameters,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const uri = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`mongo-emulator not ready within ${START_TIMEOUT_MS} ms: ${output}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      const match = READY.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`mongo-emulator exited (${code}) before ready: ${output}`)));
  });
  // Keep draining its output so a chatty engine never blocks on a full pipe.
  child.stdout.resume();
  child.stderr.resume();
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { uri, pid: child.pid!, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}
