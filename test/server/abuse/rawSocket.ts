// A graphql-transport-ws connection spoken by hand over `ws`, for the abuse suite: it sends what a
// hostile client would (thousands of subscribe messages at once, malformed frames) and records
// every message and the close, so a test can wait on them.
import WebSocket from 'ws';

export interface RawMessage {
  id?: string;
  type: string;
  payload?: unknown;
}

export interface RawSocket {
  socket: WebSocket;
  /** Every message received, in order. */
  readonly messages: RawMessage[];
  /** Resolves with the close code and reason once the socket closed (either side). */
  readonly closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  /** Sends text as it is (not JSON-encoded). */
  sendText(text: string): void;
  close(): Promise<void>;
}

/** Opens a socket and completes connection_init with `token`; resolves on connection_ack. */
export async function openRawSocket(wsUrl: string, token: string): Promise<RawSocket> {
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
  const messages: RawMessage[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const acked = new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as RawMessage;
      messages.push(message);
      if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      if (message.type === 'connection_ack') resolve();
    });
    socket.once('close', (code) => reject(new Error(`socket closed (${code}) before connection_ack`)));
    socket.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  await acked;
  return {
    socket,
    messages,
    closed,
    send: (message) => socket.send(JSON.stringify(message)),
    sendText: (text) => socket.send(text),
    async close() {
      if (socket.readyState === WebSocket.CLOSED) return;
      socket.close(1000);
      await closed;
    },
  };
}
