// Exhaustive handling of a union result: one handler per member the client knows, checked by the
// compiler, plus `unknown` for a member a newer server added (a value, never a crash).

export interface Typenamed {
  __typename: string;
}

/** A union member this client was generated without. */
export type UnknownMember = { __typename: string; [field: string]: unknown };

export type MatchHandlers<T extends Typenamed, R> = {
  [K in T['__typename']]: (value: Extract<T, { __typename: K }>) => R;
} & {
  unknown: (value: UnknownMember) => R;
};

export function match<T extends Typenamed, R>(value: T, handlers: MatchHandlers<T, R>): R {
  const typename = value.__typename;
  const known = typename !== 'unknown' && Object.hasOwn(handlers, typename);
  const handler = (known ? handlers[typename as keyof typeof handlers] : handlers.unknown) as (value: unknown) => R;
  return handler(value);
}
