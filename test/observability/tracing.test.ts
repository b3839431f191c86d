// Traces from the SDK to the driver: proves that a `traceparent` sent by the SDK continues through
// the server's span and the mutation's span to every MongoDB command the withdrawal sends; that
// the mutation span names the union member it answered; that the payout made by the projection,
// its claim and its completion link to the withdrawal's trace, the work spans carrying what they
// expected and wrote; and that every log line of the traced request carries its trace and span ids.
// Spans are read from an in-memory exporter; tracing is started before the app, as main.ts does.
import { Writable } from 'node:stream';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../packages/sdk/src/index.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { startTracing, tracer, tracingEnabled, type Tracing } from '../../src/observability/tracing.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { eventually } from '../support/waiting.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
const traceparentOf = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;

interface LogLine {
  msg: string;
  trace_id?: string;
  span_id?: string;
  [key: string]: unknown;
}

describe('tracing: SDK → API → driver, and the payout linked to its withdrawal', () => {
  const exporter = new InMemorySpanExporter();
  const lines: LogLine[] = [];
  let tracing: Tracing;
  let app: TestApp;

  beforeAll(async () => {
    tracing = startTracing({ exporter });
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    // No rate limit: its shared bucket's reservation (a findAndModify under the server span, once
    // a held reserve is over 1 s old: a loaded machine) is not the withdrawal's command this test follows.
    app = await startTestApp({
      logger: createLogger({ level: 'info', destination }),
      env: { SEED_DEMO: '0', RATE_LIMITS: 'off' },
    });
  });
  afterAll(async () => {
    await app?.close();
    await tracing?.shutdown();
  });

  const spansOf = (traceId: string) =>
    exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it("continues the caller's traceparent to every MongoDB command of a withdrawal, and names the member it answered", async () => {
    expect(tracingEnabled()).toBe(true);
    const service = createClient({ url: app.url, apiKey: app.keys.service });
    await service.openAccount({ accountId: 'tr-a', currency: 'EUR' });
    await service.deposit({ accountId: 'tr-a', amount: 500, requestId: 'tr-d1' });
    const traced = createClient({
      url: app.url,
      apiKey: app.keys.service,
      traceparent: () => traceparentOf(TRACE_ID, CALLER_SPAN_ID),
    });
    const answer = await traced.withdraw({ accountId: 'tr-a', amount: 200, requestId: 'tr-w1' });
    expect(answer.__typename).toBe('WithdrawSuccess');

    const spans = await eventually(() => {
      const found = spansOf(TRACE_ID);
      expect(found.find((span) => span.name === 'mutation Withdraw')).toBeDefined();
      return found;
    });
    const server = spans.find((span) => span.name === 'mutation Withdraw')!;
    expect(parentOf(server)).toBe(CALLER_SPAN_ID);
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'graphql.operation.name': 'Withdraw',
      'http.response.status_code': 200,
    });
    const field = spans.find((span) => span.name === 'mutation withdraw')!;
    expect(parentOf(field)).toBe(server.spanContext().spanId);
    expect(field.attributes['graphql.result.member']).toBe('WithdrawSuccess');

    // Every command the withdrawal sent is a span of this trace under the mutation's span, named
    // and attributed by the database semantic conventions.
    // The admission screen's rate-limit reservation (src/server/sharedRateLimit.ts), when the
    // request makes one, runs before the operation under the request's span (as otlpExport.test.ts).
    const isRateLimit = (span: ReadableSpan) => span.attributes['db.collection.name'] === 'rate_limit_buckets';
    const commands = spans.filter((span) => span.attributes['db.system.name'] === 'mongodb' && !isRateLimit(span));
    expect(commands.map((span) => span.attributes['db.operation.name'])).toEqual(
      expect.arrayContaining(['insert', 'commitTransaction']),
    );
    for (const command of commands) expect(parentOf(command)).toBe(field.spanContext().spanId);
    for (const reservation of spans.filter(isRateLimit))
      expect(parentOf(reservation)).toBe(server.spanContext().spanId);
    const insert = commands.find((span) => span.attributes['db.operation.name'] === 'insert')!;
    expect(insert.attributes['db.namespace']).toBe(app.db.databaseName);
    expect(insert.name).toBe(`insert ${insert.attributes['db.collection.name']}`);
    // No command of this trace was sent outside the request's spans.
    const inTrace = new Set(spans.map((span) => span.spanContext().spanId));
    for (const span of spans) if (span !== server) expect(inTrace.has(parentOf(span)!)).toBe(true);

    // The request's log lines join the trace.
    const logged = lines.filter((line) => line['mutation'] === 'withdraw' && line.trace_id === TRACE_ID);
    expect(logged).toHaveLength(1);
    expect(inTrace.has(logged[0]!.span_id!)).toBe(true);
    expect(lines.filter((line) => line['mutation'] === 'deposit').every((line) => line.trace_id !== TRACE_ID)).toBe(
      true,
    );

    // The request and its entry keep the trace: the payout made from them links back to it.
    const request = await app.db.collection('ledger_requests').findOne({ requestId: 'tr-w1' });
    expect(request?.['traceparent']).toBe(traceparentOf(TRACE_ID, field.spanContext().spanId));
  });

  it("continues the caller's active OpenTelemetry span when the SDK is given no traceparent", async () => {
    const service = createClient({ url: app.url, apiKey: app.keys.service });
    const caller = await tracer().startActiveSpan('caller', async (span) => {
      await service.openAccount({ accountId: 'tr-ctx', currency: 'EUR' });
      span.end();
      return span.spanContext();
    });
    const server = await eventually(() => {
      const found = spansOf(caller.traceId).find((span) => span.name === 'mutation OpenAccount');
      expect(found).toBeDefined();
      return found!;
    });
    expect(parentOf(server)).toBe(caller.spanId);
  });

  it("links the projection's payout, its claim and its completion to the withdrawal's trace, with what each expected and wrote", async () => {
    const service = createClient({ url: app.url, apiKey: app.keys.service });
    const payoutTrace = spansOf(TRACE_ID)
      .find((span) => span.name === 'mutation withdraw')!
      .spanContext();
    const entry = await app.db.collection('ledger_entries').findOne({ requestId: 'tr-w1', kind: 'withdrawal' });
    const payout = await eventually(async () => {
      const item = await service.payoutFor(String(entry!['_id']));
      expect(item).not.toBeNull();
      return item!;
    });
    const projected = await eventually(() => {
      const span = exporter
        .getFinishedSpans()
        .find(
          (candidate) =>
            candidate.name === 'payout.project' && candidate.links.some((link) => link.context.traceId === TRACE_ID),
        );
      expect(span).toBeDefined();
      return span!;
    });
    expect(projected.links.find((link) => link.context.traceId === TRACE_ID)!.context.spanId).toBe(payoutTrace.spanId);
    const upserts = exporter.getFinishedSpans().filter((span) => parentOf(span) === projected.spanContext().spanId);
    expect(upserts.map((span) => span.attributes['db.collection.name'])).toContain('workItems');

    const workerTrace = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    const worker = createClient({
      url: app.url,
      apiKey: app.keys.worker,
      traceparent: () => traceparentOf(workerTrace, '1111111111111111'),
    });
    const claimed = await worker.claimWorkItem({ workerId: 'tr-worker', id: payout.id });
    if (claimed.__typename !== 'ClaimSuccess') throw new Error(claimed.__typename);
    const completed = await worker.completeWorkItem({
      id: payout.id,
      workerId: 'tr-worker',
      version: claimed.item.version,
      outcome: 'DONE',
    });
    expect(completed.__typename).toBe('CompleteSuccess');
    const lost = await worker.claimWorkItem({
      workerId: 'tr-late',
      id: payout.id,
      expectedVersion: claimed.item.version,
    });
    expect(lost.__typename).toBe('ConflictLost');

    const workSpans = await eventually(() => {
      const found = spansOf(workerTrace).filter(
        (span) => span.name.startsWith('mutation ') && span.attributes['workItemId'] !== undefined,
      );
      expect(found).toHaveLength(3);
      return found;
    });
    const [claim, complete, conflict] = workSpans.sort(
      (a, b) => (a.startTime[0] - b.startTime[0]) * 1e9 + (a.startTime[1] - b.startTime[1]),
    );
    expect(claim!.attributes).toMatchObject({
      workItemId: payout.id,
      'graphql.result.member': 'ClaimSuccess',
      'work.expected.status': 'PENDING',
      'work.expected.version': 1,
      'work.written.status': 'PROCESSING',
      'work.written.version': 2,
    });
    expect(complete!.attributes).toMatchObject({
      workItemId: payout.id,
      'graphql.result.member': 'CompleteSuccess',
      'work.expected.status': 'PROCESSING',
      'work.expected.version': 2,
      'work.written.status': 'DONE',
      'work.written.version': 3,
    });
    expect(conflict!.attributes).toMatchObject({
      workItemId: payout.id,
      'graphql.result.member': 'ConflictLost',
      'work.outcome': 'conflictLost',
      'work.expected.version': 2,
      'work.found.status': 'DONE',
      'work.found.version': 3,
    });
    for (const span of [claim!, complete!, conflict!]) {
      expect(span.links.map((link) => `${link.context.traceId}/${link.context.spanId}`)).toEqual([
        `${TRACE_ID}/${payoutTrace.spanId}`,
      ]);
    }
  });
});
