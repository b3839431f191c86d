// What src/app/createApp.ts builds once per app and hands down: to the resolvers through the GraphQL context
// (src/app/requestContext.ts), to the start-up tasks (src/app/startupList.ts) and to /readyz. Nothing
// else constructs a service.
import type { LedgerAudit } from '../audit/LedgerAudit.ts';
import type { EngineStatus } from '../db/engineStatus.ts';
import type { ProcessLiveness } from '../db/processLiveness.ts';
import type { LedgerDashboard } from '../ledger/dashboard.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { LiveFeeds } from './liveFeeds.ts';
import type { PayoutLeaseReader } from '../payouts/leaseState.ts';
import type { PayoutProjection } from '../payouts/PayoutProjection.ts';
import type { WorkService } from '../work/service.ts';

export interface AppServices {
  ledger: LedgerService;
  ledgerDashboard: LedgerDashboard;
  work: WorkService;
  /** Opened by the live-watchers start-up task; the subscriptions read from them. */
  liveFeeds: LiveFeeds;
  /** Started by its start-up task (every process competes for its lease). */
  payoutProjection: PayoutProjection;
  payoutLease: PayoutLeaseReader;
  /** Its loop is started by its start-up task; `runLedgerAudit` asks it for a run. */
  ledgerAudit: LedgerAudit;
  engineStatus: EngineStatus;
  /** This process's liveness lease and the sweep that ends dead processes' transactions (R3); started first. */
  processLiveness: ProcessLiveness;
}
