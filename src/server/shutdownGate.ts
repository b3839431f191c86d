// The first step of a graceful stop: from `begin()` on, every new HTTP request is answered 503
// (the listener stays open, so a client sees a clear refusal rather than a reset), while the
// requests already in flight run to completion; `drained()` resolves when none is left or the
// grace period is over, whichever comes first. Then the server closes for good (server.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../graphql/errors.ts';

export interface ShutdownGate {
  /**
   * Call first for every request: counts it in flight until its response closes, or, once
   * shutting down, answers it 503 and returns false (health, readiness and metrics still pass).
   */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
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
    admit(req, res) {
      const path = (req.url ?? '/').split('?', 1)[0];
      if (shuttingDown && path !== '/healthz' && path !== '/readyz' && path !== '/metrics') {
        const body = JSON.stringify({
          errors: [
            {
              message: 'The server is shutting down; retry on another instance.',
              extensions: { code: ErrorCode.SHUTTING_DOWN },
            },
          ],
        });
        res.writeHead(503, {
          connection: 'close',
          'retry-after': '1',
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        });
        res.end(body);
        return false;
      }
      inFlight++;
      let counted = true;
      res.once('close', () => {
        if (counted) finished();
        counted = false;
      });
      return true;
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
