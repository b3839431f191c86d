// `npm run worker:payouts`: the payout worker as a process. Reads its configuration from the
// environment (config.ts), pays PAYOUT items out until SIGTERM or SIGINT, then closes cleanly:
// no new claims, running payouts finish within PAYOUT_WORKER_SHUTDOWN_GRACE_MS or are released.
// `--queue bullmq` consumes the API's BullMQ queue instead (PAYOUT_QUEUE=bullmq; bullmq.ts).
import { parseArgs } from 'node:util';
import { BullmqPayoutWorkerConfigError, loadBullmqPayoutWorkerConfig, startBullmqPayoutWorker } from './bullmq.ts';
import { loadPayoutWorkerConfig, PayoutWorkerConfigError } from './config.ts';
import { startPayoutWorker } from './worker.ts';

const QUEUES = ['work-items', 'bullmq'] as const;

/** EX_NOPERM: the API refused the worker's key; a restart with the same key cannot help. */
const EXIT_KEY_REFUSED = 77;

function start(): { close(): Promise<void>; refused?: Promise<string> } {
  let queue: string;
  try {
    queue = parseArgs({ options: { queue: { type: 'string', default: 'work-items' } }, strict: true }).values.queue!;
  } catch (error) {
    process.stderr.write(
      `payout worker: ${error instanceof Error ? error.message : String(error)} (usage: npm run worker:payouts [-- --queue work-items|bullmq])\n`,
    );
    process.exit(2);
  }
  if (!(QUEUES as readonly string[]).includes(queue)) {
    process.stderr.write(`payout worker: --queue expects ${QUEUES.join(' or ')}, not ${queue}\n`);
    process.exit(2);
  }
  try {
    return queue === 'bullmq'
      ? startBullmqPayoutWorker(loadBullmqPayoutWorkerConfig(process.env))
      : startPayoutWorker(loadPayoutWorkerConfig(process.env));
  } catch (error) {
    if (!(error instanceof PayoutWorkerConfigError) && !(error instanceof BullmqPayoutWorkerConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

const running = start();
let stopping = false;
function stop(code: number): void {
  // A second signal does not wait for the grace period: the leases of what runs then expire.
  if (stopping) process.exit(1);
  stopping = true;
  running.close().then(
    () => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`payout worker: close failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(0));
void running.refused?.then((message) => {
  process.stderr.write(`payout worker: ${message}\n`);
  stop(EXIT_KEY_REFUSED);
});

// As src/main.ts: npm `exec`s this process and passes signals on; should the parent die without
// passing one, a changed parent stops the worker as SIGTERM would; the script names its parent
// (PRECONDITION_PARENT_PID=$PPID), so one that died while this process was loading is seen too.
const parentPid = Number(process.env['PRECONDITION_PARENT_PID']) || process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid && !stopping) stop(0);
}, 1_000).unref();
