import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { AUDIT_LOG_THROTTLE, LogThrottle } from '../observability/logThrottle.ts';
import type { Logger } from '../observability/logger.ts';
import { trace, tracingEnabled } from '../observability/tracing.ts';
import type { AppContext } from '../app/requestContext.ts';
import { operationRecorder } from './operationObservation.ts';
import { isUnavailableError } from './unavailable.ts';
import type { GraphqlTelemetry } from './telemetry.ts';

export interface ObservabilityOptions {
  /**
   * Operation names that may be metric labels: those of the trusted-documents manifest (the SDK's
   * operations). A client names its operations freely, so any other name counts as "other".
   */
  knownOperationNames?: ReadonlySet<string>;
}

/**
 * Counts and times every HTTP operation (operationRecorder, shared with graphql-ws), logs the ones
 * that fail unexpectedly, and logs refused credentials, rate-limited. The info line per mutation
 * is the mutation fields' own (logMutationResults), whichever transport runs them. `logger`
 * is the app's: its level says whether the per-operation debug line is wanted before the
 * request's child logger (built on first use, see context.ts) is asked for it.
 */
export function observabilityPlugin(
  telemetry: GraphqlTelemetry,
  logger: Pick<Logger, 'isLevelEnabled'>,
  options: ObservabilityOptions = {},
): ApolloServerPlugin<AppContext> {
  const record = operationRecorder(telemetry, options.knownOperationNames);
  const refusals = new LogThrottle(AUDIT_LOG_THROTTLE);
  // With tracing on (decided before the server is built), the request's server span is named
  // after the operation it carried; with it off Apollo has no hook to call.
  const namingHook: Pick<GraphQLRequestListener<AppContext>, 'didResolveOperation'> = tracingEnabled()
    ? {
        async didResolveOperation({ operation, operationName }) {
          const span = trace.getActiveSpan();
          if (!span || !operation) return;
          const name = operationName ?? operation.name?.value;
          span.updateName(`${operation.operation} ${name ?? 'anonymous'}`);
          span.setAttribute('graphql.operation.type', operation.operation);
          if (name) span.setAttribute('graphql.operation.name', name);
        },
      }
    : {};
  return {
    async requestDidStart() {
      const startedNs = process.hrtime.bigint();
      return {
        ...namingHook,
        async didEncounterErrors({ contextValue, errors, operationName }) {
          for (const error of errors) {
            const code = error.extensions?.['code'];
            if (isUnavailableError(error)) {
              contextValue.logger.warn(
                { err: error.originalError ?? error, operationName },
                'graphql operation met an unavailable database (answered UNAVAILABLE)',
              );
            } else if (code === undefined || code === 'INTERNAL_SERVER_ERROR') {
              contextValue.logger.error(
                { err: error.originalError ?? error, operationName },
                'graphql operation failed',
              );
            } else if (code === 'UNAUTHENTICATED' || code === 'FORBIDDEN') {
              const who = contextValue.principal?.keyId ?? contextValue.authFailure ?? 'missing';
              const { write, suppressed } = refusals.take(`${code}:${who}`);
              if (write)
                contextValue.logger.info(
                  { code, reason: contextValue.authFailure ?? undefined, operationName, suppressed },
                  `refused: ${error.message}`,
                );
            }
          }
        },
        async willSendResponse({ contextValue, operation, errors, operationName }) {
          const type = operation?.operation ?? 'unknown';
          const outcome = errors?.length ? 'error' : 'ok';
          record(type, outcome, operationName ?? operation?.name?.value, startedNs);
          if (logger.isLevelEnabled('debug'))
            contextValue.logger.debug({ operationName, type, outcome }, 'graphql operation');
        },
      };
    },
  };
}

/** The operation names of a trusted-documents manifest's texts (`mutation Withdraw(...)` → Withdraw). */
export function operationNamesOf(texts: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/g))
      names.add(match[1]!);
  }
  return names;
}
