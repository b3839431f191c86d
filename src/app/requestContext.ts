// The app's per-request context (`AppContext`: the toolkit's RequestContext over every service and
// loader of the app), built the same way for HTTP requests and WebSocket operations so that
// neither is a side door. Resolvers reach the
// database only through the app's services and the request's loaders: the context carries no
// database or client handle.
import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import type { Logger } from '../observability/logger.ts';
import type { AppServices } from './services.ts';
import type { Authentication, AuthFailure, Principal } from '../access/apiKeys.ts';
import type { RequestContext } from '../graphql/context.ts';
import type { Role } from '../access/roles.ts';
import { RequestConsistency } from '../graphql/consistency.ts';
import { createLoaders, type Loaders } from './loaders.ts';

/** What every request's context is built from: parts of the app that src/app/createApp.ts built once. */
export interface ContextSource {
  /** For the request's loaders and its causal session only; never handed to a resolver. */
  db: Db;
  logger: Logger;
  services: AppServices;
}

export type AppContext = RequestContext<AppServices, Loaders>;

/**
 * What a request builds only when something asks for it: most operations never log, and only
 * reads use loaders, yet a child logger (its bindings serialised through the redaction rules),
 * the loaders and the request id cost a `{ __typename }` ≈ 100 µs of CPU when built eagerly.
 * One per request, referenced by the context: Apollo gives each operation of a batch a shallow
 * copy of the context, and the copies share it (one request id, one logger, one loader cache).
 * Its fields are private (#), so the database it builds loaders over is no property of the context.
 */
class Deferred {
  readonly #source: ContextSource;
  readonly #consistency: RequestConsistency;
  readonly #bindings: { transport: AppContext['transport']; keyId: string | undefined; role: Role | undefined };
  #requestId: string | undefined;
  #loaders: Loaders | undefined;
  #logger: Logger | undefined;

  constructor(
    source: ContextSource,
    consistency: RequestConsistency,
    transport: AppContext['transport'],
    principal: Principal | null,
  ) {
    this.#source = source;
    this.#consistency = consistency;
    this.#bindings = { transport, keyId: principal?.keyId, role: principal?.role };
  }

  requestId(): string {
    return (this.#requestId ??= randomUUID());
  }

  loaders(): Loaders {
    const consistency = this.#consistency;
    return (this.#loaders ??= createLoaders(this.#source.db, () => consistency.session()));
  }

  logger(): Logger {
    return (this.#logger ??= this.#source.logger.child({ requestId: this.requestId(), ...this.#bindings }));
  }
}

class AppRequestContext implements AppContext {
  readonly principal: Principal | null;
  readonly role: Role | null;
  readonly authFailure: AuthFailure | null;
  readonly services: AppServices;
  readonly consistency: RequestConsistency;
  // A plain (enumerable) property, not #private: Apollo's per-operation copy must carry it.
  private readonly deferred: Deferred;

  constructor(
    source: ContextSource,
    auth: Authentication,
    readonly transport: AppContext['transport'],
    readonly connectionId: string | null,
  ) {
    this.principal = auth.ok ? auth.principal : null;
    this.role = this.principal?.role ?? null;
    this.authFailure = auth.ok ? null : auth.failure;
    this.services = source.services;
    this.consistency = new RequestConsistency(source.db.client);
    this.deferred = new Deferred(source, this.consistency, transport, this.principal);
  }

  get requestId(): string {
    return this.deferred.requestId();
  }

  get loaders(): Loaders {
    return this.deferred.loaders();
  }

  get logger(): Logger {
    return this.deferred.logger();
  }
}
export function createContext(
  source: ContextSource,
  auth: Authentication,
  transport: AppContext['transport'],
  connectionId: string | null = null,
): AppContext {
  return new AppRequestContext(source, auth, transport, connectionId);
}
