import type { PubSub } from 'type-graphql';

/**
 * type-graphql insists on a PubSub when a schema has subscriptions. This API's subscriptions are
 * fed by change-stream watchers through `@Subscription({ subscribe })`, never by in-process
 * topics (which would miss events written by other processes), so topic use is refused loudly.
 */
export const refusingPubSub: PubSub = {
  publish(topic) {
    throw new Error(`Topic pub/sub is not used (publish to "${topic}"): use @Subscription({ subscribe })`);
  },
  subscribe(topic) {
    throw new Error(`Topic pub/sub is not used (subscribe to "${topic}"): use @Subscription({ subscribe })`);
  },
};
