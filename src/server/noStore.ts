// Every GraphQL answer over HTTP says `cache-control: no-store`, as it did when Apollo's default
// cache-control plugin wrote it: this schema sets no cache hints, so that plugin's policy was
// always "uncacheable". The plugin is turned off (src/server/startServer.ts) because it computed that answer
// with a hook on every resolved field of every operation.
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';

const UNCACHEABLE = 'no-store';

// Stateless, so one listener serves every request.
const listener: GraphQLRequestListener<object> = {
  async willSendResponse({ response }) {
    response.http.headers.set('cache-control', UNCACHEABLE);
  },
};

export function noStorePlugin(): ApolloServerPlugin<object> {
  return {
    async requestDidStart() {
      return listener;
    },
  };
}
