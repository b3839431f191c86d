import { Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { Db } from 'mongodb';
import { Allow, Rights } from '../graphql/auth/index.ts';
import type { AppContext } from '../graphql/context.ts';

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

  @Field(() => ReplicaSetStatus, { nullable: true, description: 'Null when the server is not a replica set or hides its status' })
  replicaSet!: ReplicaSetStatus | null;
}

@Resolver()
export class HealthResolver {
  @Query(() => Health, { description: 'The engine in use and the replica-set status' })
  @Allow(Rights.query)
  async health(@Ctx() ctx: AppContext): Promise<Health> {
    const buildInfo = await ctx.db.admin().command({ buildInfo: 1 });
    return {
      engine: ctx.engine.kind,
      engineReason: ctx.engine.reason,
      version: String(buildInfo['version']),
      replicaSet: await readReplicaSet(ctx.db),
    };
  }
}

async function readReplicaSet(db: Db): Promise<ReplicaSetStatus | null> {
  try {
    const status = await db.admin().command({ replSetGetStatus: 1 });
    const members = (status['members'] ?? []) as Array<{ name: string; stateStr: string }>;
    return {
      name: String(status['set']),
      members: members.length,
      primary: members.find((member) => member.stateStr === 'PRIMARY')?.name ?? null,
    };
  } catch {
    // Not a replica set, or the user may not run replSetGetStatus (e.g. some Atlas tiers).
    return null;
  }
}
