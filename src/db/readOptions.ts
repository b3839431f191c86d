import type { ClientSession } from 'mongodb';

/** How a read runs: every feature's read takes these, and the GraphQL layer builds them per request (`readOptions(ctx)`, src/graphql/consistency.ts). */
export interface ReadOptions {
  /** A causally consistent session: reads see at least what it has seen (read-your-writes, `@consistentAfter`). */
  session?: ClientSession | undefined;
}
