// The per-request context every resolver receives (`@Ctx() ctx: AppContext`), built the same way
// for HTTP requests and WebSocket operations so that neither is a side door.
import { randomUUID } from 'node:crypto';
import type { Db, MongoClient } from 'mongodb';
import type { EngineInfo } from '../db/engine.ts';
import type { Logger } from '../observability/logger.ts';
import type { Authentication, AuthFailure, Principal } from './auth/apiKeys.ts';
import type { Role } from './auth/roles.ts';
import { RequestConsistency } from './consistency.ts';
import { createLoaders, type Loaders } from './loaders.ts';

/** What lives as long as the process: shared by every request. */
export interface AppServices {
  client: MongoClient;
  db: Db;
  engine: EngineInfo;
  logger: Logger;
}

export interface AppContext {
  requestId: string;
  transport: 'http' | 'ws';
  principal: Principal | null;
  role: Role | null;
  /** Why there is no principal; null when authenticated. */
  authFailure: AuthFailure | null;
  client: MongoClient;
  db: Db;
  engine: EngineInfo;
  loaders: Loaders;
  /** Read-your-writes: the time this request's reads must follow (`@consistentAfter`), and their session. */
  consistency: RequestConsistency;
  /** A child logger bound to this request (request id, key fingerprint and role; never the key). */
  logger: Logger;
}

export function createContext(services: AppServices, auth: Authentication, transport: AppContext['transport']): AppContext {
  const requestId = randomUUID();
  const principal = auth.ok ? auth.principal : null;
  const consistency = new RequestConsistency(services.client);
  return {
    requestId,
    transport,
    principal,
    role: principal?.role ?? null,
    authFailure: auth.ok ? null : auth.failure,
    client: services.client,
    db: services.db,
    engine: services.engine,
    loaders: createLoaders(services.db, () => consistency.session()),
    consistency,
    logger: services.logger.child({ requestId, transport, keyId: principal?.keyId, role: principal?.role }),
  };
}
