// The engine as a process of its own, for tests that kill API processes: the emulator, with
// transactionLifetimeLimitSeconds lowered as a deployment would run mongod
// (`--setParameter transactionLifetimeLimitSeconds=10`, see docs/ledger.md) so that a killed
// process's open transaction stops holding its accounts after 10 s, not 60.
import { startEmulator } from '../../../packages/mongo-emulator/src/index.ts';

const transactionLifetimeLimitSeconds = Number(process.env['TRANSACTION_LIFETIME_LIMIT_SECONDS'] ?? 10);
const emulator = await startEmulator({ port: 0, transactionLifetimeLimitSeconds });
console.log(`engine ready on ${emulator.uri}`);
const stop = () => void emulator.stop().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
