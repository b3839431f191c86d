import { pino, stdTimeFunctions, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { prettyDestination } from './prettyLog.ts';

export type { Logger } from 'pino';

// Keys never reach the logs: nothing logs a token on purpose (the context carries only a key
// fingerprint), and these paths are censored in case a header or config object is logged whole.
const REDACTED_PATHS = [
  'authorization',
  'apiKeys',
  'token',
  '*.authorization',
  '*.apiKeys',
  '*.token',
  'headers.authorization',
  'req.headers.authorization',
  'request.headers.authorization',
  'connectionParams.authorization',
  'config.apiKeys',
  'config.mongodbUri',
];

export interface LoggerOptions {
  level: LevelWithSilent;
  /** Where JSON lines go; stdout by default. Tests pass a stream to read the output. */
  destination?: DestinationStream;
  /** `pretty`: readable lines for a terminal (LOG_FORMAT); default JSON lines. */
  format?: 'json' | 'pretty';
}

export function createLogger({ level, destination, format = 'json' }: LoggerOptions): Logger {
  // ISO-8601 times ("2026-12-03T22:59:01.123Z"), which a person and a collector both read, not epoch ms.
  const options = { level, base: { service: 'precondition' }, timestamp: stdTimeFunctions.isoTime, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  const out = format === 'pretty' ? prettyDestination(destination ?? process.stdout) : destination;
  return out ? pino(options, out) : pino(options);
}
