// A TCP proxy between a client and the API whose connections a test can freeze (bytes stop
// flowing both ways, nothing is closed: a hung peer), refuse (new connections are cut at once:
// a server that is down) or hold (new connections are taken and never answered: a peer that went
// silent before the WebSocket handshake's answer), to see what a client does about each.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `http://127.0.0.1:<port>` plus the target URL's path. */
  url(targetUrl: string): string;
  /** Stops forwarding on every open connection without closing any; later ones forward. */
  freezeOpen(): void;
  /** Cuts every open connection (both sides see it closed). */
  dropOpen(): void;
  /** While true, each new connection is destroyed as soon as it arrives. */
  refusing: boolean;
  /** While true, each new connection is accepted and left unanswered, open until the client closes it. */
  holding: boolean;
  readonly accepted: number;
  readonly refused: number;
  readonly held: number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const open = new Set<{ client: Socket; upstream: Socket }>();
  let accepted = 0;
  let refused = 0;
  let held = 0;
  const proxy: TcpProxy = {
    url: (targetUrl) => {
      const url = new URL(targetUrl);
      url.port = String((server.address() as { port: number }).port);
      return url.toString();
    },
    freezeOpen() {
      for (const pair of open) {
        pair.client.unpipe(pair.upstream);
        pair.upstream.unpipe(pair.client);
        pair.client.pause();
        pair.upstream.pause();
      }
      open.clear();
    },
    dropOpen() {
      for (const pair of open) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      open.clear();
    },
    refusing: false,
    holding: false,
    get accepted() {
      return accepted;
    },
    get refused() {
      return refused;
    },
    get held() {
      return held;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (proxy.refusing) {
      refused++;
      client.destroy();
      return;
    }
    if (proxy.holding) {
      held++;
      client.pause();
      client.on('error', () => client.destroy());
      return;
    }
    accepted++;
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    const pair = { client, upstream };
    open.add(pair);
    const end = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return proxy;
}
