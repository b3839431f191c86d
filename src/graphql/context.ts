// The per-request context a resolver receives, as a type over the services and loaders that
// resolver uses: `RequestContext<{ ledger: LedgerService }>` names only what the ledger's
// resolvers touch, so the toolkit (and a feature) never imports the composition root. The app
// builds one context for everything (src/app/requestContext.ts, `AppContext`), the same way for
// HTTP and WebSocket, and it fits every resolver's narrower type.
import type { AuthFailure, Principal } from '../access/apiKeys.ts';
import type { Role } from '../access/roles.ts';
import type { Logger } from '../observability/logger.ts';
import type { RequestConsistency } from './consistency.ts';

export interface RequestContext<Services = unknown, Loaders = unknown> {
  requestId: string;
  transport: 'http' | 'ws';
  principal: Principal | null;
  role: Role | null;
  /** Why there is no principal; null when authenticated. */
  authFailure: AuthFailure | null;
  services: Services;
  loaders: Loaders;
  /** Read-your-writes: the time this request's reads must follow (`@consistentAfter`), and their session. */
  consistency: RequestConsistency;
  /** A child logger bound to this request (request id, key fingerprint and role; never the key). */
  logger: Logger;
}
