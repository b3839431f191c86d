export { createLogger } from './logger.ts';
export type { Logger, LoggerOptions } from './logger.ts';
export { counterOn, createMetricsRegistry, gaugeOn, histogramOn } from './metrics.ts';
