// The one `DuplicateReplayed` type that every idempotent mutation answers with when a key is
// replayed. `original` is the first decisive outcome; its union collects the replayable outcome
// types that features register (each ...Success, and InsufficientFunds), so no feature edits
// another's files. Registration happens when a feature's GraphQL types module is imported, which
// its resolver does, before `buildSchema` resolves the union's thunk.
import { createUnionType, Field, ObjectType, type ClassType } from 'type-graphql';
import { DateTime } from '../scalars.ts';

/** Outcome types that can come back inside DuplicateReplayed; bounded by the schema's size. */
const replayableOutcomes = new Set<ClassType>();

export function registerReplayableOutcome(...types: ClassType[]): void {
  for (const type of types) replayableOutcomes.add(type);
}

export const ReplayableOutcome = createUnionType({
  name: 'ReplayableOutcome',
  description: 'An outcome that is final for its idempotency key and is repeated on replay',
  types: () => [...replayableOutcomes],
});

@ObjectType({ description: 'The key was seen before: nothing was done again; here is what happened the first time' })
export class DuplicateReplayed {
  @Field(() => String, { description: 'The idempotency key that was replayed' })
  requestId!: string;

  @Field(() => DateTime)
  firstSeenAt!: Date;

  @Field(() => ReplayableOutcome)
  original!: object;
}
