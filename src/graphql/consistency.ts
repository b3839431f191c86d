// Read-your-writes across API processes and replica-set members. A mutation's response carries a
// consistency token (`extensions.consistencyToken`): the cluster time this process had seen when
// the mutation finished, never earlier than the operation time of any of its writes. A query
// names it with the operation directive `@consistentAfter(token: "...")`; its reads then share
// one causally consistent session advanced to that time, so the driver sends
// `readConcern.afterClusterTime` and even a secondary answers only once it has applied the write.
// Generic on purpose: resolvers capture nothing themselves; a read passes `readOptions(ctx)`.
// Both transports apply it through the same two functions, `followConsistentAfter` before an
// operation runs and `endConsistency` after: HTTP in `consistencyPlugin`, graphql-ws in
// src/server/websocket.ts.
import {
  DirectiveLocation,
  GraphQLDirective,
  type GraphQLError,
  GraphQLNonNull,
  GraphQLString,
  Kind,
  type OperationDefinitionNode,
  type ValueNode,
} from 'graphql';
import { Timestamp, type ClientSession, type ClusterTime, type MongoClient } from 'mongodb';
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { appError, ErrorCode } from './errors.ts';
import type { ReadOptions } from '../db/readOptions.ts';
import { decodeCursor, encodeCursor } from '../lib/cursor.ts';

export const CONSISTENT_AFTER_DIRECTIVE = 'consistentAfter';

export const consistentAfterDirective = new GraphQLDirective({
  name: CONSISTENT_AFTER_DIRECTIVE,
  description:
    "Read at least what the mutation that returned `token` (its response's extensions.consistencyToken) wrote, on any member (afterClusterTime)",
  locations: [DirectiveLocation.QUERY],
  args: { token: { type: new GraphQLNonNull(GraphQLString) } },
});

const TOKEN_PREFIX = 'ct1:';

export function encodeConsistencyToken(time: Timestamp): string {
  return encodeCursor(`${TOKEN_PREFIX}${time.high}.${time.low}`);
}

/** The cluster time inside a token, or null when the string is not one of ours. */
export function decodeConsistencyToken(token: string): Timestamp | null {
  if (token.length > 64) return null;
  const match = /^ct1:(\d{1,10})\.(\d{1,10})$/.exec(decodeCursor(token));
  if (!match) return null;
  const [t, i] = [Number(match[1]), Number(match[2])];
  if (t > 0xffff_ffff || i > 0xffff_ffff) return null;
  return new Timestamp({ t, i });
}

/**
 * The highest cluster time this client has seen (the driver gossips `$clusterTime` from every
 * reply). It is the topology's own field; the driver exposes it on sessions only, so it is read
 * here, in one place. Null on a deployment without cluster times (a standalone).
 */
export function clientClusterTime(client: MongoClient): Timestamp | null {
  return clientClusterTimeDocument(client)?.clusterTime ?? null;
}

/** The `$clusterTime` document (time and signature) behind `clientClusterTime`, as a session gossips it. */
function clientClusterTimeDocument(client: MongoClient): ClusterTime | null {
  const topology = (client as unknown as { topology?: { clusterTime?: ClusterTime } }).topology;
  return topology?.clusterTime ?? null;
}

/** One request's consistency: the time its reads must follow, and the session that carries it. */
export class RequestConsistency {
  #after: Timestamp | null = null;
  #session: ClientSession | null = null;

  constructor(private readonly client: MongoClient) {}

  get after(): Timestamp | null {
    return this.#after;
  }

  /** The highest cluster time the app's client has seen (see clientClusterTime). */
  clusterTime(): Timestamp | null {
    return clientClusterTime(this.client);
  }

  /**
   * Whether the deployment has reached `time`. A token names a cluster time some member answered
   * with, so the deployment's clock is at or past it; when this process has not seen that time
   * yet (the token came from another API process), one `ping` brings the deployment's clock (its
   * reply gossips `$clusterTime`). A time still ahead after it is from no reply of this deployment:
   * mongod would refuse the read ("afterClusterTime value must not be greater than the current
   * clusterTime", read_concern_mongod.cpp), so it is refused here as the client's mistake.
   * True on a deployment without cluster times (a standalone), where there is nothing to follow.
   */
  async reached(time: Timestamp): Promise<boolean> {
    if (notBefore(this.clusterTime(), time)) return true;
    await this.client.db('admin').command({ ping: 1 });
    const now = this.clusterTime();
    return now === null || notBefore(now, time);
  }

  follow(time: Timestamp): void {
    this.#after = time;
  }

  /** The causally consistent session of this request's reads, if it asked for one. */
  session(): ClientSession | undefined {
    if (this.#after === null) return undefined;
    if (this.#session === null) {
      this.#session = this.client.startSession({ causalConsistency: true });
      this.#session.advanceOperationTime(this.#after);
      // Gossip the newest cluster time with every read of the session: a lagging secondary's own
      // clock may be behind the token, and mongod refuses an afterClusterTime ahead of the clock
      // it has after the command's $clusterTime is taken in (read_concern_mongod.cpp).
      const known = clientClusterTimeDocument(this.client);
      if (known !== null) this.#session.advanceClusterTime(known);
    }
    return this.#session;
  }

  async end(): Promise<void> {
    const session = this.#session;
    this.#session = null;
    await session?.endSession();
  }
}

function notBefore(known: Timestamp | null, time: Timestamp): boolean {
  return known !== null && (known.t > time.t || (known.t === time.t && known.i >= time.i));
}

/** What a read passes to the driver: the request's causal session, when it asked for one. */
export function readOptions(ctx: { consistency: RequestConsistency }): ReadOptions {
  const session = ctx.consistency.session();
  return session === undefined ? {} : { session };
}

function tokenArgument(operation: OperationDefinitionNode, variables: Record<string, unknown> | undefined): unknown {
  const directive = operation.directives?.find((node) => node.name.value === CONSISTENT_AFTER_DIRECTIVE);
  const value: ValueNode | undefined = directive?.arguments?.find((arg) => arg.name.value === 'token')?.value;
  if (value === undefined) return undefined;
  if (value.kind === Kind.STRING) return value.value;
  if (value.kind === Kind.VARIABLE) return variables?.[value.name.value];
  return null;
}

/**
 * Follows the operation's `@consistentAfter`, when it names one: both transports call this once the
 * operation is known and before it runs. The refusal, coded BAD_USER_INPUT with `extensions`
 * added (HTTP adds its status), when the token is not one of ours or names a time the deployment
 * has not reached; null otherwise.
 */
export async function followConsistentAfter(
  operation: OperationDefinitionNode | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  consistency: RequestConsistency,
  extensions: Record<string, unknown> = {},
): Promise<GraphQLError | null> {
  const token = operation ? tokenArgument(operation, variables ?? undefined) : undefined;
  if (token === undefined) return null;
  const time = typeof token === 'string' ? decodeConsistencyToken(token) : null;
  if (time === null)
    return appError(
      ErrorCode.BAD_USER_INPUT,
      'consistentAfter: token is not a consistency token of this API',
      extensions,
    );
  if (!(await consistency.reached(time))) {
    return appError(
      ErrorCode.BAD_USER_INPUT,
      'consistentAfter: token names a time the database has not reached; pass a token a mutation of this API returned',
      extensions,
    );
  }
  consistency.follow(time);
  return null;
}

/**
 * Ends the operation's causal session (both transports, once it has run) and returns the token its
 * result carries as `extensions.consistencyToken`: a mutation's, or none (a query's, or any on a
 * deployment without cluster times).
 */
export async function endConsistency(
  operationType: string | undefined,
  consistency: RequestConsistency,
): Promise<string | undefined> {
  await consistency.end();
  if (operationType !== 'mutation') return undefined;
  const time = consistency.clusterTime();
  return time === null ? undefined : encodeConsistencyToken(time);
}

// Stateless (a request's state is its context's), so one listener serves every request.
const consistencyListener: GraphQLRequestListener<{ consistency: RequestConsistency }> = {
  async didResolveOperation({ operation, request, contextValue }) {
    // A plugin's error is answered 500 unless it names its status: this one is the client's.
    const refusal = await followConsistentAfter(operation, request.variables, contextValue.consistency, {
      http: { status: 400 },
    });
    if (refusal) throw refusal;
  },
  async willSendResponse({ operation, response, contextValue }) {
    const token = await endConsistency(operation?.operation, contextValue.consistency);
    if (token === undefined || response.body.kind !== 'single') return;
    const result = response.body.singleResult;
    result.extensions = { ...result.extensions, consistencyToken: token };
  },
};

/** HTTP's side (graphql-ws's is src/server/websocket.ts): reads `@consistentAfter` before execution; stamps every mutation's response with its token. */
export function consistencyPlugin(): ApolloServerPlugin<{ consistency: RequestConsistency }> {
  return {
    async requestDidStart() {
      return consistencyListener;
    },
  };
}
