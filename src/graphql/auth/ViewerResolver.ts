// Who the caller is, as far as the API tells: the role of its key (never the key), so a client
// such as the ops console can show only what that role may do. The server refuses the rest anyway.
import type { GraphQLResolveInfo } from 'graphql';
import { Ctx, Field, Info, ObjectType, Query, Resolver } from 'type-graphql';
import { listRootFieldRules } from './assertEveryRootFieldHasRight.ts';
import type { RequestContext } from '../context.ts';
import { Allow } from './Allow.ts';
import { roleHasRight, roleMaySubscribe, Rights } from '../../access/roles.ts';

@ObjectType()
export class Viewer {
  @Field(() => String, { description: 'dashboard, ops, worker, service or admin' })
  role!: string;

  @Field(() => Boolean, { description: 'Whether this key may open subscriptions' })
  maySubscribe!: boolean;

  @Field(() => Boolean, { description: 'Whether this key may requeue FAILED work items' })
  mayRequeue!: boolean;

  @Field(() => [String], {
    description: 'The subscription fields this key may open (e.g. a worker: workItemStatusChanged only)',
  })
  subscriptions!: string[];
}

@Resolver()
export class ViewerResolver {
  @Query(() => Viewer, { description: "The caller's role and what it may do" })
  @Allow(Rights.query)
  viewer(@Ctx() ctx: RequestContext, @Info() info: GraphQLResolveInfo): Viewer {
    const role = ctx.role as NonNullable<RequestContext['role']>;
    // Read from the schema's own rules, so the list follows every @Allow on a subscription.
    const subscriptions = listRootFieldRules(info.schema)
      .filter(
        (rule) =>
          rule.coordinate.startsWith('Subscription.') && rule.right !== undefined && roleHasRight(role, rule.right),
      )
      .map((rule) => rule.coordinate.slice('Subscription.'.length));
    return Object.assign(new Viewer(), {
      role,
      maySubscribe: roleMaySubscribe(role),
      mayRequeue: roleHasRight(role, 'requeueWork'),
      subscriptions,
    });
  }
}
