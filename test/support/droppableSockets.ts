// The page's WebSockets to /graphql pass through the test (playwright's routeWebSocket), which can
// drop them as a network failure would and keep new ones from reaching the server until it
// resumes: a dropped connection tested from outside the page, with no hook in the page itself.
import type { Page, WebSocketRoute } from 'playwright-core';

/** A close code outside graphql-ws's 44xx refusals: the client reconnects after it. */
const DROPPED_CLOSE_CODE = 4000;

export interface DroppableSockets {
  /** Closes every open socket on both sides; with `hold`, new ones hang unanswered until `resume()`. */
  drop(options?: { hold?: boolean }): void;
  /** Lets sockets through again: a socket held meanwhile is closed, so the page opens a fresh one. */
  resume(): void;
}

/** Call before the page opens its sockets (before signing in). */
export async function droppableSockets(page: Page): Promise<DroppableSockets> {
  const open = new Set<{ page: WebSocketRoute; server: WebSocketRoute }>();
  const held = new Set<WebSocketRoute>();
  let holding = false;
  await page.routeWebSocket(/\/graphql$/, (socket) => {
    if (holding) return void held.add(socket);
    const pair = { page: socket, server: socket.connectToServer() };
    open.add(pair);
    socket.onClose(() => {
      open.delete(pair);
      pair.server.close();
    });
    pair.server.onClose(() => {
      open.delete(pair);
      socket.close();
    });
  });
  return {
    drop({ hold = false } = {}) {
      holding = hold;
      for (const pair of [...open]) {
        open.delete(pair);
        void pair.server.close();
        void pair.page.close({ code: DROPPED_CLOSE_CODE, reason: 'dropped' });
      }
    },
    resume() {
      holding = false;
      for (const socket of [...held]) void socket.close({ code: DROPPED_CLOSE_CODE, reason: 'dropped' });
      held.clear();
    },
  };
}
