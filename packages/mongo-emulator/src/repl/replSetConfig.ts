// A replica set's configuration (mongod's repl_set_config.cpp and member_config.cpp): its shape,
// the defaults mongod fills in, and the counts every other piece derives from it.
import { ObjectId } from 'bson';
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';

/** mongod's defaults (repl_set_config.idl): electionTimeoutMillis 10 s, heartbeatIntervalMillis 2 s. */
export const DEFAULT_ELECTION_TIMEOUT_MS = 10_000;
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 2_000;
/** repl_set_config.idl's heartbeatTimeoutSecs default. */
const DEFAULT_HEARTBEAT_TIMEOUT_SECS = 10;
/** repl_set_config.idl's catchUpTimeoutMillis default: -1, no limit. */
const DEFAULT_CATCH_UP_TIMEOUT_MS = -1;
/** repl_set_config.idl's catchUpTakeoverDelayMillis default. */
const DEFAULT_CATCH_UP_TAKEOVER_DELAY_MS = 30_000;

export interface MemberConfig {
  _id: number;
  host: string;
  arbiterOnly: boolean;
  buildIndexes: boolean;
  hidden: boolean;
  priority: number;
  tags: Document;
  secondaryDelaySecs: bigint;
  votes: number;
}

export interface ReplSetConfig {
  _id: string;
  version: number;
  term: number;
  members: MemberConfig[];
  protocolVersion: bigint;
  writeConcernMajorityJournalDefault: boolean;
  settings: Document & { electionTimeoutMillis: bigint; heartbeatIntervalMillis: bigint; replicaSetId: ObjectId };
}

/** The command line's timing options, used where a configuration leaves a setting out. */
export interface ReplTimingOptions {
  electionTimeoutMillis?: number;
  heartbeatIntervalMillis?: number;
}

/** A member that may stand for election: it votes, has a priority, holds data and is not delayed. */
export function isElectable(member: MemberConfig): boolean {
  return member.priority > 0 && member.votes > 0 && !member.arbiterOnly && member.secondaryDelaySecs === 0n;
}

export function votingMembers(config: ReplSetConfig): MemberConfig[] {
  return config.members.filter((m) => m.votes > 0);
}

/** mongod's majority of voting members (the count w:majority and elections need). */
export function majorityCount(config: ReplSetConfig): number {
  return Math.floor(votingMembers(config).length / 2) + 1;
}

/** A configuration with mongod's defaults filled in (repl_set_config.idl, member_config.idl). */
export function normaliseConfig(
  raw: Document,
  options: ReplTimingOptions,
  version: number,
  term: number,
): ReplSetConfig {
  if (!Array.isArray(raw.members) || raw.members.length === 0)
    throw new CommandError('InvalidReplicaSetConfig', 'Replica set configuration must contain at least one member');
  const settings = (raw.settings as Document | undefined) ?? {};
  const members = (raw.members as Document[]).map(normaliseMember);
  return {
    _id: String(raw._id),
    version: Number(raw.version ?? version),
    term: Number(raw.term ?? term),
    members,
    protocolVersion: 1n,
    writeConcernMajorityJournalDefault: raw.writeConcernMajorityJournalDefault !== false,
    settings: {
      chainingAllowed: true,
      heartbeatIntervalMillis: BigInt(
        (settings.heartbeatIntervalMillis ??
          options.heartbeatIntervalMillis ??
          DEFAULT_HEARTBEAT_INTERVAL_MS) as number,
      ),
      heartbeatTimeoutSecs: DEFAULT_HEARTBEAT_TIMEOUT_SECS,
      electionTimeoutMillis: BigInt(
        (settings.electionTimeoutMillis ?? options.electionTimeoutMillis ?? DEFAULT_ELECTION_TIMEOUT_MS) as number,
      ),
      catchUpTimeoutMillis: DEFAULT_CATCH_UP_TIMEOUT_MS,
      catchUpTakeoverDelayMillis: DEFAULT_CATCH_UP_TAKEOVER_DELAY_MS,
      getLastErrorModes: {},
      getLastErrorDefaults: { w: 1, wtimeout: 0 },
      replicaSetId: settings.replicaSetId instanceof ObjectId ? settings.replicaSetId : new ObjectId(),
    },
  };
}

/**
 * replSetInitiate's configuration (repl_set_config_checks.cpp, validateConfigForInitiate): the
 * one given, or this member alone; it must name this set and this member.
 */
export function configForInitiate(
  raw: Document | undefined,
  setName: string,
  self: string,
  options: ReplTimingOptions,
): ReplSetConfig {
  const config = normaliseConfig(raw ?? { _id: setName, members: [{ _id: 0, host: self }] }, options, 1, 0);
  if (config._id !== setName) {
    throw new CommandError(
      'InvalidReplicaSetConfig',
      `Attempting to initiate a replica set with name ${config._id}, but command line reports ${setName}; rejecting`,
    );
  }
  if (!config.members.some((m) => m.host === self)) {
    throw new CommandError(
      'InvalidReplicaSetConfig',
      `No host described in new configuration with {version: ${config.version}, term: ${config.term}} for replica set ${config._id} maps to this node`,
    );
  }
  return config;
}

/**
 * replSetReconfig's configuration (repl_set_config_checks.cpp, validateConfigForReconfig): a newer
 * version of the same set, keeping its replicaSetId; `force` takes any version and moves past ours.
 */
export function configForReconfig(
  current: ReplSetConfig,
  raw: Document,
  force: boolean,
  term: bigint,
  options: ReplTimingOptions,
): ReplSetConfig {
  const version = Number(raw.version ?? current.version + 1);
  if (version <= current.version && !force) {
    throw new CommandError(
      'NewReplicaSetConfigurationIncompatible',
      `New replica set configuration version must be greater than old, but ${version} is not greater than ${current.version} for replset ${current._id}`,
    );
  }
  const config = normaliseConfig(
    { ...raw, version: force ? Math.max(version, current.version + 1) : version },
    options,
    version,
    Number(term),
  );
  if (config._id !== current._id)
    throw new CommandError(
      'NewReplicaSetConfigurationIncompatible',
      'New and old configurations differ in replica set name',
    );
  config.settings.replicaSetId = current.settings.replicaSetId;
  return config;
}

function normaliseMember(m: Document, index: number): MemberConfig {
  if (typeof m.host !== 'string') throw new CommandError('InvalidReplicaSetConfig', `member ${index} has no host`);
  const hidden = m.hidden === true;
  const priority = m.priority === undefined ? (hidden ? 0 : 1) : Number(m.priority);
  if (hidden && priority !== 0)
    throw new CommandError('InvalidReplicaSetConfig', 'priority must be 0 when hidden=true');
  return {
    _id: Number(m._id ?? index),
    host: m.host,
    arbiterOnly: m.arbiterOnly === true,
    buildIndexes: m.buildIndexes !== false,
    hidden,
    priority,
    tags: (m.tags as Document | undefined) ?? {},
    secondaryDelaySecs: BigInt((m.secondaryDelaySecs ?? m.slaveDelay ?? 0) as number),
    votes: m.votes === undefined ? 1 : Number(m.votes),
  };
}
