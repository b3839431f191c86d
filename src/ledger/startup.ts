import { holderOf } from '../db/leaseJob.ts';
import type { StartupTask } from '../db/startupTask.ts';
import { seedDemoAccounts } from './demo.ts';
import { HOLD_SWEEPER_LEASE } from './holdSweeper.ts';
import { ensureLedgerIndexes } from './model.ts';
import type { LedgerService } from './service.ts';

// The ledger's start-up steps: indexes, then the demo accounts, then the hold sweeper, opened through the app's one
// ledger service (src/app/createApp.ts). There is no recovery sweep: a money move is one transaction, so a
// crash leaves nothing half-done to finish.
export function ledgerStartupTasks(ledger: LedgerService): readonly StartupTask[] {
  return [
    {
      name: 'ledger: indexes',
      run: ({ db }) => ensureLedgerIndexes(db),
    },
    {
      name: 'ledger: demo accounts',
      async run({ logger, config }) {
        const embedded = config.mongodbUri === undefined;
        if (!embedded || !config.seedDemo) return;
        await seedDemoAccounts(ledger);
        logger.info({ component: 'ledger' }, 'demo accounts ready (SEED_DEMO=0 turns this off)');
      },
    },
    {
      // Every process competes for the sweeper's lease; one releases expired holds at a time (H3).
      name: 'ledger: hold sweeper',
      async run({ logger, processId }) {
        const sweeper = ledger.holdSweeper({ logger, holder: holderOf(processId, HOLD_SWEEPER_LEASE) });
        sweeper.start();
        return { stop: () => sweeper.stop() };
      },
    },
  ];
}
