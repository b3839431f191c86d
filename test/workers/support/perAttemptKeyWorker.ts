// A mutant of `npm run worker:payouts` for the W7 meta-test: the same worker, but its provider
// calls go out under a key minted per attempt (the entry's key plus a fresh UUID per call), the
// mistake of making the key where the call is made. With a lease taken over mid-call, the
// provider cannot tell the second attempt from a new payout, and pays the entry twice.
import { randomUUID } from 'node:crypto';
import { loadPayoutWorkerConfig } from '../../../workers/payouts/config.ts';
import { createHttpPayoutProvider, type PayoutProvider } from '../../../workers/payouts/provider.ts';
import { startPayoutWorker } from '../../../workers/payouts/worker.ts';

const config = loadPayoutWorkerConfig(process.env);
const http = createHttpPayoutProvider({ url: config.providerUrl, timeoutMs: config.providerTimeoutMs });
const perAttempt: PayoutProvider = {
  pay: (request, signal) => http.pay({ ...request, key: `${request.key}:${randomUUID()}` }, signal),
};
const running = startPayoutWorker(config, { provider: perAttempt });
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
