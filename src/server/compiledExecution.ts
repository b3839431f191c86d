// Execution of an operation over HTTP, once Apollo has parsed, validated and admitted it: a trusted
// document (one of the SDK's, listed in the trusted-documents manifest) runs through a plan that
// graphql-jit compiled from it once; any other document runs through graphql-js, as Apollo would
// run it itself. The SDK's few dozen documents are nearly all the traffic, and a compiled plan
// skips what graphql-js redoes per request (collecting fields, looking up resolvers and types,
// building each field's info); an ad-hoc document would be compiled for one use, which costs more
// than it saves. Apollo Server takes a custom executor only through its gateway interface, so this
// is a gateway that serves the app's own schema. graphql-ws keeps graphql-js (websocket.ts):
// its operations are subscriptions, executed once per event against a small selection.
// test/server/compiledExecution.test.ts runs every trusted document through both executors and
// requires the same answers, errors included.
import {
  execute,
  getVariableValues,
  GraphQLError,
  printSchema,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';

type Gateway = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>;
/** What Apollo hands an executor: the parsed, validated document and the request it came with. */
export type ExecutorRequest = Parameters<GatewayExecutor>[0];

/** graphql-js's own bound on the variable coercion errors of one operation (execute's default). */
const COERCION_ERRORS_MAX = 50;

/**
 * graphql-jit's errors as graphql-js's. Its GraphQLError leaves `extensions` undefined when what a
 * resolver threw has none (a driver's error), where graphql-js's is `{}`; Apollo reads
 * `extensions.code` of every error before the app's formatError sees it, so such an error threw in
 * Apollo's formatting and was answered as a bare "Internal server error", its original error (a
 * failover's: UNAVAILABLE, src/server/unavailable.ts) never looked at. Each such error is made
 * again by graphql-js, with the same message, locations, path and original error.
 */
function withGraphqlJsErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.some((error) => error.extensions === undefined)) return result;
  const errors = result.errors.map((error) => {
    if (error.extensions !== undefined) return error;
    const rebuilt = new GraphQLError(error.message, {
      ...(error.path ? { path: error.path } : {}),
      ...(error.originalError ? { originalError: error.originalError } : {}),
    });
    // graphql-js computes locations from AST nodes, which graphql-jit keeps only as locations.
    (rebuilt as { locations: GraphQLError['locations'] }).locations = error.locations;
    return rebuilt;
  });
  return { ...result, errors };
}

export class CompiledExecution {
  readonly #schema: GraphQLSchema;
  readonly #trustedHashes: ReadonlySet<string>;
  // By document hash and operation name. Bounded by the manifest: only a listed hash gets a plan,
  // and Apollo refuses an operation name that the document does not define before it executes.
  // Null: graphql-jit could not compile the document, so graphql-js runs it.
  readonly #plans = new Map<string, CompiledQuery | null>();

  /** `trustedHashes`: the manifest's SHA-256 hashes, the form Apollo's `queryHash` takes. */
  constructor(schema: GraphQLSchema, trustedHashes: ReadonlySet<string>) {
    this.#schema = schema;
    this.#trustedHashes = trustedHashes;
  }

  /** How many documents have a compiled plan so far (each compiled on its first request). */
  get compiledCount(): number {
    let count = 0;
    for (const plan of this.#plans.values()) if (plan !== null) count++;
    return count;
  }

  /** Apollo's gateway interface, serving this schema with this executor. */
  gateway(): Gateway {
    const schema = this.#schema;
    return {
      onSchemaLoadOrUpdate(callback) {
        callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
        return () => undefined;
      },
      load: async () => ({ executor: (request) => this.execute(request) }),
      stop: async () => undefined,
    };
  }

  async execute(request: ExecutorRequest): Promise<ExecutionResult> {
    const operationName = request.request.operationName;
    const variables = request.request.variables;
    const plan = this.#trustedHashes.has(request.queryHash)
      ? this.#planFor(request.queryHash, request.document, operationName)
      : null;
    if (plan !== null) {
      // graphql-jit coerces variables itself, with messages of its own and errors that point at no
      // variable definition (so Apollo would answer 500, not 400 BAD_USER_INPUT). graphql-js's
      // coercion runs first, as its execute() would run it: its errors are answered as they are,
      // and the plan runs only with variables graphql-js accepts.
      const coerced = getVariableValues(this.#schema, request.operation.variableDefinitions ?? [], variables ?? {}, {
        maxErrors: COERCION_ERRORS_MAX,
      });
      if (coerced.errors) return { errors: coerced.errors };
      return withGraphqlJsErrors(await plan.query(undefined, request.context, variables ?? {}));
    }
    return execute({
      schema: this.#schema,
      document: request.document,
      contextValue: request.context,
      variableValues: variables,
      operationName,
    });
  }

  #planFor(hash: string, document: DocumentNode, operationName: string | undefined): CompiledQuery | null {
    const key = operationName === undefined ? hash : `${hash}:${operationName}`;
    let plan = this.#plans.get(key);
    if (plan === undefined) {
      const compiled = compileQuery(this.#schema, document, operationName);
      plan = isCompiledQuery(compiled) ? compiled : null;
      this.#plans.set(key, plan);
    }
    return plan;
  }
}
