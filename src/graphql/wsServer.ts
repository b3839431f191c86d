// graphql-ws over `ws`, as graphql-ws's own `useServer` (use/ws) does it, with two changes for
// fan-out: a `next` whose payload is a SharedPayload is sent with that payload's JSON spliced in
// (serialized once for every subscriber of a selection, see subscriptionMultiplexer.ts), and the
// frames written to one socket within one tick leave in one write (the socket is corked until the
// next tick), so a burst of events costs a socket one syscall, not one per frame.
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
// What the replacer leaves in place of a SharedPayload: a string no client id can end a frame
// with, because the payload is the last member graphql-ws writes.
const PLACEHOLDER = '\u0000shared-payload';
const PLACEHOLDER_TAIL = `${JSON.stringify(PLACEHOLDER)}}`;

export function serveGraphqlWs(options: ServerOptions<Record<string, unknown> | undefined, WsExtra>, wss: WebSocketServer): { dispose(): Promise<void> } {
  // stringifyMessage and send run back to back, synchronously: the replacer hands the payload
  // it replaced to the send that follows.
  let replaced: SharedPayload | null = null;
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
    const corker = tickCorker(socket);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send(data) {
          const payload = replaced;
          replaced = null;
          const frame = payload && data.endsWith(PLACEHOLDER_TAIL) ? `${data.slice(0, -PLACEHOLDER_TAIL.length)}${payload.json}}` : data;
          if (socket.readyState !== socket.OPEN) return;
          corker();
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
      if (pongWait) clearTimeout(pongWait);
      clearInterval(pingInterval);
      void closed(code, String(reason));
    });
  });

  return {
    async dispose() {
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** Corks the socket's TCP stream on the first frame of a tick and uncorks it on the next tick. */
function tickCorker(socket: WebSocket): () => void {
  const stream = (socket as unknown as { _socket?: { cork(): void; uncork(): void; destroyed: boolean } })._socket;
  let corked = false;
  return () => {
    if (corked || !stream || stream.destroyed) return;
    corked = true;
    stream.cork();
    process.nextTick(() => {
      corked = false;
      stream.uncork();
    });
  };
}
