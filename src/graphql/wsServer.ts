// graphql-ws over `ws`, as graphql-ws's own `useServer` (use/ws) does it, with three changes for
// fan-out: a `next` whose payload is a SharedPayload is sent with that payload's JSON spliced in
// (serialized once for every subscriber of a selection, see subscriptionMultiplexer.ts); such
// frames are held for up to `frameFlushIntervalMs` and leave a socket in one write (profiles of
// `fanout-1000` showed a third of the API's CPU in one `writev` per frame); and a subscription
// does not wait for its frame to reach the kernel while the socket's buffer is under
// `socketBufferedMaxBytes`, beyond which it does wait, so a slow client still fills its own
// bounded queue and is told SLOW_SUBSCRIBER. Every other frame flushes its socket at once.
import { CloseCode, makeServer, handleProtocols, type ServerOptions } from 'graphql-ws';
import type { IncomingMessage } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';
import { SharedPayload } from './subscriptionMultiplexer.ts';

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
// What the replacer leaves in place of a SharedPayload: a string no client id can end a frame
// with, because the payload is the last member graphql-ws writes.
const PLACEHOLDER = '\u0000shared-payload';
const PLACEHOLDER_TAIL = `${JSON.stringify(PLACEHOLDER)}}`;

export interface WsFanoutLimits {
  frameFlushIntervalMs: number;
  socketBufferedMaxBytes: number;
}

export function serveGraphqlWs(
  options: ServerOptions<Record<string, unknown> | undefined, WsExtra>,
  wss: WebSocketServer,
  limits: WsFanoutLimits = { frameFlushIntervalMs: FRAME_FLUSH_INTERVAL_MS, socketBufferedMaxBytes: SOCKET_BUFFERED_MAX_BYTES },
): { dispose(): Promise<void> } {
  // stringifyMessage and send run back to back, synchronously: the replacer hands the payload
  // it replaced to the send that follows.
  let replaced: SharedPayload | null = null;
  const flusher = new FrameFlusher(limits.frameFlushIntervalMs);
  const server = makeServer<Record<string, unknown> | undefined, WsExtra>({
    ...options,
    jsonMessageReplacer(key, value) {
      if (key === 'payload' && value instanceof SharedPayload) {
        replaced = value;
        return PLACEHOLDER;
      }
      return value;
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
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send(data) {
          const payload = replaced;
          replaced = null;
          const shared = payload !== null && data.endsWith(PLACEHOLDER_TAIL);
          const frame = shared ? `${data.slice(0, -PLACEHOLDER_TAIL.length)}${payload.json}}` : data;
          if (socket.readyState !== socket.OPEN) return;
          if (!shared) {
            const sent = new Promise<void>((resolve, reject) => socket.send(frame, (error) => (error ? reject(error) : resolve())));
            if (stream) flusher.flush(stream);
            return sent;
          }
          if (stream) flusher.hold(stream);
          // A write error also closes the socket, which ends its subscriptions.
          if (socket.bufferedAmount < limits.socketBufferedMaxBytes) return void socket.send(frame);
          return new Promise<void>((resolve, reject) => socket.send(frame, (error) => (error ? reject(error) : resolve())));
        },
        close: (code, reason) => socket.close(code, reason),
        onMessage: (callback) =>
          socket.on('message', async (message) => {
            try {
              await callback(String(message));
            } catch {
              socket.close(CloseCode.InternalServerError, 'Internal server error');
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
  destroyed: boolean;
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
