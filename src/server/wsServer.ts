// graphql-ws over `ws`, as graphql-ws's own `useServer` (use/ws) does it, with three changes for
// fan-out. A multiplexed subscription (subscriptionMultiplexer.ts) is driven here rather than by
// graphql-ws's per-event path: each event's payload bytes (serialized once per selection, shared
// by every subscriber whatever its operation id) are written to the socket inside a WebSocket frame
// built here, after the subscription's own `{"id":…,"type":"next","payload":` prefix (built once
// per subscription), with no per-subscriber JSON, graphql-ws message object or `ws` send (profiles
// of `fanout-1000` showed those as most of the API's per-delivery CPU); errors, `complete` and every
// other message still go through graphql-ws. A socket's subscription frames are held for up to
// `frameFlushIntervalMs` as (prefix, payload) pairs and leave it as one Buffer in one write (a
// third of the CPU was one `writev` per frame; then the streams' per-chunk bookkeeping); anything
// else sent on the socket writes the held frames first, so order on the socket is kept. And a
// subscription does not wait for its frame to reach the kernel while the socket holds, unsent and
// held, under `socketBufferedMaxBytes`, beyond which it does wait, so a slow client still fills its
// own bounded queue and is told SLOW_SUBSCRIBER.
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
  limits: WsFanoutLimits = {
    frameFlushIntervalMs: FRAME_FLUSH_INTERVAL_MS,
    socketBufferedMaxBytes: SOCKET_BUFFERED_MAX_BYTES,
  },
): { dispose(): Promise<void> } {
  const flusher = new FrameFlusher(limits.frameFlushIntervalMs);
  // The sockets whose subscription frames this module may write itself (see frameSinkOf).
  const sinks = new WeakMap<WebSocket, HeldFrames>();
  const server = makeServer<Record<string, unknown> | undefined, WsExtra>({
    ...options,
    async onOperation(ctx, id, payload, args, result) {
      const replaced = await options.onOperation?.(ctx, id, payload, args, result);
      const operation = replaced ?? result;
      const sink = sinks.get(ctx.extra.socket);
      if (!(operation instanceof MultiplexedStream) || !sink) return replaced;
      return new DirectDelivery(operation, nextFramePrefix(id), sink);
    },
  });
  wss.options.handleProtocols = handleProtocols;
  // As graphql-ws's own adapter: a failing server closes every client rather than crash the process.
  wss.once('error', () => {
    for (const client of wss.clients) client.close(CloseCode.InternalServerError, 'Internal server error');
  });

  wss.on('connection', (socket, request): void => {
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
    // The TCP socket this connection's frames travel on: node:http passes the 'upgrade' listener
    // the request's own socket (`request.socket`), and `ws` wraps that very socket (its
    // handleUpgrade hands it to completeUpgrade, which gives it to the WebSocket's setSocket).
    const sink = frameSinkOf(socket, request.socket, flusher, limits.socketBufferedMaxBytes);
    if (sink) sinks.set(socket, sink);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send(data) {
          if (socket.readyState !== socket.OPEN) return;
          // The frames held for this socket go first: a `complete` never overtakes its `next`s.
          if (sink) flusher.flush(sink);
          return new Promise<void>((resolve, reject) =>
            socket.send(data, (error) => (error ? reject(error) : resolve())),
          );
        },
        close: (code, reason) => {
          if (sink) flusher.flush(sink);
          socket.close(code, reason);
        },
        onMessage: (callback) =>
          socket.on('message', async (message) => {
            try {
              await callback(String(message));
            } catch (error) {
              // graphql-ws throws on a well-formed message a client may not send (`next`,
              // `error`, `connection_ack`): the client's mistake, which the protocol answers with
              // 4400 like any invalid message; anything else is a fault of this server.
              if (error instanceof Error && UNEXPECTED_MESSAGE.test(error.message))
                socket.close(CloseCode.BadRequest, 'Invalid message received');
              else socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      { socket, request },
    );
    socket.once('close', (code, reason) => {
      if (sink) flusher.forget(sink);
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
  write(chunk: Buffer, callback?: (error?: Error | null) => void): boolean;
  destroyed: boolean;
}

/**
 * One socket's subscription frames not yet written: each a (prefix, payload) pair, so that no
 * frame is built per subscriber; `flush` writes them all as one Buffer.
 */
interface HeldFrames {
  /** Holds one frame; a promise when the caller must wait for it to reach the kernel (backpressure). */
  write(prefix: Buffer, payload: Buffer): Promise<void> | undefined;
  /** Writes what is held as one Buffer (nothing when the socket is no longer open). */
  flush(): void;
  readonly held: boolean;
}

/**
 * Frames may go straight to the TCP socket only when `ws` would send them as they are: no
 * permessage-deflate negotiated (the app's server offers none), so `ws`'s sender never queues and
 * writes what it is given in call order. Whatever `ws` writes for this server's own calls (graphql-ws
 * messages, close) comes after the held frames are flushed (see `send` and `close` above); pings and
 * pongs are control frames, which RFC 6455 §5.5 lets go between any two messages.
 */
function frameSinkOf(
  socket: WebSocket,
  stream: RawStream,
  flusher: FrameFlusher,
  bufferedMaxBytes: number,
): HeldFrames | null {
  if (socket.extensions !== '') return null;
  const prefixes: Buffer[] = [];
  const payloads: Buffer[] = [];
  let heldBytes = 0;
  const take = (): Buffer | null => {
    if (prefixes.length === 0) return null;
    const bytes = Buffer.allocUnsafe(heldBytes);
    let offset = 0;
    for (let i = 0; i < prefixes.length; i++) offset = writeNextFrame(bytes, offset, prefixes[i]!, payloads[i]!);
    prefixes.length = 0;
    payloads.length = 0;
    heldBytes = 0;
    return bytes;
  };
  const open = () => socket.readyState === socket.OPEN && !stream.destroyed;
  const sink: HeldFrames = {
    get held() {
      return prefixes.length > 0;
    },
    write(prefix, payload) {
      if (!open()) return undefined;
      prefixes.push(prefix);
      payloads.push(payload);
      heldBytes += nextFrameLength(prefix, payload);
      // Under the bound the frame waits for the flush; past it, what is held goes now and the
      // subscription waits until the kernel took it. A write error also closes the socket (ws
      // listens on it), which ends its subscriptions.
      if (socket.bufferedAmount + heldBytes < bufferedMaxBytes) return void flusher.hold(sink);
      flusher.forget(sink);
      const bytes = take()!;
      return new Promise<void>((resolve, reject) =>
        stream.write(bytes, (error) => (error ? reject(error) : resolve())),
      );
    },
    flush() {
      const bytes = take();
      if (bytes && open()) stream.write(bytes);
    },
  };
  return sink;
}

/** What precedes the payload in a `next` message for subscription `id`, as graphql-ws writes it. */
export function nextFramePrefix(id: string): Buffer {
  return Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`);
}

/** Bytes of the `next` frame of `prefix` and `payload` (see writeNextFrame). */
export function nextFrameLength(prefix: Buffer, payload: Buffer): number {
  const length = prefix.length + payload.length + 1;
  return (length < 126 ? 2 : length < 0x1_00_00 ? 4 : 10) + length;
}

/**
 * Writes at `offset` of `target` a server-to-client WebSocket text frame (RFC 6455 §5.2: FIN,
 * opcode 1, unmasked) whose data is `prefix`, `payload` and the closing `}`; returns the offset
 * after it.
 */
export function writeNextFrame(target: Buffer, offset: number, prefix: Buffer, payload: Buffer): number {
  const length = prefix.length + payload.length + 1;
  target[offset] = 0x81;
  if (length < 126) {
    target[offset + 1] = length;
    offset += 2;
  } else if (length < 0x1_00_00) {
    target[offset + 1] = 126;
    target.writeUInt16BE(length, offset + 2);
    offset += 4;
  } else {
    target[offset + 1] = 127;
    target.writeUInt32BE(Math.floor(length / 0x1_00_00_00_00), offset + 2);
    target.writeUInt32BE(length % 0x1_00_00_00_00, offset + 6);
    offset += 10;
  }
  offset += prefix.copy(target, offset);
  offset += payload.copy(target, offset);
  target[offset] = 0x7d;
  return offset + 1;
}

/** The `next` frame of `prefix` and `payload` in a Buffer of its own. */
export function nextFrame(prefix: Buffer, payload: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(nextFrameLength(prefix, payload));
  writeNextFrame(frame, 0, prefix, payload);
  return frame;
}

/**
 * A source that can hand over its next item without a promise (src/fanout/SubscriberQueue.ts);
 * any other async iterator is adapted to it (one promise per item, as before).
 */
interface WaitableSource {
  nextOrWait(
    onNext: (step: IteratorResult<unknown>) => void,
    onError: (error: unknown) => void,
  ): IteratorResult<unknown> | undefined;
}

function waitable(source: AsyncIterator<unknown>): WaitableSource {
  const own = source as Partial<WaitableSource>;
  if (typeof own.nextOrWait === 'function') return own as WaitableSource;
  return {
    nextOrWait(onNext, onError) {
      source.next().then(onNext, onError);
      return undefined;
    },
  };
}

/**
 * What graphql-ws iterates in place of a multiplexed subscription: a `next()` writes the frames
 * of every event without errors itself and resolves only with a result that has errors (which
 * graphql-ws formats through `onNext` and sends), or when the source ends or fails (graphql-ws
 * then sends `complete` or `error`, after the frames already written). Between those, items are
 * taken from the source as they come, synchronously when the source allows it (no promise or
 * microtask per delivery), one at a time and in order; the next item is taken only once the
 * previous one's execution has settled and its frame is held or, past the socket's bound,
 * written (backpressure: meanwhile the source's bounded queue fills). Once graphql-ws has called
 * `return()` (the client sent `complete`, or the socket closed) nothing more is written, even for
 * an event whose execution was under way.
 */
class DirectDelivery implements AsyncIterableIterator<ExecutionResult> {
  #ended = false;
  readonly #source: WaitableSource;
  /** The pending `next()`'s settlement, while graphql-ws waits on it. */
  #settle: { resolve(step: IteratorResult<ExecutionResult>): void; reject(error: unknown): void } | null = null;
  // Bound once: the source calls these per item.
  readonly #onStep = (step: IteratorResult<unknown>): void => {
    // Called from the feed's push: a failure here is this subscription's, never the feed's.
    try {
      if (this.#take(step)) this.#pump();
    } catch (error) {
      this.#fail(error);
    }
  };
  readonly #onError = (error: unknown): void => this.#fail(error);
  readonly #onWritten = (): void => this.#pump();

  constructor(
    private readonly stream: MultiplexedStream,
    /** This subscription's `{"id":…,"type":"next","payload":`, built once. */
    private readonly prefix: Buffer,
    private readonly sink: HeldFrames,
  ) {
    this.#source = waitable(stream.source);
  }

  next(): Promise<IteratorResult<ExecutionResult>> {
    return new Promise((resolve, reject) => {
      this.#settle = { resolve, reject };
      this.#pump();
    });
  }

  /** Takes the items at hand, then waits for the next one (or settles `next()`). */
  #pump(): void {
    while (this.#settle) {
      if (this.#ended) return this.#done();
      let step;
      try {
        step = this.#source.nextOrWait(this.#onStep, this.#onError);
      } catch (error) {
        return this.#fail(error);
      }
      if (step === undefined) return;
      try {
        if (!this.#take(step)) return;
      } catch (error) {
        return this.#fail(error);
      }
    }
  }

  /** One item of the source; true when the next one may be taken at once. */
  #take(step: IteratorResult<unknown>): boolean {
    if (step.done || this.#ended) {
      this.#done();
      return false;
    }
    let result;
    try {
      result = this.stream.resultOf(step.value);
    } catch (error) {
      this.#failAfterReturn(error);
      return false;
    }
    if (!isPromise(result)) return this.#deliver(result);
    result.then(
      (settled) => {
        if (this.#deliver(settled)) this.#pump();
      },
      (error: unknown) => this.#failAfterReturn(error),
    );
    return false;
  }

  #deliver(result: ExecutionResult): boolean {
    if (this.#ended) {
      this.#done();
      return false;
    }
    const payload = this.stream.payloadOf(result);
    if (!payload) {
      this.#resolve({ value: result, done: false });
      return false;
    }
    const written = this.sink.write(this.prefix, payload.bytes);
    if (!written) return true;
    written.then(this.#onWritten, this.#onError);
    return false;
  }

  #done(): void {
    this.#resolve({ value: undefined, done: true });
  }

  #resolve(step: IteratorResult<ExecutionResult>): void {
    const settle = this.#settle;
    this.#settle = null;
    settle?.resolve(step);
  }

  #fail(error: unknown): void {
    const settle = this.#settle;
    this.#settle = null;
    settle?.reject(error);
  }

  // An execution that failed ends the source first, as graphql-js's own mapping does.
  #failAfterReturn(error: unknown): void {
    void Promise.resolve(this.stream.source.return?.()).then(
      () => this.#fail(error),
      () => this.#fail(error),
    );
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

/** Holds sockets' frames until one shared timer (or anything else sent on the socket) flushes them. */
class FrameFlusher {
  readonly #held = new Set<HeldFrames>();
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly intervalMs: number) {}

  hold(frames: HeldFrames): void {
    if (this.#held.has(frames)) return;
    this.#held.add(frames);
    this.#timer ??= setTimeout(() => this.flushAll(), this.intervalMs);
  }

  flush(frames: HeldFrames): void {
    this.#held.delete(frames);
    if (frames.held) frames.flush();
  }

  forget(frames: HeldFrames): void {
    this.#held.delete(frames);
  }

  flushAll(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const held = [...this.#held];
    this.#held.clear();
    for (const frames of held) frames.flush();
  }
}
