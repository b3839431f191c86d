// graphql-ws over `ws`, as graphql-ws's own `useServer` (use/ws) does it, with three changes for
// fan-out. A multiplexed subscription (subscriptionMultiplexer.ts) is driven here rather than by
// graphql-ws's per-event path: each event's shared payload bytes are written to the socket inside
// a WebSocket frame built here, after the subscription's own `{"id":…,"type":"next","payload":`
// prefix (built once), with no per-subscriber JSON, graphql-ws message object or `ws` send
// (profiles of `fanout-1000` showed those as most of the API's per-delivery CPU); errors, `complete`
// and every other message still go through graphql-ws. Subscription frames are held for up to
// `frameFlushIntervalMs` and leave a socket in one write (a third of the CPU was one `writev` per
// frame). And a subscription does not wait for its frame to reach the kernel while the socket's
// buffer is under `socketBufferedMaxBytes`, beyond which it does wait, so a slow client still fills
// its own bounded queue and is told SLOW_SUBSCRIBER. Every other frame flushes its socket at once.
import { CloseCode, makeServer, handleProtocols, type ServerOptions } from 'graphql-ws';
import type { ExecutionResult } from 'graphql';
import type { IncomingMessage } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';
import { isPromise, MultiplexedStream } from './subscriptionMultiplexer.ts';

export interface WsExtra {
  socket: WebSocket;
  request: IncomingMessage;
}

/** How often a silent socket is pinged; one that does not pong within as long is terminated. */
const KEEP_ALIVE_MS = 12_000;
/** Longest a subscription frame waits to share a write with the next ones (delivery p99 target: 100 ms). */
const FRAME_FLUSH_INTERVAL_MS = 5;
/** Bytes a socket may hold unsent before a subscription waits for its writes (per connection). */
const SOCKET_BUFFERED_MAX_BYTES = 64 * 1024;

/** graphql-ws's words for a message type the server does not take (its server's `default:` case). */
const UNEXPECTED_MESSAGE = /^Unexpected message of type \S+ received$/;

export interface WsFanoutLimits {
  frameFlushIntervalMs: number;
  socketBufferedMaxBytes: number;
}

export function serveGraphqlWs(
  options: ServerOptions<Record<string, unknown> | undefined, WsExtra>,
  wss: WebSocketServer,
  limits: WsFanoutLimits = { frameFlushIntervalMs: FRAME_FLUSH_INTERVAL_MS, socketBufferedMaxBytes: SOCKET_BUFFERED_MAX_BYTES },
): { dispose(): Promise<void> } {
  const flusher = new FrameFlusher(limits.frameFlushIntervalMs);
  // The sockets whose subscription frames this module may write itself (see frameSinkOf).
  const sinks = new WeakMap<WebSocket, FrameSink>();
  const server = makeServer<Record<string, unknown> | undefined, WsExtra>({
    ...options,
    async onOperation(ctx, id, payload, args, result) {
      const replaced = await options.onOperation?.(ctx, id, payload, args, result);
      const operation = replaced ?? result;
      const sink = sinks.get(ctx.extra.socket);
      if (!(operation instanceof MultiplexedStream) || !sink) return replaced;
      return new DirectDelivery(operation, nextFramePrefix(id), id, sink);
    },
  });
  wss.options.handleProtocols = handleProtocols;
  // As graphql-ws's own adapter: a failing server closes every client rather than crash the process.
  wss.once('error', () => {
    for (const client of wss.clients) client.close(CloseCode.InternalServerError, 'Internal server error');
  });

  wss.on('connection', (socket, request) => {
    socket.once('error', () => socket.close(CloseCode.InternalServerError, 'Internal server error'));
    let pongWait: NodeJS.Timeout | null = null;
    const pingInterval = setInterval(() => {
      if (socket.readyState !== socket.OPEN) return;
      pongWait = setTimeout(() => socket.terminate(), KEEP_ALIVE_MS);
      socket.once('pong', () => {
        if (pongWait) clearTimeout(pongWait);
        pongWait = null;
      });
      socket.ping();
    }, KEEP_ALIVE_MS);
    const stream = rawStream(socket);
    const sink = stream ? frameSinkOf(socket, stream, flusher, limits.socketBufferedMaxBytes) : null;
    if (sink) sinks.set(socket, sink);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send(data) {
          if (socket.readyState !== socket.OPEN) return;
          const sent = new Promise<void>((resolve, reject) => socket.send(data, (error) => (error ? reject(error) : resolve())));
          if (stream) flusher.flush(stream);
          return sent;
        },
        close: (code, reason) => socket.close(code, reason),
        onMessage: (callback) =>
          socket.on('message', async (message) => {
            try {
              await callback(String(message));
            } catch (error) {
              // graphql-ws throws on a well-formed message a client may not send (`next`,
              // `error`, `connection_ack`): the client's mistake, which the protocol answers with
              // 4400 like any invalid message; anything else is a fault of this server.
              if (error instanceof Error && UNEXPECTED_MESSAGE.test(error.message)) socket.close(CloseCode.BadRequest, 'Invalid message received');
              else socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      { socket, request },
    );
    socket.once('close', (code, reason) => {
      if (stream) flusher.forget(stream);
      if (pongWait) clearTimeout(pongWait);
      clearInterval(pingInterval);
      void closed(code, String(reason));
    });
  });

  return {
    async dispose() {
      flusher.flushAll();
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

interface RawStream {
  cork(): void;
  uncork(): void;
  write(chunk: Buffer, callback?: (error?: Error | null) => void): boolean;
  destroyed: boolean;
}

/** Writes one subscription frame; a promise when the caller must wait for it (backpressure). */
interface FrameSink {
  write(frame: Buffer): Promise<void> | undefined;
}

/**
 * Frames may go straight to the TCP socket only when `ws` would send them as they are: no
 * permessage-deflate negotiated (the app's server offers none), so `ws`'s sender never queues and
 * writes what it is given in call order; both paths then share the socket's own write queue, and
 * a subscription's frames stay in order with its `complete`/`error` and with pings.
 */
function frameSinkOf(socket: WebSocket, stream: RawStream, flusher: FrameFlusher, bufferedMaxBytes: number): FrameSink | null {
  if (socket.extensions !== '') return null;
  return {
    write(frame) {
      if (socket.readyState !== socket.OPEN || stream.destroyed) return undefined;
      flusher.hold(stream);
      // A write error also closes the socket (ws listens on it), which ends its subscriptions.
      if (socket.bufferedAmount < bufferedMaxBytes) return void stream.write(frame);
      return new Promise<void>((resolve, reject) => stream.write(frame, (error) => (error ? reject(error) : resolve())));
    },
  };
}

/** What precedes the payload in a `next` message for subscription `id`, as graphql-ws writes it. */
export function nextFramePrefix(id: string): Buffer {
  return Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`);
}

/**
 * A server-to-client WebSocket text frame (RFC 6455 §5.2: FIN, opcode 1, unmasked) whose data is
 * `prefix`, `payload` and the closing `}`, in one Buffer so that it costs one stream write.
 */
export function nextFrame(prefix: Buffer, payload: Buffer): Buffer {
  const length = prefix.length + payload.length + 1;
  const headerLength = length < 126 ? 2 : length < 0x1_00_00 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81;
  if (headerLength === 2) {
    frame[1] = length;
  } else if (headerLength === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 0x1_00_00_00_00), 2);
    frame.writeUInt32BE(length % 0x1_00_00_00_00, 6);
  }
  prefix.copy(frame, headerLength);
  payload.copy(frame, headerLength + prefix.length);
  frame[frame.length - 1] = 0x7d;
  return frame;
}

/**
 * What graphql-ws iterates in place of a multiplexed subscription: each `next()` writes the frames
 * of every event without errors itself and resolves only with a result that has errors (which
 * graphql-ws formats through `onNext` and sends), or when the source ends or fails (graphql-ws
 * then sends `complete` or `error`, after the frames already written). Once graphql-ws has
 * called `return()` (the client sent `complete`, or the socket closed) nothing more is written,
 * even for an event whose execution was under way.
 */
class DirectDelivery implements AsyncIterableIterator<ExecutionResult> {
  #ended = false;
  readonly #build: (payload: Buffer) => Buffer;

  constructor(
    private readonly stream: MultiplexedStream,
    prefix: Buffer,
    private readonly id: string,
    private readonly sink: FrameSink,
  ) {
    this.#build = (payload) => nextFrame(prefix, payload);
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    const { source } = this.stream;
    while (!this.#ended) {
      const step = await source.next();
      if (step.done || this.#ended) break;
      let result;
      try {
        result = this.stream.resultOf(step.value);
        if (isPromise(result)) result = await result;
      } catch (error) {
        await source.return?.();
        throw error;
      }
      if (this.#ended) break;
      const payload = this.stream.payloadOf(result);
      if (!payload) return { value: result, done: false };
      const written = this.sink.write(payload.frameFor(this.id, this.#build));
      if (written) await written;
    }
    return { value: undefined, done: true };
  }

  return(): Promise<IteratorResult<ExecutionResult>> {
    this.#ended = true;
    return this.stream.return();
  }

  throw(error?: unknown): Promise<IteratorResult<ExecutionResult>> {
    this.#ended = true;
    return this.stream.throw(error);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

function rawStream(socket: WebSocket): RawStream | null {
  return (socket as unknown as { _socket?: RawStream })._socket ?? null;
}

/** Holds sockets corked until one shared timer (or a non-subscription frame) flushes them. */
class FrameFlusher {
  readonly #held = new Set<RawStream>();
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly intervalMs: number) {}

  hold(stream: RawStream): void {
    if (this.#held.has(stream) || stream.destroyed) return;
    stream.cork();
    this.#held.add(stream);
    this.#timer ??= setTimeout(() => this.flushAll(), this.intervalMs);
  }

  flush(stream: RawStream): void {
    if (!this.#held.delete(stream)) return;
    stream.uncork();
  }

  forget(stream: RawStream): void {
    this.#held.delete(stream);
  }

  flushAll(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const held = [...this.#held];
    this.#held.clear();
    for (const stream of held) if (!stream.destroyed) stream.uncork();
  }
}
