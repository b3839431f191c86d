import type { StartupTask } from '../db/startupTasks.ts';
import { metricsRegistry } from '../observability/metrics.ts';
import { seedDemoAccounts } from './demo.ts';
import { ensureLedgerIndexes } from './model.ts';
import { createLedgerService } from './service.ts';
import { createLedgerTelemetry } from './telemetry.ts';

// The ledger's start-up steps: indexes, then the demo accounts. There is no recovery sweep: a
// money move is one transaction, so a crash leaves nothing half-done to finish.
export const ledgerStartupTasks: readonly StartupTask[] = [
  {
    name: 'ledger: indexes',
    run: ({ db }) => ensureLedgerIndexes(db),
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
