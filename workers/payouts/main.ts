// `npm run worker:payouts`: the payout worker as a process. Reads its configuration from the
// environment (config.ts), pays PAYOUT items out until SIGTERM or SIGINT, then closes cleanly:
// no new claims, running payouts finish within PAYOUT_WORKER_SHUTDOWN_GRACE_MS or are released.
import { loadPayoutWorkerConfig, PayoutWorkerConfigError } from './config.ts';
import { startPayoutWorker } from './worker.ts';

let config;
try {
  config = loadPayoutWorkerConfig(process.env);
} catch (error) {
  if (!(error instanceof PayoutWorkerConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}

const running = startPayoutWorker(config);
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    // A second signal does not wait for the grace period: the leases of what runs then expire.
    if (stopping) process.exit(1);
    stopping = true;
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`payout worker: close failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  });
}
