// The process's one Prometheus registry, served at GET /metrics. Features register their
// metrics here: `new Counter({ name: 'claim_conflict_total', help: '...', registers: [metricsRegistry] })`.
// Metrics are process-wide: tests that read them compare before and after.
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const graphqlOperationsTotal = new Counter({
  name: 'graphql_operations_total',
  help: 'GraphQL operations handled, by operation type and outcome',
  labelNames: ['type', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const graphqlOperationDurationSeconds = new Histogram({
  name: 'graphql_operation_duration_seconds',
  help: 'Time to execute a GraphQL operation over HTTP',
  labelNames: ['type'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const authFailuresTotal = new Counter({
  name: 'auth_failures_total',
  help: 'Requests refused for missing or insufficient credentials, by transport and reason',
  labelNames: ['transport', 'reason'] as const,
  registers: [metricsRegistry],
});
