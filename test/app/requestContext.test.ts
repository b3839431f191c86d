// Proves the request context's deferred parts: the child logger, the loaders and the request id
// are built only when asked for, once per request, and the shallow copy Apollo makes of the
// context for each operation (of a batch, too) shares them, so a batch keeps one request id, one
// logger and one loader cache. The database they are built over is no property of the context.
import type { Db } from 'mongodb';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createContext, type AppContext } from '../../src/app/requestContext.ts';
import type { AppServices } from '../../src/app/services.ts';

/** What Apollo does to the context before each operation (ApolloServer.js, cloneObject). */
function apolloCopy<T extends object>(object: T): T {
  return Object.assign(Object.create(Object.getPrototypeOf(object) as object | null) as T, object);
}

function source() {
  const db = { client: {}, collection: vi.fn(() => ({})) } as unknown as Db;
  const logger = pino({ level: 'silent' });
  const child = vi.spyOn(logger, 'child');
  return { db, logger, child, services: {} as AppServices };
}

const principal = { role: 'service' as const, keyId: 'key-1' };

describe('the request context', () => {
  it('builds no logger, loaders or collections until asked, then each once', () => {
    const app = source();
    const context = createContext(app, { ok: true, principal }, 'http');
    expect(app.child).not.toHaveBeenCalled();
    expect(context.logger).toBe(context.logger);
    expect(app.child).toHaveBeenCalledTimes(1);
    expect(app.child).toHaveBeenCalledWith({
      requestId: context.requestId,
      transport: 'http',
      keyId: 'key-1',
      role: 'service',
    });
    expect(context.loaders).toBe(context.loaders);
    expect(context.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(context.requestId).toBe(context.requestId);
  });

  it("shares one request id, logger and loader cache with Apollo's per-operation copies", () => {
    const app = source();
    const context = createContext(app, { ok: true, principal }, 'http');
    const [first, second] = [apolloCopy(context), apolloCopy(context)] as [AppContext, AppContext];
    expect(first.loaders).toBe(second.loaders);
    expect(second.loaders).toBe(context.loaders);
    expect(first.requestId).toBe(second.requestId);
    expect(first.logger).toBe(context.logger);
    expect(app.child).toHaveBeenCalledTimes(1);
    expect(first.principal).toBe(principal);
    expect(second.role).toBe('service');
  });

  it('gives each request its own id and loaders, and holds no database handle', () => {
    const app = source();
    const [a, b] = [
      createContext(app, { ok: true, principal }, 'ws'),
      createContext(app, { ok: false, failure: 'missing' }, 'http'),
    ];
    expect(a.requestId).not.toBe(b.requestId);
    expect(a.loaders).not.toBe(b.loaders);
    expect(b).toMatchObject({ principal: null, role: null, authFailure: 'missing', transport: 'http' });
    const reachable = (value: unknown, depth: number): unknown[] =>
      depth === 0 || value === null || typeof value !== 'object'
        ? [value]
        : [value, ...Object.values(value).flatMap((inner) => reachable(inner, depth - 1))];
    expect(reachable(a, 3)).not.toContain(app.db);
  });
});
