// The per-request context every resolver receives (`@Ctx() ctx: AppContext`), built the same way
// for HTTP requests and WebSocket operations so that neither is a side door. Resolvers reach the
// database only through the app's services and the request's loaders: the context carries no
// database or client handle.
import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import type { Logger } from '../observability/logger.ts';
import type { AppServices } from '../services.ts';
import type { Authentication, AuthFailure, Principal } from './auth/apiKeys.ts';
import type { Role } from './auth/roles.ts';
import { RequestConsistency } from './consistency.ts';
import { createLoaders, type Loaders } from './loaders.ts';

/** What every request's context is built from: parts of the app that src/app.ts built once. */
export interface ContextSource {
  /** For the request's loaders and its causal session only; never handed to a resolver. */
  db: Db;
  logger: Logger;
  services: AppServices;
}

export interface AppContext {
  requestId: string;
  transport: 'http' | 'ws';
  principal: Principal | null;
  role: Role | null;
  /** Why there is no principal; null when authenticated. */
  authFailure: AuthFailure | null;
  services: AppServices;
  loaders: Loaders;
  /** Read-your-writes: the time this request's reads must follow (`@consistentAfter`), and their session. */
  consistency: RequestConsistency;
  /** A child logger bound to this request (request id, key fingerprint and role; never the key). */
  logger: Logger;
}

export function createContext(source: ContextSource, auth: Authentication, transport: AppContext['transport']): AppContext {
  const requestId = randomUUID();
  const principal = auth.ok ? auth.principal : null;
  const consistency = new RequestConsistency(source.db.client);
  return {
    requestId,
    transport,
    principal,
    role: principal?.role ?? null,
    authFailure: auth.ok ? null : auth.failure,
    services: source.services,
    loaders: createLoaders(source.db, () => consistency.session()),
    consistency,
    logger: source.logger.child({ requestId, transport, keyId: principal?.keyId, role: principal?.role }),
  };
}
