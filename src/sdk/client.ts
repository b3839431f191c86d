// The thin, typed client over the generated documents (`npm run codegen`):
//   const api = createPreconditionClient({ url, apiKey });
//   const { health } = await api.request(HealthDocument);
// GraphQL errors (UNAUTHENTICATED, FORBIDDEN, BAD_USER_INPUT, ...) are thrown as a
// PreconditionRequestError; expected business outcomes arrive as union members in the data.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';

export interface PreconditionClientOptions {
  /** e.g. http://localhost:4000/graphql */
  url: string;
  apiKey: string;
  /** Per request; a request that takes longer is aborted. */
  timeoutMs?: number;
}

export interface GraphQLErrorPayload {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: { code?: string; [key: string]: unknown };
}

export class PreconditionRequestError extends Error {
  override name = 'PreconditionRequestError';
  constructor(
    readonly errors: readonly GraphQLErrorPayload[],
    readonly status: number,
  ) {
    super(errors.map((error) => `${error.extensions?.code ?? 'ERROR'}: ${error.message}`).join('; '));
  }

  /** The code of the first error, e.g. 'FORBIDDEN'. */
  get code(): string | undefined {
    return this.errors[0]?.extensions?.code;
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;

export function createPreconditionClient({ url, apiKey, timeoutMs = DEFAULT_TIMEOUT_MS }: PreconditionClientOptions) {
  return {
    async request<TResult, TVariables extends Record<string, unknown>>(
      document: TypedDocumentNode<TResult, TVariables>,
      ...[variables]: TVariables extends Record<string, never> ? [] | [TVariables] : [TVariables]
    ): Promise<TResult> {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ query: print(document), variables: variables ?? {} }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = (await response.json()) as { data?: TResult | null; errors?: GraphQLErrorPayload[] };
      if (body.errors?.length || !body.data) {
        throw new PreconditionRequestError(body.errors ?? [{ message: `HTTP ${response.status} without data` }], response.status);
      }
      return body.data;
    },
  };
}

export type PreconditionClient = ReturnType<typeof createPreconditionClient>;
