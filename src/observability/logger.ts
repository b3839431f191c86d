import { pino, stdTimeFunctions, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { trace } from '@opentelemetry/api';
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

/**
 * The ids of the span active where a line is written, so that every line of a traced request
 * joins its trace: `trace_id` and `span_id` (the OpenTelemetry log data model's names). With
 * tracing off the API's context is always the root, and the line gets nothing. A new object
 * each time: pino merges the line's own fields into what the mixin returns.
 */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export function createLogger({ level, destination, format = 'json' }: LoggerOptions): Logger {
  // ISO-8601 times ("2026-12-03T22:59:01.123Z"), which a person and a collector both read, not epoch ms.
  const options = {
    level,
    base: { service: 'precondition' },
    timestamp: stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: traceFields,
  };
  const out = format === 'pretty' ? prettyDestination(destination ?? process.stdout) : destination;
  return out ? pino(options, out) : pino(options);
}
