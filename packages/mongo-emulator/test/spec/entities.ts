// The entity map of one test: unique names, typed lookups, and the cleanup the format requires
// (end sessions, close cursors and change streams, close clients).
import type { AbstractCursor, ChangeStream, ClientSession, Collection, Db } from 'mongodb';
import { ClientEntity, type ClientEntityDefinition } from './clientEntity.ts';
import { commonOptions, toReadConcern, toReadPreference, toWriteConcern, plain } from './commonOptions.ts';
import type { MatchEntities } from './matcher.ts';
import { unsupported } from './outcomes.ts';

/** A client's topology description as recordTopologyDescription saw it: its type and its primary. */
export interface TopologySnapshot {
  type: string;
  primary: string | undefined;
}

export interface SessionEntity {
  session: ClientSession;
  client: ClientEntity;
  /** Captured at creation: the driver forgets the id once the session has ended. */
  lsid: unknown;
}

type Entity =
  | { kind: 'client'; value: ClientEntity }
  | { kind: 'database'; value: Db }
  | { kind: 'collection'; value: Collection }
  | { kind: 'session'; value: SessionEntity }
  | { kind: 'changeStream'; value: ChangeStream }
  | { kind: 'cursor'; value: AbstractCursor }
  | { kind: 'bson'; value: unknown }
  | { kind: 'topologyDescription'; value: TopologySnapshot };

type Kind = Entity['kind'];
type ValueOf<K extends Kind> = Extract<Entity, { kind: K }>['value'];

const ENTITY_TYPES = ['client', 'database', 'collection', 'session', 'bucket', 'clientEncryption', 'thread'] as const;

export class EntityMap implements MatchEntities {
  private readonly entities = new Map<string, Entity>();

  constructor(private readonly uri: string) {}

  set<K extends Kind>(name: string, kind: K, value: ValueOf<K>): void {
    if (this.entities.has(name)) throw new Error(`entity ${name} already exists`);
    this.entities.set(name, { kind, value } as Entity);
  }

  get<K extends Kind>(name: string, kind: K): ValueOf<K> {
    const entity = this.entities.get(name);
    if (entity === undefined) throw new Error(`no entity named ${name}`);
    if (entity.kind !== kind) throw new Error(`entity ${name} is a ${entity.kind}, not a ${kind}`);
    return entity.value as ValueOf<K>;
  }

  kindOf(name: string): Kind {
    const entity = this.entities.get(name);
    if (entity === undefined) throw new Error(`no entity named ${name}`);
    return entity.kind;
  }

  clients(): ClientEntity[] {
    return [...this.entities.values()].flatMap((e) => (e.kind === 'client' ? [e.value] : []));
  }

  sessionLsid(name: string): unknown {
    return this.get(name, 'session').lsid;
  }

  bsonEntity(name: string): unknown {
    return this.get(name, 'bson');
  }

  /** createEntities: each definition is a one-key document naming the entity type. */
  async create(definitions: Array<Record<string, Record<string, unknown>>>): Promise<void> {
    for (const definition of definitions) {
      const [type, spec] = Object.entries(definition)[0] ?? [];
      if (type === undefined || spec === undefined) throw new Error('empty entity definition');
      const id = String(spec.id);
      switch (type as (typeof ENTITY_TYPES)[number]) {
        case 'client':
          this.set(id, 'client', await ClientEntity.create(spec as unknown as ClientEntityDefinition, this.uri));
          break;
        case 'database': {
          const client = this.get(String(spec.client), 'client').client;
          this.set(
            id,
            'database',
            client.db(
              String(spec.databaseName),
              commonOptions((spec.databaseOptions ?? {}) as Record<string, unknown>),
            ),
          );
          break;
        }
        case 'collection': {
          const db = this.get(String(spec.database), 'database');
          this.set(
            id,
            'collection',
            db.collection(
              String(spec.collectionName),
              commonOptions((spec.collectionOptions ?? {}) as Record<string, unknown>),
            ),
          );
          break;
        }
        case 'session': {
          const client = this.get(String(spec.client), 'client');
          const session = client.client.startSession(
            sessionOptions((spec.sessionOptions ?? {}) as Record<string, unknown>),
          );
          this.set(id, 'session', { session, client, lsid: session.id });
          break;
        }
        case 'bucket':
          return unsupported('GridFS (bucket entities are out of scope)');
        case 'clientEncryption':
          return unsupported('clientEncryption entities (CSFLE)');
        case 'thread':
          return unsupported('thread entities');
        default:
          throw new Error(`unknown entity type ${type}`);
      }
    }
  }

  /** End sessions, close cursors and change streams, then close clients; never throws. */
  async close(): Promise<void> {
    const all = [...this.entities.values()];
    for (const client of this.clients()) client.stopObserving();
    for (const entity of all) {
      if (entity.kind === 'changeStream' || entity.kind === 'cursor') await entity.value.close().catch(() => undefined);
    }
    for (const entity of all) {
      if (entity.kind === 'session') await entity.value.session.endSession().catch(() => undefined);
    }
    await Promise.all(this.clients().map((client) => client.close()));
    this.entities.clear();
  }
}

function sessionOptions(options: Record<string, unknown>): Record<string, unknown> {
  const converted = plain(options) as Record<string, unknown>;
  const transaction = options.defaultTransactionOptions as Record<string, unknown> | undefined;
  if (transaction !== undefined) converted.defaultTransactionOptions = transactionOptions(transaction);
  return converted;
}

/** startTransaction / withTransaction / defaultTransactionOptions arguments for the driver. */
export function transactionOptions(options: Record<string, unknown>): Record<string, unknown> {
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === 'readConcern') converted.readConcern = toReadConcern(value);
    else if (key === 'writeConcern') converted.writeConcern = toWriteConcern(value);
    else if (key === 'readPreference') converted.readPreference = toReadPreference(value);
    else converted[key] = plain(value);
  }
  return converted;
}
