// One CLIENT span per MongoDB command, a child of the span active where the command was sent, with
// the database semantic conventions (db.system.name, db.namespace, db.collection.name,
// db.operation.name, server.address/port; span name "<command> <collection>").
//
// From the driver's command monitoring, not @opentelemetry/instrumentation-mongodb: that one
// patches mongodb/lib/cmap/connection.js through a require hook, so it hooks only a driver loaded
// after it is registered. Checked with tsx: a dynamic import of the driver after registration is
// patched, but the app (and vitest) load the driver by static ESM imports before any code of ours
// runs, which needs a `node --import` preload to register first. Command monitoring needs no hook:
// `monitorCommands` is a client option (src/db/connect.ts sets it when tracing is on), and the
// driver emits commandStarted synchronously from the command's own call chain, so the active
// context there is the caller's (AsyncLocalStorage follows the awaits).
import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent, MongoClient } from 'mongodb';
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { tracer } from './tracing.ts';

export const MongoSpanLimits = Object.freeze({
  /**
   * Commands in flight with an open span. Every started command gets its succeeded or failed event
   * (a closed connection fails its commands), so this bounds only a driver bug: past it new commands
   * go untraced rather than the map growing. The pool's maxPoolSize (100) × a few pipelined
   * commands is far below it.
   */
  openSpansMax: 10_000,
});

/** Commands whose first field is not the collection (the driver's handshake and cursor commands). */
function collectionOf(event: CommandStartedEvent): string | undefined {
  const command = event.command as Record<string, unknown>;
  if (event.commandName === 'getMore' && typeof command['collection'] === 'string') return command['collection'];
  const target = command[event.commandName];
  return typeof target === 'string' ? target : undefined;
}

function keyOf(event: { requestId: number; address: string }): string {
  return `${event.address}#${event.requestId}`;
}

/** Listens to `client`'s command events; returns the function that stops listening. */
export function traceMongoCommands(client: MongoClient): () => void {
  const open = new Map<string, Span>();
  const started = (event: CommandStartedEvent) => {
    const parent = context.active();
    // Only inside a trace: the driver's own monitoring and the app's background loops make no root spans.
    if (!trace.getSpan(parent) || open.size >= MongoSpanLimits.openSpansMax) return;
    const collection = collectionOf(event);
    const [host, port] = event.address.split(':');
    const span = tracer().startSpan(
      collection ? `${event.commandName} ${collection}` : event.commandName,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system.name': 'mongodb',
          'db.namespace': event.databaseName,
          'db.operation.name': event.commandName,
          ...(collection ? { 'db.collection.name': collection } : {}),
          ...(host ? { 'server.address': host } : {}),
          ...(port ? { 'server.port': Number(port) } : {}),
        },
      },
      parent,
    );
    open.set(keyOf(event), span);
  };
  const succeeded = (event: CommandSucceededEvent) => {
    const span = open.get(keyOf(event));
    if (!span) return;
    open.delete(keyOf(event));
    span.end();
  };
  const failed = (event: CommandFailedEvent) => {
    const span = open.get(keyOf(event));
    if (!span) return;
    open.delete(keyOf(event));
    const failure = event.failure as Error & { codeName?: string; code?: number };
    span.setAttribute('error.type', failure.codeName ?? failure.name);
    if (typeof failure.code === 'number') span.setAttribute('db.response.status_code', String(failure.code));
    span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
    span.end();
  };
  client.on('commandStarted', started);
  client.on('commandSucceeded', succeeded);
  client.on('commandFailed', failed);
  return () => {
    client.off('commandStarted', started);
    client.off('commandSucceeded', succeeded);
    client.off('commandFailed', failed);
    for (const span of open.values()) span.end();
    open.clear();
  };
}
