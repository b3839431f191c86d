import type { Registry } from 'prom-client';
import { counterOn, histogramOn } from '../observability/metrics.ts';

// Metrics of the GraphQL layer: operations over HTTP and graphql-ws (operationObservation.ts) and refused credentials.

const OPERATION_DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createGraphqlTelemetry(registry: Registry) {
  return {
    operationsTotal: counterOn(registry, {
      name: 'graphql_operations_total',
      help: 'GraphQL operations handled over HTTP, and queries and mutations over graphql-ws, by operation type, outcome and operation name (a name of the trusted-documents manifest, else "other")',
      labelNames: ['type', 'outcome', 'operation'] as const,
    }),
    operationDurationSeconds: histogramOn(registry, {
      name: 'graphql_operation_duration_seconds',
      help: 'Time to execute a GraphQL operation over HTTP, or a query or mutation over graphql-ws',
      labelNames: ['type'] as const,
      buckets: OPERATION_DURATION_BUCKETS_S,
    }),
    authFailuresTotal: counterOn(registry, {
      name: 'auth_failures_total',
      help: 'Requests refused for missing or insufficient credentials, by transport and reason',
      labelNames: ['transport', 'reason'] as const,
    }),
    // The request gate: operations refused before execution, by what refused them.
    queryLimitRefusalsTotal: counterOn(registry, {
      name: 'graphql_query_limit_refusals_total',
      help: 'Operations refused by a query limit before execution, by limit (depth, aliases, cost, tokens, directives, batch)',
      labelNames: ['limit'] as const,
    }),
    rateLimitedTotal: counterOn(registry, {
      name: 'graphql_rate_limited_total',
      help: 'Operations refused with RATE_LIMITED (the API key had no token left), by role',
      labelNames: ['role'] as const,
    }),
    rateLimitFallbacksTotal: counterOn(registry, {
      name: 'graphql_rate_limit_fallbacks_total',
      help: "Rate-limit checks made on this process's own bucket because the shared bucket in MongoDB could not be reached",
    }),
    untrustedDocumentsTotal: counterOn(registry, {
      name: 'graphql_untrusted_documents_total',
      help: 'Operations whose document is not in the trusted documents manifest, by mode and whether they were let through',
      labelNames: ['mode', 'allowed'] as const,
    }),
    subscriptionResultsTotal: counterOn(registry, {
      name: 'subscription_results_total',
      help: 'Per-event subscription results: executed (once per item and distinct selection) or shared (reused by another subscriber)',
      labelNames: ['outcome'] as const,
    }),
  };
}

export type GraphqlTelemetry = ReturnType<typeof createGraphqlTelemetry>;
