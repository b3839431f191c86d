export { createLogger } from './logger.ts';
export type { Logger, LoggerOptions } from './logger.ts';
export { authFailuresTotal, graphqlOperationDurationSeconds, graphqlOperationsTotal, metricsRegistry } from './metrics.ts';
