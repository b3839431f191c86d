import type { ApolloServerPlugin } from '@apollo/server';
import type { Logger } from '../observability/logger.ts';
import type { AppContext } from '../app/requestContext.ts';
import type { GraphqlTelemetry } from './telemetry.ts';

/**
 * Counts and times every HTTP operation, and logs the ones that fail unexpectedly. `logger` is
 * the app's: its level says whether the per-operation debug line is wanted before the request's
 * child logger (built on first use, see context.ts) is asked for it.
 */
export function observabilityPlugin(telemetry: GraphqlTelemetry, logger: Pick<Logger, 'isLevelEnabled'>): ApolloServerPlugin<AppContext> {
  return {
    async requestDidStart() {
      const startedNs = process.hrtime.bigint();
      return {
        async didEncounterErrors({ contextValue, errors, operationName }) {
          for (const error of errors) {
            const code = error.extensions?.['code'];
            if (code === undefined || code === 'INTERNAL_SERVER_ERROR') {
              contextValue.logger.error({ err: error.originalError ?? error, operationName }, 'graphql operation failed');
            }
          }
        },
        async willSendResponse({ contextValue, operation, errors, operationName }) {
          const type = operation?.operation ?? 'unknown';
          const outcome = errors?.length ? 'error' : 'ok';
          telemetry.operationDurationSeconds.observe({ type }, Number(process.hrtime.bigint() - startedNs) / 1e9);
          telemetry.operationsTotal.inc({ type, outcome });
          if (logger.isLevelEnabled('debug')) contextValue.logger.debug({ operationName, type, outcome }, 'graphql operation');
        },
      };
    },
  };
}
