// Metrics of the request gate: operations refused before execution, by the limit that refused them.
import { Counter } from 'prom-client';
import { metricsRegistry } from '../observability/metrics.ts';

export const queryLimitRefusalsTotal = new Counter({
  name: 'graphql_query_limit_refusals_total',
  help: 'Operations refused by a query limit before execution, by limit (depth, aliases, cost, tokens, directives, batch)',
  labelNames: ['limit'] as const,
  registers: [metricsRegistry],
});

export const rateLimitedTotal = new Counter({
  name: 'graphql_rate_limited_total',
  help: 'Operations refused with RATE_LIMITED (the API key had no token left), by role',
  labelNames: ['role'] as const,
  registers: [metricsRegistry],
});

export const untrustedDocumentsTotal = new Counter({
  name: 'graphql_untrusted_documents_total',
  help: 'Operations whose document is not in the trusted documents manifest, by mode and whether they were let through',
  labelNames: ['mode', 'allowed'] as const,
  registers: [metricsRegistry],
});
