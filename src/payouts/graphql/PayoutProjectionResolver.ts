// The payout projection's state for the ops console: who holds its lease, until when, how far
// behind its stored position is, and where this process hands payouts (PAYOUT_QUEUE). Read-only:
// the lease document as the projection keeps it, and the sink the app was configured with.
import { Ctx, Field, Float, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import type { RequestContext } from '../../graphql/context.ts';
import type { PayoutLeaseReader } from '../leaseState.ts';
import type { PayoutSink } from '../sink.ts';

type PayoutRequestContext = RequestContext<{
  payoutLease: PayoutLeaseReader;
  payoutProjection: { readonly sink: Pick<PayoutSink, 'kind' | 'queueName'> };
}>;
import { DateTime } from '../../graphql/scalars.ts';

@ObjectType({ description: "The payout projection's lease and position" })
export class PayoutProjectionState {
  @Field(() => String, {
    nullable: true,
    description: 'The process holding the lease; null before any process took it',
  })
  holder!: string | null;

  @Field(() => Boolean, { description: 'False when the lease has expired (no process projects until one takes it)' })
  leaseActive!: boolean;

  @Field(() => DateTime, { nullable: true })
  leaseExpiresAt!: Date | null;

  @Field(() => Int, { nullable: true, description: 'Bumped by every acquisition' })
  leaseVersion!: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "Seconds between the stored position and the cluster's time now (to the second); null without a position",
  })
  lagSeconds!: number | null;

  @Field(() => String, { description: 'Where this process hands payouts (PAYOUT_QUEUE): work-items, or bullmq' })
  sink!: string;

  @Field(() => String, {
    nullable: true,
    description: "The BullMQ queue's name (PAYOUT_QUEUE_NAME); null for work items",
  })
  queueName!: string | null;
}

/** The cluster time inside a mongod-style resume token: hex `82` then 4 bytes of seconds. */
export function resumeTokenSeconds(data: string): number | null {
  return /^82[0-9A-Fa-f]{16}/.test(data) ? Number.parseInt(data.slice(2, 10), 16) : null;
}

@Resolver()
export class PayoutProjectionResolver {
  @Query(() => PayoutProjectionState, { description: "The payout projection's lease holder and lag" })
  @Allow(Rights.query)
  async payoutProjectionState(@Ctx() ctx: PayoutRequestContext): Promise<PayoutProjectionState> {
    const lease = await ctx.services.payoutLease.read();
    const nowSeconds = ctx.consistency.clusterTime()?.high ?? Math.floor(Date.now() / 1000);
    const positionSeconds = lease?.resumeToken ? resumeTokenSeconds(lease.resumeToken._data) : null;
    return Object.assign(new PayoutProjectionState(), {
      holder: lease?.holder ?? null,
      leaseActive: lease !== null && lease.expiresAt.getTime() > Date.now(),
      leaseExpiresAt: lease?.expiresAt ?? null,
      leaseVersion: lease?.version ?? null,
      lagSeconds: positionSeconds === null ? null : Math.max(0, nowSeconds - positionSeconds),
      sink: ctx.services.payoutProjection.sink.kind,
      queueName: ctx.services.payoutProjection.sink.queueName,
    });
  }
}
