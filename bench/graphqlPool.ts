// The load generator's HTTP side: one undici Pool to the API over loopback, one connection per
// concurrent caller, keep-alive, no pipelining (a GraphQL client waits for each answer). Bodies
// vary per request, which is why this is a pool and a loop rather than a fixed-request blaster.
import { Pool } from 'undici';

/** Nothing the bench sends should take this long; a request that does is counted as an error. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface GraphqlAnswer<TData = Record<string, any>> {
  status: number;
  data: TData | null;
  errors: Array<{ message: string; extensions?: { code?: string } }>;
}

export interface GraphqlPool {
  post<TData = Record<string, any>>(
    token: string,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<GraphqlAnswer<TData>>;
  close(): Promise<void>;
}

export function createGraphqlPool(url: string, connectionsMax: number): GraphqlPool {
  const { origin, pathname } = new URL(url);
  const pool = new Pool(origin, {
    connections: connectionsMax,
    pipelining: 1,
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS,
  });
  return {
    async post(token, query, variables) {
      const response = await pool.request({
        path: pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.body.json()) as { data?: any; errors?: GraphqlAnswer['errors'] };
      return { status: response.statusCode, data: body.data ?? null, errors: body.errors ?? [] };
    },
    close: () => pool.close(),
  };
}
