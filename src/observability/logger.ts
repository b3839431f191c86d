import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';

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
}

export function createLogger({ level, destination }: LoggerOptions): Logger {
  const options = { level, base: { service: 'precondition' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
