// What the ledger's resolvers read from the request context: the ledger's services, its live
// feeds and the accounts loader. The app's context (src/app/requestContext.ts) is one.
import type { RequestContext } from '../../graphql/context.ts';
import type { LedgerDashboard } from '../dashboard.ts';
import type { LedgerFeeds } from '../events.ts';
import type { LedgerService } from '../service.ts';
import type { accountLoader, moveAnnotationsLoader } from './accountLoader.ts';

export type LedgerRequestContext = RequestContext<
  { ledger: LedgerService; ledgerDashboard: LedgerDashboard; liveFeeds: LedgerFeeds },
  { accountById: ReturnType<typeof accountLoader>; moveAnnotations: ReturnType<typeof moveAnnotationsLoader> }
>;
