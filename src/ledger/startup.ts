import type { StartupTask } from '../db/startupTasks.ts';
import { metricsRegistry } from '../observability/metrics.ts';
import { seedDemoAccounts } from './demo.ts';
import { ensureLedgerIndexes } from './model.ts';
import { createLedgerService } from './service.ts';
import { createLedgerTelemetry } from './telemetry.ts';

// The ledger's start-up steps: indexes first, then the recovery sweep (G5: requests a crashed
// process left half-done are finished before traffic arrives), then the demo accounts.
export const ledgerStartupTasks: readonly StartupTask[] = [
  {
    name: 'ledger: indexes',
    run: ({ db }) => ensureLedgerIndexes(db),
  },
  {
    name: 'ledger: recovery sweep',
    async run({ db, logger }) {
      const ledger = createLedgerService({ db, telemetry: createLedgerTelemetry(metricsRegistry, logger) });
      const report = await ledger.sweepPendingRequests();
      logger.info({ component: 'ledger', ...report }, 'ledger recovery sweep done');
    },
  },
  {
    name: 'ledger: demo accounts',
    async run({ db, logger, config }) {
      const embedded = config.mongodbUri === undefined;
      if (!embedded || !config.seedDemo) return;
      await seedDemoAccounts(createLedgerService({ db, telemetry: createLedgerTelemetry(metricsRegistry, logger) }));
      logger.info({ component: 'ledger' }, 'demo accounts ready (SEED_DEMO=0 turns this off)');
    },
  },
];
