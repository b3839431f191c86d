import type { ApolloServerPlugin } from '@apollo/server';
import type { AppContext } from './context.ts';
import type { GraphqlTelemetry } from './telemetry.ts';

/** Counts and times every HTTP operation, and logs the ones that fail unexpectedly. */
export function observabilityPlugin(telemetry: GraphqlTelemetry): ApolloServerPlugin<AppContext> {
  return {
    async requestDidStart() {
      const stopTimer = telemetry.operationDurationSeconds.startTimer();
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
          stopTimer({ type });
          telemetry.operationsTotal.inc({ type, outcome });
          contextValue.logger.debug({ operationName, type, outcome }, 'graphql operation');
        },
      };
    },
  };
}
