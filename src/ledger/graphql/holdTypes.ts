// The hold's GraphQL types (DESIGN "Holds": `Hold { id accountId amount capturedAmount status expiresAt }`).
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTime, SafeInt } from '../../graphql/scalars.ts';
import type { HoldSnapshot, HoldStatusName } from '../results.ts';

export const HoldStatus = Object.freeze({
  PENDING: 'PENDING',
  CAPTURED: 'CAPTURED',
  VOIDED: 'VOIDED',
  EXPIRED: 'EXPIRED',
} as const satisfies Record<HoldStatusName, HoldStatusName>);

registerEnumType(HoldStatus, {
  name: 'HoldStatus',
  description:
    'PENDING until captured, voided or past expiresAt (then EXPIRED, on the database clock, even before the sweeper released it)',
});

@ObjectType({
  description: 'An amount reserved on an account: pending until captured (all or part), voided or expired',
})
export class Hold {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  accountId!: string;

  @Field(() => String)
  currency!: string;

  @Field(() => SafeInt, { description: 'Reserved, integer minor units' })
  amount!: number;

  @Field(() => SafeInt, { description: 'What the capture took (0 unless CAPTURED); the rest was released with it' })
  capturedAmount!: number;

  @Field(() => HoldStatus)
  status!: HoldStatusName;

  @Field(() => DateTime, { description: "On the database server's clock" })
  expiresAt!: Date;
}

@ObjectType()
export class HoldPage {
  @Field(() => [Hold])
  items!: Hold[];

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page' })
  endCursor!: string | null;

  @Field(() => Boolean)
  hasNextPage!: boolean;
}

export function toHold(snapshot: HoldSnapshot): Hold {
  return Object.assign(new Hold(), snapshot);
}
