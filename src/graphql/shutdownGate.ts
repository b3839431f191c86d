// The first step of a graceful stop: from `begin()` on, every new HTTP request is answered 503
// (the listener stays open, so a client sees a clear refusal rather than a reset), while the
// requests already in flight run to completion; `drained()` resolves when none is left or the
// grace period is over, whichever comes first. Then the server closes for good (server.ts).
import type { RequestHandler } from 'express';
import { ErrorCode } from './errors.ts';

export interface ShutdownGate {
  /** Counts requests in flight and refuses new ones once shutting down. Mount before everything. */
  middleware: RequestHandler;
  readonly shuttingDown: boolean;
  begin(): void;
  /** Resolves with the requests still in flight: 0 when drained, more when the grace ran out. */
  drained(graceMs: number): Promise<number>;
}

export function createShutdownGate(): ShutdownGate {
  let shuttingDown = false;
  let inFlight = 0;
  const idleWaiters = new Set<() => void>();
  const finished = () => {
    inFlight--;
    if (inFlight === 0) for (const wake of idleWaiters) wake();
  };
  return {
    middleware(req, res, next) {
      if (shuttingDown && req.path !== '/healthz' && req.path !== '/readyz' && req.path !== '/metrics') {
        res.set('connection', 'close').set('retry-after', '1');
        res.status(503).json({ errors: [{ message: 'The server is shutting down; retry on another instance.', extensions: { code: ErrorCode.SHUTTING_DOWN } }] });
        return;
      }
      inFlight++;
      let counted = true;
      res.once('close', () => {
        if (counted) finished();
        counted = false;
      });
      next();
    },
    get shuttingDown() {
      return shuttingDown;
    },
    begin() {
      shuttingDown = true;
    },
    drained(graceMs) {
      if (inFlight === 0) return Promise.resolve(0);
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          idleWaiters.delete(done);
          resolve(inFlight);
        };
        const timer = setTimeout(done, graceMs);
        idleWaiters.add(done);
      });
    },
  };
}
