export { createClient } from './client.js';
export type { ClientOptions, FetchLike, FetchResponseLike, PreconditionClient } from './client.js';
export { match } from './match.js';
export { createWorker } from './worker.js';
export type {
  CloseOptions,
  HandlerContext,
  Worker,
  WorkerEvents,
  WorkerOptions,
  WorkItem as WorkerItem,
} from './worker.js';
export type { MatchHandlers, Typenamed, UnknownMember } from './match.js';
export { PreconditionError, SdkErrorCode } from './PreconditionError.js';
export type { GraphQLErrorPayload, PreconditionErrorDetails } from './PreconditionError.js';
export { DEFAULT_RETRY, DEFAULT_SUBSCRIPTION_RETRY } from './retry.js';
export type { RetryOptions } from './retry.js';
export { DEFAULT_KEEP_ALIVE } from './subscribe.js';
export type { ConnectionEvent, KeepAliveOptions, WebSocketOptions } from './subscribe.js';
export type {
  Event,
  MutationMethods,
  QueryMethods,
  RequestMeta,
  Result,
  SubscriptionMethods,
  WithMeta,
} from './types.js';
export * from './generated/graphql.js';
export { mutations, queries, subscriptions } from './generated/operations.js';
