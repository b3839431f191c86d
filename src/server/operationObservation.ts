// What both transports record of an operation, in one implementation each: the operation counter
// and duration histogram (HTTP: observabilityPlugin.ts; graphql-ws: websocket.ts), and the one info
// line per mutation root field, written by the mutation fields' own resolvers, so whichever
// transport executes the operation writes it.
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../graphql/context.ts';
import type { GraphqlTelemetry } from './telemetry.ts';

/** The `operation` label of an operation whose name is not a known one: the label set stays bounded. */
export const OTHER_OPERATION = 'other';

/** Input fields that say what a mutation was about; payloads and results are left out (large, private). */
const LOGGED_INPUT_FIELDS = [
  'accountId',
  'fromAccountId',
  'toAccountId',
  'currency',
  'amount',
  'requestId',
  'id',
  'kind',
  'idempotencyKey',
  'workerId',
  'version',
  'expectedVersion',
  'outcome',
  'leaseSeconds',
];

export type OperationOutcome = 'ok' | 'error';

/**
 * Counts and times one operation. `knownOperationNames` are the names that may be metric labels:
 * those of the trusted-documents manifest (the SDK's operations). A client names its operations
 * freely, so any other name counts as "other".
 */
export function operationRecorder(telemetry: GraphqlTelemetry, knownOperationNames: ReadonlySet<string> = new Set()) {
  return (
    type: string,
    outcome: OperationOutcome,
    operationName: string | null | undefined,
    startedNs: bigint,
  ): void => {
    telemetry.operationDurationSeconds.observe({ type }, Number(process.hrtime.bigint() - startedNs) / 1e9);
    telemetry.operationsTotal.inc({
      type,
      outcome,
      operation: operationName && knownOperationNames.has(operationName) ? operationName : OTHER_OPERATION,
    });
  };
}

export type OperationRecorder = ReturnType<typeof operationRecorder>;

/** The answer that wrote nothing and that idle workers repeat: logged at debug, not info. */
const QUIET_ANSWER = 'NothingToClaim';

// Marks a resolver already wrapped: a test may serve one schema from several servers.
const logged = Symbol('mutationLogged');

/**
 * Wraps each mutation root field's resolver (in place, once) so that it writes one info line:
 * what the mutation was about, the union member it answered (or `error`), and who, through the
 * request's logger (its key's fingerprint, role, transport and request id). Only root fields of
 * the mutation type: one line per money move or work-item transition, nothing on a query's or a
 * subscription event's path.
 */
export function logMutationResults<TSchema extends GraphQLSchema>(schema: TSchema): TSchema {
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const resolve: GraphQLFieldResolver<unknown, RequestContext> & { [logged]?: true } =
      field.resolve ?? defaultFieldResolver;
    if (resolve[logged]) continue;
    // No closure is made per call but the promise's two callbacks, unnamed: tsx names a named
    // function expression with a `__name` call each time it is evaluated (see http.ts), which the
    // profile showed on every mutation (docs/benchmarks.md).
    const wrapped: typeof resolve = (source, args, context, info) => {
      const logger = context.logger;
      if (!logger.isLevelEnabled('info')) return resolve(source, args, context, info);
      let result: unknown;
      try {
        result = resolve(source, args, context, info);
      } catch (error) {
        writeMutationLine(logger, info.fieldName, args, 'error');
        throw error;
      }
      if (!(result instanceof Promise)) {
        writeMutationLine(logger, info.fieldName, args, memberOf(result));
        return result;
      }
      return result.then(
        (value: unknown) => (writeMutationLine(logger, info.fieldName, args, memberOf(value)), value),
        (error: unknown) => {
          writeMutationLine(logger, info.fieldName, args, 'error');
          throw error;
        },
      );
    };
    wrapped[logged] = true;
    field.resolve = wrapped;
  }
  return schema;
}

/** The mutation's one line: what it was about (LOGGED_INPUT_FIELDS of its input), the member it answered, at info (debug for an idle poll). */
function writeMutationLine(logger: RequestContext['logger'], mutation: string, args: unknown, member: string): void {
  const input = (args as { input?: Record<string, unknown> }).input;
  const about: Record<string, unknown> = {};
  if (input) {
    for (const name of LOGGED_INPUT_FIELDS) if (input[name] !== undefined) about[name] = input[name];
  }
  // An idle worker polls every few seconds and changes nothing: its NothingToClaim is debug.
  const level = member === QUIET_ANSWER ? 'debug' : 'info';
  logger[level]({ mutation, result: member, input: about }, `${mutation}: ${member}`);
}

/** The union member a mutation answered: its class's name (type-graphql resolvers return instances). */
function memberOf(result: unknown): string {
  return (result as { constructor?: { name?: string } } | null)?.constructor?.name ?? 'null';
}
