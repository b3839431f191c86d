import { Counter, type Registry } from 'prom-client';
import type { Logger } from 'pino';

// Metrics and logs of the ledger. Every answer is counted by operation and outcome, so replays,
// key reuse, overdraft attempts and unknown outcomes are all visible on /metrics.

export interface LedgerTelemetry {
  outcome(op: string, outcome: string): void;
  /** A drive of `requestKey` failed; it will be retried or left for a replay or the sweep. */
  driveFailure(requestKey: string, error: unknown): void;
  /** A request whose account moved too far since its claim to tell whether it applied. */
  untraceable(requestKey: string): void;
}

/** Re-uses a metric already on the registry, so that several app instances can share one. */
function counterOn(registry: Registry, name: string, help: string, labelNames: string[]): Counter {
  const existing = registry.getSingleMetric(name);
  if (existing instanceof Counter) return existing;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

export function createLedgerTelemetry(registry: Registry, logger: Logger): LedgerTelemetry {
  const outcomes = counterOn(registry, 'ledger_outcomes_total', 'Ledger mutation answers, by operation and result member.', ['op', 'outcome']);
  const failures = counterOn(registry, 'ledger_drive_failures_total', 'Failed internal drives of a ledger request (each retried with the same key).', []);
  const log = logger.child({ component: 'ledger' });
  return {
    outcome: (op, outcome) => outcomes.inc({ op, outcome }),
    driveFailure(requestKey, error) {
      failures.inc();
      log.warn({ requestKey, err: error }, 'ledger request drive failed; it stays pending for a retry');
    },
    untraceable: (requestKey) =>
      log.error({ requestKey }, 'ledger request cannot be traced on its account any more; needs an operator'),
  };
}
