// The schema: one sorted list of resolver classes. A feature adds one import and one entry.
// Used by the server, by `npm run schema` and by the tests, so all three see the same schema.
import 'reflect-metadata';
import { specifiedDirectives } from 'graphql';
import { buildSchema, type ClassType } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { LedgerAuditResolver } from '../audit/graphql/LedgerAuditResolver.ts';
import { HealthResolver } from '../health/graphql/HealthResolver.ts';
import { LiveFeedsResolver } from '../health/graphql/LiveFeedsResolver.ts';
import { DashboardResolver, LedgerEntryListFieldsResolver } from '../ledger/graphql/DashboardResolver.ts';
import { AccountFieldsResolver, LedgerEntryFieldsResolver, LedgerResolver } from '../ledger/graphql/LedgerResolver.ts';
import { HoldResolver } from '../ledger/graphql/HoldResolver.ts';
import { MoveOutcomesResolver } from '../ledger/graphql/MoveOutcomesResolver.ts';
import { PayoutProjectionResolver } from '../payouts/graphql/PayoutProjectionResolver.ts';
import { LedgerSubscriptionResolver } from '../ledger/graphql/LedgerSubscriptionResolver.ts';
import { WorkItemSubscriptionResolver } from '../work/graphql/WorkItemSubscriptionResolver.ts';
import { ScheduleResolver } from '../work/graphql/ScheduleResolver.ts';
import { WorkItemPageFieldsResolver, WorkItemResolver } from '../work/graphql/WorkItemResolver.ts';
import { assertEveryRootFieldHasRight } from '../graphql/auth/assertEveryRootFieldHasRight.ts';
import { authChecker } from '../graphql/auth/authChecker.ts';
import { ViewerResolver } from '../graphql/auth/ViewerResolver.ts';
import { consistentAfterDirective } from '../graphql/consistency.ts';
import { refusingPubSub } from '../graphql/pubSub.ts';

export const resolvers = [
  AccountFieldsResolver,
  DashboardResolver,
  HealthResolver,
  HoldResolver,
  LedgerAuditResolver,
  LedgerEntryFieldsResolver,
  LedgerEntryListFieldsResolver,
  LedgerResolver,
  LedgerSubscriptionResolver,
  LiveFeedsResolver,
  MoveOutcomesResolver,
  PayoutProjectionResolver,
  ScheduleResolver,
  ViewerResolver,
  WorkItemPageFieldsResolver,
  WorkItemResolver,
  WorkItemSubscriptionResolver,
] as const;

export interface BuildAppSchemaOptions {
  /** Test-only resolvers added to the app's own (e.g. access-control probes). */
  extraResolvers?: readonly ClassType[];
}

export async function buildAppSchema(options: BuildAppSchemaOptions = {}): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: [...resolvers, ...(options.extraResolvers ?? [])],
    authChecker,
    authMode: 'error',
    pubSub: refusingPubSub,
    // Inputs are validated with zod in resolvers/services, not class-validator.
    validate: false,
    directives: [...specifiedDirectives, consistentAfterDirective],
  });
  assertEveryRootFieldHasRight(schema);
  return schema;
}
