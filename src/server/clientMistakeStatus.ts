// HTTP 400 for a client's mistake caught in a resolver when nothing ran (README "Client mistakes
// and slow clients"): an amount of 0, a self-transfer, `expiresInSeconds: 0`, `max: 0`, a capture
// to the hold's own account. Mistakes caught while reading variables are 400 already (Apollo), but
// a resolver's BAD_USER_INPUT left the status at 200, so a client reading the status alone took a
// refused request for an answered one.
//
// "Nothing ran": every error is BAD_USER_INPUT and no root field's resolver returned
// (`markRootAnswers` records those per operation; the answer's `data` cannot tell, since one
// refused non-null root field nulls it whole even when a field before it ran). A document whose
// other root fields answered stays 200 (something ran; the errors say which field was refused). In a batched HTTP request the operations share one status: it is 400
// only while no operation of the batch ran (an operation that ran takes back this plugin's 400).
// graphql-ws has no status: the same errors, same code, reach the client in its `next` message.
import type { ApolloServerPlugin, GraphQLRequestListener, HTTPGraphQLHead } from '@apollo/server';
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { ErrorCode } from '../graphql/errors.ts';

/** Operations (by their context) in which a root field's resolver returned. */
const answered = new WeakSet<object>();
const marked = Symbol('marksRootAnswers');

/** Wraps every query and mutation root field so an operation knows whether one of them ran; returns the same schema. */
export function markRootAnswers<TSchema extends GraphQLSchema>(schema: TSchema): TSchema {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      const resolve: GraphQLFieldResolver<unknown, object> & { [marked]?: true } =
        field.resolve ?? defaultFieldResolver;
      if (resolve[marked]) continue;
      const wrapped: typeof resolve = (source, args, context, info) => {
        const result: unknown = resolve(source, args, context, info);
        if (!(result instanceof Promise)) {
          answered.add(context);
          return result;
        }
        return result.then((value: unknown) => {
          answered.add(context);
          return value;
        });
      };
      wrapped[marked] = true;
      field.resolve = wrapped;
    }
  }
  return schema;
}

const CLIENT_MISTAKE = 400;

/** The batches' shared heads this plugin set to 400, and whether an operation of theirs ran. */
const batches = new WeakMap<HTTPGraphQLHead, { ran: boolean; setByUs: boolean }>();

function nothingRan(context: object, errors: readonly { extensions?: Record<string, unknown> }[] | undefined): boolean {
  if (!errors || errors.length === 0 || answered.has(context)) return false;
  return errors.every((error) => error.extensions?.['code'] === ErrorCode.BAD_USER_INPUT);
}

const listener: GraphQLRequestListener<object> = {
  async willSendResponse({ response, requestIsBatched, contextValue }) {
    if (response.body.kind !== 'single') return;
    const mistake = nothingRan(contextValue, response.body.singleResult.errors);
    const head = response.http;
    if (!requestIsBatched) {
      if (mistake && (head.status === undefined || head.status === 200)) head.status = CLIENT_MISTAKE;
      return;
    }
    const batch = batches.get(head) ?? { ran: false, setByUs: false };
    batches.set(head, batch);
    if (!mistake) {
      batch.ran = true;
      if (batch.setByUs && head.status === CLIENT_MISTAKE) head.status = undefined;
      batch.setByUs = false;
      return;
    }
    if (!batch.ran && (head.status === undefined || head.status === 200)) {
      head.status = CLIENT_MISTAKE;
      batch.setByUs = true;
    }
  },
};

export function clientMistakeStatusPlugin(): ApolloServerPlugin<object> {
  return {
    async requestDidStart() {
      return listener;
    },
  };
}
