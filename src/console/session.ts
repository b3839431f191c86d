// The console's one client of the API: the SDK's (@precondition/sdk), so the page sends only the
// SDK's generated operations (those of the trusted-documents manifest) and its live updates resume
// after the last event seen by the SDK's own logic, never by code of the page's.
import {
  createClient,
  type ConnectionEvent,
  type PreconditionClient,
  type Result,
  type SubscriptionMethods,
} from '@precondition/sdk';
import { showNotice, errorText } from './dom.ts';

export type Viewer = Result<'viewer'>;
export type Feed = keyof SubscriptionMethods;

/** A signed-in page: its client and what its key may do. */
export interface Session {
  readonly client: PreconditionClient;
  readonly viewer: Viewer;
  /** Whether this key may open that subscription (the server refuses the others anyway). */
  mayOpen(feed: Feed): boolean;
}

const GRAPHQL_PATH = '/graphql';

/**
 * A client for this page's origin. One attempt per query: the page polls every few seconds and
 * says when a refresh failed, so a retry would only hide the failure for longer.
 */
export function createPageClient(apiKey: string, onConnection: (event: ConnectionEvent) => void): PreconditionClient {
  return createClient({
    url: new URL(GRAPHQL_PATH, location.href).href,
    apiKey,
    fetch: (url, init) => fetch(url, init),
    retry: { maxAttempts: 1 },
    onConnection,
  });
}

export function sessionOf(client: PreconditionClient, viewer: Viewer): Session {
  return { client, viewer, mayOpen: (feed) => viewer.subscriptions.includes(feed) };
}

/**
 * Follows a live feed: each event to `onEvent`, until the returned stop is called. The SDK
 * resumes after a dropped socket and after a resync by itself, from the last cursor it yielded.
 * A stopped feed ends at its next event (an async generator's return waits for the pending read).
 */
export function follow<T>(events: AsyncGenerator<T, void, undefined>, onEvent: (event: T) => void): () => void {
  let stopped = false;
  void (async () => {
    try {
      for await (const event of events) {
        if (stopped) break;
        onEvent(event);
      }
      if (!stopped)
        showNotice('A live feed was ended by the server; reload the page to follow it again.', 'connection');
    } catch (error) {
      if (!stopped) showNotice(`Live updates stopped: ${errorText(error)}`, 'connection');
    }
  })();
  return () => {
    stopped = true;
    void events.return(undefined);
  };
}
