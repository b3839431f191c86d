// Type-level wiring from the generated operation table to the client's methods: each entry's
// document carries its result and variables types; its `args` says how the method takes them.
import type { mutations, queries, subscriptions } from './generated/operations.js';

export interface OperationEntry {
  readonly document: { toString(): string };
  readonly args: 'none' | 'single' | 'object';
  readonly argName: string | null;
  readonly keyField: string | null;
  /** A list of the input whose items each carry their own key, made by the SDK when left out. */
  readonly keyList: { readonly field: string; readonly key: string } | null;
  readonly replays: boolean;
  readonly resumeArg: string | null;
}

type ApiType<D> = D extends { __apiType?: infer F } ? NonNullable<F> : never;
export type ResultOf<D> = ApiType<D> extends (variables: never) => infer R ? R : never;
export type VariablesOf<D> = ApiType<D> extends (variables: infer V) => unknown ? V : never;

/** The input with its key field optional: the SDK makes one when it is left out. */
export type WithOptionalKey<T, K> = K extends string ? (K extends keyof T ? Omit<T, K> & { [P in K]?: T[P] } : T) : T;

/** The input with the key of each item of its key list optional (submitMoves' moves). */
export type WithOptionalListKeys<T, L> = L extends { readonly field: infer F; readonly key: infer K }
  ? F extends keyof T
    ? Omit<T, F> & { [P in F]: T[P] extends ReadonlyArray<infer I> ? Array<WithOptionalKey<I, K>> : T[P] }
    : T
  : T;

type InputOf<E extends OperationEntry> = VariablesOf<E['document']>[E['argName'] & keyof VariablesOf<E['document']>];

type ParamsOf<E extends OperationEntry> = E['args'] extends 'none'
  ? []
  : E['args'] extends 'single'
    ? [value: WithOptionalListKeys<WithOptionalKey<InputOf<E>, E['keyField']>, E['keyList']>]
    : // biome-ignore lint/complexity/noBannedTypes: `{} extends V` asks whether every variable is optional
      {} extends VariablesOf<E['document']>
      ? [args?: VariablesOf<E['document']>]
      : [args: VariablesOf<E['document']>];

type FieldValue<E extends OperationEntry, F extends PropertyKey> = ResultOf<E['document']>[F &
  keyof ResultOf<E['document']>];

/** How a mutation's answer was obtained: the key it carried and the attempts it took. */
export interface RequestMeta {
  /** The key sent on every attempt (made by the SDK when the input left it out); null when the operation has none. */
  idempotencyKey: string | null;
  /** The keys of a keyed list's items (submitMoves' moves), in order, as sent on every attempt; only on such operations. */
  itemKeys?: readonly string[];
  attempts: number;
}

/** A mutation's union value, with `$meta` (not enumerable; `$` never begins a GraphQL field name). */
export type WithMeta<T> = T & { readonly $meta: RequestMeta };

type Queries = typeof queries;
type Mutations = typeof mutations;
type Subscriptions = typeof subscriptions;

export type QueryMethods = {
  [F in keyof Queries]: (...params: ParamsOf<Queries[F]>) => Promise<FieldValue<Queries[F], F>>;
};

export type MutationMethods = {
  [F in keyof Mutations]: (...params: ParamsOf<Mutations[F]>) => Promise<WithMeta<FieldValue<Mutations[F], F>>>;
};

export type SubscriptionMethods = {
  [F in keyof Subscriptions]: (
    ...params: ParamsOf<Subscriptions[F]>
  ) => AsyncGenerator<FieldValue<Subscriptions[F], F>, void, undefined>;
};

/** A query's or mutation's result type by field name, e.g. `Result<'withdraw'>`. */
export type Result<F extends keyof Queries | keyof Mutations> = F extends keyof Mutations
  ? Awaited<ReturnType<MutationMethods[F]>>
  : F extends keyof Queries
    ? Awaited<ReturnType<QueryMethods[F]>>
    : never;

/** A subscription's event type by field name, e.g. `Event<'workItemStatusChanged'>`. */
export type Event<F extends keyof Subscriptions> = FieldValue<Subscriptions[F], F>;
