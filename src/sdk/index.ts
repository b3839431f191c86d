export { createPreconditionClient, PreconditionRequestError } from './client.ts';
export type { GraphQLErrorPayload, PreconditionClient, PreconditionClientOptions } from './client.ts';
export * from './generated.ts';
