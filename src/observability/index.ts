export { createLogger } from './logger.ts';
export type { Logger, LoggerOptions } from './logger.ts';
export { counterOn, gaugeOn, histogramOn, metricsRegistry } from './metrics.ts';
