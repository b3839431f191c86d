// Fetches for the SDK tests: the real one, with chosen failures in front of it and every request
// body recorded, so a test sees exactly what each attempt sent.
import type { FetchLike } from '../../../packages/sdk/src/index.ts';

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A failure to answer instead of the server: a network error, or a status without GraphQL data (with an error of `code`, when given). */
export type Fault = { status: 'network' } | { status: number; retryAfter?: string; code?: string };

export function recordingFetch(faults: readonly Fault[], after?: (attempt: number) => Promise<void>) {
  const bodies: Array<{ query: string; variables: Record<string, unknown> }> = [];
  const fetch: FetchLike = async (url, init) => {
    bodies.push(JSON.parse(init.body) as (typeof bodies)[number]);
    const fault = faults[bodies.length - 1];
    if (fault?.status === 'network') throw new TypeError('fetch failed');
    if (fault) {
      const body = fault.code
        ? { errors: [{ message: `a ${fault.code} answer`, extensions: { code: fault.code } }], data: null }
        : {};
      return new Response(JSON.stringify(body), {
        status: fault.status,
        headers: fault.retryAfter ? { 'retry-after': fault.retryAfter } : {},
      });
    }
    const response = await globalThis.fetch(url, init);
    await after?.(bodies.length);
    return response;
  };
  return { fetch, bodies };
}
