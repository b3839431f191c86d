import { Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { EngineStatus } from '../../db/engineStatus.ts';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import type { RequestContext } from '../../graphql/context.ts';

type HealthRequestContext = RequestContext<{ engineStatus: EngineStatus }>;

@ObjectType({ description: 'The replica set the API writes to, as the server reports it' })
class ReplicaSetStatus {
  @Field(() => String)
  name!: string;

  @Field(() => Int)
  members!: number;

  @Field(() => String, { nullable: true, description: 'host:port of the primary, if one is elected' })
  primary!: string | null;
}

@ObjectType()
class Health {
  @Field(() => String, { description: 'uri, memory-server or emulator' })
  engine!: string;

  @Field(() => String, { description: 'Why this engine was chosen' })
  engineReason!: string;

  @Field(() => String, { description: 'The server version the database reports' })
  version!: string;

  @Field(() => ReplicaSetStatus, {
    nullable: true,
    description: 'Null when the server is not a replica set or hides its status',
  })
  replicaSet!: ReplicaSetStatus | null;
}

@Resolver()
export class HealthResolver {
  @Query(() => Health, { description: 'The engine in use and the replica-set status' })
  @Allow(Rights.query)
  async health(@Ctx() ctx: HealthRequestContext): Promise<Health> {
    const status = ctx.services.engineStatus;
    const [version, replicaSet] = await Promise.all([status.version(), status.replicaSet()]);
    return { engine: status.engine.kind, engineReason: status.engine.reason, version, replicaSet };
  }
}
