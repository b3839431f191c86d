// Traces with OpenTelemetry. The app writes its spans through @opentelemetry/api only; the SDK is
// started by `startTracing` when OTEL_EXPORTER_OTLP_ENDPOINT is set (src/main.ts) or a test hands an
// exporter. Without it no SDK runs: the API is its no-op, and the hot paths ask `tracingEnabled()`
// before they build anything (no server span, no mutation wrapper, no command monitoring).
//
// Spans of our own instead of the http and graphql auto-instrumentations: those patch modules
// through require hooks, which see an ESM `import` only when a loader hook is registered before the
// module first loads (node --import), and they would trace every field resolver. The app needs one
// server span per request (continuing the caller's `traceparent`), one span per mutation root field
// and one per MongoDB command; the MongoDB ones come from the driver's command monitoring
// (mongoCommandSpans.ts).
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Link,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import { LogThrottle } from './logThrottle.ts';

export const TRACER_NAME = 'precondition';

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: spans go to `<endpoint>/v1/traces` over OTLP/HTTP (JSON). */
  endpoint?: string;
  /** Instead of OTLP (tests: an InMemorySpanExporter); each span is exported as it ends. */
  exporter?: SpanExporter;
  serviceName?: string;
  /**
   * Where a failed export is said (the logger's warn): at most once a minute, with how many
   * failures were not said, so an unreachable collector is heard about while serving, not flooded.
   */
  warn?: (fields: Record<string, unknown>, message: string) => void;
}

/** One warning per minute about failed exports: an unreachable collector fails every batch (every 5 s). */
export const EXPORT_FAILURE_THROTTLE = Object.freeze({ windowMs: 60_000, perWindowMax: 1, keysMax: 1 });

export interface Tracing {
  /**
   * Exports what is buffered, then stops the SDK; the API is a no-op again. With `timeoutMs`, gives
   * the last export that long (a collector that does not answer is retried for seconds by the
   * exporter) and says what was lost instead of failing: tracing never fails a shutdown.
   */
  shutdown(options?: { timeoutMs?: number }): Promise<void>;
  /** Exports what is buffered now. */
  flush(): Promise<void>;
}

let provider: NodeTracerProvider | null = null;

/** Whether an SDK runs in this process: the hot paths trace only then. */
export function tracingEnabled(): boolean {
  return provider !== null;
}

/** Starts the SDK and registers it as the API's global provider (W3C trace context propagation). */
export function startTracing(options: TracingOptions): Tracing {
  if (provider) throw new Error('tracing is already started in this process');
  const warn = options.warn ?? (() => undefined);
  // A test's exporter is used as it is (each span exported as it ends); the collector's, through
  // ReportingExporter, which says when an export failed.
  const exporter =
    options.exporter ??
    new ReportingExporter(
      new OTLPTraceExporter({ url: `${(options.endpoint ?? '').replace(/\/+$/, '')}/v1/traces` }),
      warn,
      options.endpoint,
    );
  const processor = options.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter);
  const started = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName ?? 'precondition' }),
    spanProcessors: [processor],
  });
  started.register();
  provider = started;
  return {
    flush: () => started.forceFlush(),
    async shutdown({ timeoutMs }: { timeoutMs?: number } = {}) {
      if (provider !== started) return;
      provider = null;
      trace.disable();
      context.disable();
      propagation.disable();
      const stopped = started.shutdown();
      if (timeoutMs === undefined) return stopped;
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        stopped.then(
          () => 'flushed' as const,
          (error: unknown) => error,
        ),
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs).unref())),
      ]);
      clearTimeout(timer);
      if (outcome === 'timeout')
        warn(
          { endpoint: options.endpoint, timeoutMs },
          `tracing: the last spans were not exported within ${timeoutMs} ms of shutdown (is the collector at ${options.endpoint ?? 'the endpoint'} reachable?); stopping without them`,
        );
      else if (outcome !== 'flushed')
        warn(
          { endpoint: options.endpoint, error: messageOf(outcome) },
          `tracing: the last spans could not be exported at shutdown: ${messageOf(outcome)}; stopping without them`,
        );
    },
  };
}

/** Passes spans to the real exporter and says, rate-limited, when an export failed. */
class ReportingExporter implements SpanExporter {
  readonly #throttle = new LogThrottle(EXPORT_FAILURE_THROTTLE);
  constructor(
    private readonly inner: SpanExporter,
    private readonly warn: NonNullable<TracingOptions['warn']>,
    private readonly endpoint: string | undefined,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) {
        const { write, suppressed } = this.#throttle.take('export');
        const error = messageOf(result.error ?? 'export failed');
        if (write)
          this.warn(
            { endpoint: this.endpoint, spans: spans.length, error, suppressed },
            `tracing: could not export ${spans.length} span(s) to ${this.endpoint ?? 'the exporter'}: ${error}; spans are dropped until the collector answers`,
          );
      }
      resultCallback(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(messageOf).join('; ');
  if (error instanceof Error) return error.message || (error as { code?: string }).code || error.name;
  return String(error);
}

export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/** The W3C `traceparent` of the active span, to store with what this request leaves behind; undefined when none. */
export function activeTraceparent(): string | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The span context a stored `traceparent` names (W3C Trace Context, version 00), or null. */
export function spanContextOf(traceparent: string | null | undefined): SpanContext | null {
  const match = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent) : null;
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return null;
  return {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
}

/** A link to the trace a stored `traceparent` names, with why; none when it names none. */
export function linksTo(traceparent: string | null | undefined, reason: string): Link[] {
  const linked = spanContextOf(traceparent);
  return linked ? [{ context: linked, attributes: { 'precondition.link': reason } }] : [];
}

/** Links the active span (if tracing) to the trace a stored `traceparent` names. */
export function linkActiveSpan(traceparent: string | null | undefined, reason: string): void {
  const span = trace.getActiveSpan();
  if (!span) return;
  for (const link of linksTo(traceparent, reason)) span.addLink(link);
}

/** Sets attributes on the active span, if any (a no-op when tracing is off). */
export function annotateActiveSpan(attributes: Record<string, string | number | boolean | null | undefined>): void {
  const span = trace.getActiveSpan();
  if (!span) return;
  for (const [key, value] of Object.entries(attributes))
    if (value !== null && value !== undefined) span.setAttribute(key, value);
}

/**
 * Runs `work` in a new active span, ended when it settles; a throw marks the span as an error.
 * `links` connect it to other traces (a payout to its withdrawal's).
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; links?: Link[]; attributes?: Record<string, string | number | boolean> },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** The context a request's headers continue (its `traceparent`), or a new root when it sends none. */
export function contextFromHeaders(headers: Record<string, string | string[] | undefined>) {
  return propagation.extract(ROOT_CONTEXT, headers);
}

export { context, SpanKind, SpanStatusCode, trace };

/**
 * Runs `work` (the handling of one HTTP request) in a SERVER span that continues the request's
 * `traceparent`, ended when the response is finished or the connection closes.
 */
export function traceServerRequest(
  req: {
    method?: string | undefined;
    url?: string | undefined;
    headers: Record<string, string | string[] | undefined>;
  },
  res: { statusCode: number; once(event: 'close', listener: () => void): unknown },
  work: () => void,
): void {
  const parent = contextFromHeaders(req.headers);
  const method = (req.method ?? 'GET').toUpperCase();
  const path = (req.url ?? '/').split('?', 1)[0]!;
  const span = tracer().startSpan(
    `${method} ${path}`,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': path } },
    parent,
  );
  res.once('close', () => {
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  context.with(trace.setSpan(parent, span), work);
}
