// One member of a replica set: its configuration, state and term, heartbeats, elections, the
// oplog fetcher that follows its sync source, write-concern and read waiters, step-down, rollback.
// The rules follow mongod's replication coordinator and topology coordinator
// (src/mongo/db/repl/replication_coordinator_impl.cpp, topology_coordinator.cpp,
// replication_coordinator_impl_elect_v1.cpp, repl_set_heartbeat_response.cpp); where the emulator
// is simpler it says so here and in the README.
//
// A one-node emulator has no coordinator at all (ServerState.repl is undefined), so the single
// node's hot path pays nothing for any of this.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ObjectId, serialize, Timestamp } from 'bson';
import type { Catalog } from '../engine/catalog.ts';
import type { Document } from '../engine/types.ts';
import type { ChangeStreams } from '../changes/ChangeStreams.ts';
import { CommandError } from '../errors.ts';
import type { FailPointRegistry } from '../failpoints/FailPointRegistry.ts';
import type { ClusterClock } from '../session/ClusterClock.ts';
import type { SessionRegistry } from '../session/SessionRegistry.ts';
import type { TransactionCoordinator } from '../txn/TransactionCoordinator.ts';
import { applyEntry } from './applyEntry.ts';
import { compareOpTime, electionIdForTerm, maxOpTime, NULL_OP_TIME, parseOpTime, type OpTime } from './opTime.ts';
import { PeerClient, PeerUnreachable } from './PeerClient.ts';
import { timeKey } from '../changes/resumeToken.ts';
import type { PersistedReplState, Storage } from '../storage/Storage.ts';

/** mongod's MemberState codes (src/mongo/db/repl/member_state.h). */
export const MemberState = Object.freeze({
  STARTUP: 0,
  PRIMARY: 1,
  SECONDARY: 2,
  RECOVERING: 3,
  STARTUP2: 5,
  UNKNOWN: 6,
  DOWN: 8,
  ROLLBACK: 9,
  REMOVED: 10,
});
const STATE_NAMES: Record<number, string> = { 0: 'STARTUP', 1: 'PRIMARY', 2: 'SECONDARY', 3: 'RECOVERING', 5: 'STARTUP2', 6: 'UNKNOWN', 8: '(not reachable/healthy)', 9: 'ROLLBACK', 10: 'REMOVED' };

/** mongod's defaults (repl_set_config.idl): electionTimeoutMillis 10 s, heartbeatIntervalMillis 2 s. */
export const DEFAULT_ELECTION_TIMEOUT_MS = 10_000;
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 2_000;
/** mongod's electionTimeoutOffsetLimitFraction: the timeout is randomised by up to 15% of itself. */
const ELECTION_TIMEOUT_OFFSET_FRACTION = 0.15;
/** How long a getMore on the sync source waits for entries (the fetcher's awaitData maxTimeMS). */
const FETCH_AWAIT_MS = 500;
/** Entries fetched per batch. */
const FETCH_BATCH_ENTRIES = 5_000;
/** The pause before a fetcher retries a sync source that failed. */
const FETCH_RETRY_MS = 100;
/** replSetStepDown's default secondaryCatchUpPeriodSecs, and mongod's wait between catch-up checks. */
const DEFAULT_CATCH_UP_SECS = 10;
/** replSetStepDown's default `secs`: how long the old primary may not stand again. */
const DEFAULT_STEP_DOWN_SECS = 60;
/** After replSetInitiate the member stands this often until its peers vote (they need the config first). */
const INITIATE_ELECTION_RETRY_MS = 50;
const INITIATE_ELECTION_ATTEMPTS = 200;
/** How long a fetcher leaving its sync source waits for its killCursors (a dead source never answers). */
const KILL_CURSOR_TIMEOUT_MS = 500;
/** mongod's waitForSecondaryBeforeNoopWriteMS (read_concern_mongod.cpp): a secondary's wait before it asks the primary for a no-op. */
const WAIT_FOR_SECONDARY_BEFORE_NOOP_WRITE_MS = 10;
/** How long a member waits for the primary's answer to appendOplogNote (it does not wait on it: the read's own deadline counts). */
const PEER_COMMAND_TIMEOUT_MS = 2_000;
/** Documents per batch an initial sync's clone reads. */
const CLONE_BATCH_DOCS = 10_000;

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

/** What this member knows of another from its heartbeats (topology_coordinator.cpp's MemberData). */
interface MemberData {
  state: number;
  health: number;
  term: bigint;
  appliedOpTime: OpTime;
  durableOpTime: OpTime;
  appliedWallTime: Date;
  lastHeartbeat: Date | undefined;
  lastHeartbeatRecv: Date | undefined;
  /** When this member last answered a heartbeat of ours (ms since epoch), for the primary's liveness check. */
  lastResponseMs: number;
  pingMs: number;
  electionTime: Timestamp | undefined;
  syncSourceHost: string;
  message: string;
}

/** The parts of the server the coordinator drives (ServerState's, without importing it). */
export interface ReplHost {
  readonly address: string;
  readonly setName: string;
  readonly catalog: Catalog;
  readonly changeStreams: ChangeStreams;
  readonly sessions: SessionRegistry;
  readonly transactions: TransactionCoordinator;
  readonly failPoints: FailPointRegistry;
  readonly clock: ClusterClock;
  readonly logger: { info(message: string): void; warn(message: string): void };
  readonly stopSignal: AbortSignal;
  /** Closes every client connection (rollback does, as mongod's). */
  closeClientConnections(): void;
  /** With --dbpath: the journal (durable optime, flushes) and where config, term and vote are kept. */
  readonly storage?: Storage;
}

export interface ReplOptions {
  electionTimeoutMillis?: number;
  heartbeatIntervalMillis?: number;
  /** Where rolled-back documents are written (mongod's <dbpath>/rollback). */
  rollbackDir: string;
}

interface Waiter {
  ready: () => boolean;
  resolve: (error?: CommandError | 'steppedDown') => void;
}

export class ReplCoordinator {
  state: number = MemberState.STARTUP;
  term = 0n;
  config: ReplSetConfig | undefined;
  selfIndex = -1;
  /** The latest optime known majority-committed (the commit point). */
  commitPoint: OpTime = NULL_OP_TIME;
  electionTime: Timestamp | undefined;
  electionDate: Date | undefined;
  readonly #host: ReplHost;
  readonly #options: ReplOptions;
  readonly #members = new Map<string, MemberData>();
  readonly #clients = new Map<string, PeerClient>();
  /** False until replSetInitiate or an initial sync gave this member the set's data (its own start entry is not). */
  #hasData = false;
  #votedFor: { term: bigint; candidateIndex: number } | undefined;
  #lastPrimaryContactMs = Date.now();
  #heartbeatTimer: NodeJS.Timeout | undefined;
  #electionTimer: NodeJS.Timeout | undefined;
  #electing = false;
  /** replSetFreeze / replSetStepDown: this member does not stand before this time. */
  #noElectionBeforeMs = 0;
  #fetcher: Promise<void> | undefined;
  #syncSource: string | undefined;
  /** Aborted to stop the current fetcher (a step-up, a stop, a new sync source). */
  #fetchAbort = new AbortController();
  readonly #waiters = new Set<Waiter>();
  #primaryAddress: string | undefined;
  readonly startedAt = new Date();
  /** Incremented on every state change, so waiting hellos and tests can see one happened. */
  stateChanges = 0;
  /**
   * hello's topologyVersion counter: moves when this member's state, its configuration or the
   * primary it knows changes, and wakes the awaitable hellos of the drivers' streaming monitors
   * (mongod's TopologyCoordinator::incrementTopologyVersion).
   */
  topologyCounter = 0n;
  readonly #topologyWaiters = new Set<() => void>();

  constructor(host: ReplHost, options: ReplOptions) {
    this.#host = host;
    this.#options = options;
    host.changeStreams.majorityVisible = () => timeKey(this.majorityReadPoint.ts);
    host.stopSignal.addEventListener('abort', () => this.#shutdown(), { once: true });
    if (host.storage) {
      host.storage.onDurable = () => {
        if (this.isPrimary) this.#recomputeCommitPoint();
        else this.#reportPosition();
        this.#wake();
      };
    }
  }

  /**
   * A member restarted on its dbpath (mongod with --replSet on a dbpath holding a config): its
   * config, term and vote come back from disk, its data from the checkpoint and journal; it
   * starts as a secondary and catches up from a sync source (or rolls back what the set never
   * committed), with no initial sync unless it never had the set's data.
   */
  restore(persisted: PersistedReplState): void {
    const config = normaliseConfig(persisted.config, this.#options, Number(persisted.config.version ?? 1), Number(persisted.config.term ?? 0));
    if (config._id !== this.#host.setName) {
      throw new Error(`the replica-set config on disk is for set ${config._id}, but this member was started with --replSet ${this.#host.setName}`);
    }
    this.term = persisted.term;
    this.#host.changeStreams.term = persisted.term;
    this.#votedFor = persisted.votedFor;
    this.#hasData = persisted.hasData;
    this.#installConfig(config);
    if (this.selfIndex < 0) return;
    this.#host.logger.info(`repl: ${this.address} restarts with config version ${config.version}, term ${this.term}${this.#hasData ? `, last applied ${formatOpTime(this.lastApplied)}` : ', no data yet'}`);
    this.#setState(this.#hasData ? MemberState.SECONDARY : MemberState.STARTUP2);
    this.#start();
  }

  /** Writes config, term and vote to the dbpath before the member acts on them (mongod's local.system.replset, local.replset.election). */
  #persist(): void {
    const storage = this.#host.storage;
    if (!storage || !this.config) return;
    storage.saveReplState({ config: this.config as unknown as Document, term: this.term, votedFor: this.#votedFor, hasData: this.#hasData });
  }

  /** This member's durable optime: what its journal holds (the applied one without --dbpath, where memory is all there is). */
  get lastDurable(): OpTime {
    const storage = this.#host.storage;
    if (!storage) return this.lastApplied;
    if (!this.#hasData) return NULL_OP_TIME;
    return compareOpTime(storage.durableOpTime, this.lastApplied) <= 0 ? storage.durableOpTime : this.lastApplied;
  }

  /** writeConcernMajorityJournalDefault: w:majority counts durable optimes (true, the default) or applied ones. */
  get #majorityJournals(): boolean {
    return this.config?.writeConcernMajorityJournalDefault !== false;
  }

  get address(): string {
    return this.#host.address;
  }

  get isPrimary(): boolean {
    return this.state === MemberState.PRIMARY;
  }

  get primaryAddress(): string | undefined {
    if (this.isPrimary) return this.address;
    return this.#primaryAddress;
  }

  get electionId(): ObjectId {
    return electionIdForTerm(this.term);
  }

  get electionTimeoutMs(): number {
    return Number(this.config?.settings.electionTimeoutMillis ?? BigInt(this.#options.electionTimeoutMillis ?? DEFAULT_ELECTION_TIMEOUT_MS));
  }

  get heartbeatIntervalMs(): number {
    return Number(this.config?.settings.heartbeatIntervalMillis ?? BigInt(this.#options.heartbeatIntervalMillis ?? DEFAULT_HEARTBEAT_INTERVAL_MS));
  }

  get syncSource(): string | undefined {
    return this.#syncSource;
  }

  /** This member's last applied optime: the last entry of its oplog (none before it holds the set's data). */
  get lastApplied(): OpTime {
    if (!this.#hasData) return NULL_OP_TIME;
    const last = this.#host.changeStreams.oplog.lastRecord?.doc;
    if (!last) return NULL_OP_TIME;
    return { ts: last.ts as Timestamp, t: BigInt(last.t as bigint) };
  }

  get lastAppliedWall(): Date {
    return (this.#host.changeStreams.oplog.lastRecord?.doc.wall as Date | undefined) ?? new Date(0);
  }

  /** The newest optime this member may serve majority reads at: its commit point, capped by what it applied. */
  get majorityReadPoint(): OpTime {
    return compareOpTime(this.commitPoint, this.lastApplied) <= 0 ? this.commitPoint : this.lastApplied;
  }

  stateName(): string {
    return STATE_NAMES[this.state] ?? 'UNKNOWN';
  }

  members(): { config: MemberConfig; data: MemberData | undefined; self: boolean }[] {
    return (this.config?.members ?? []).map((config, index) => ({ config, data: this.#members.get(config.host), self: index === this.selfIndex }));
  }

  /** Hosts the drivers see (hello's `hosts`): members neither hidden nor arbiters nor delayed-hidden. */
  visibleHosts(): string[] {
    return (this.config?.members ?? []).filter((m) => !m.hidden && !m.arbiterOnly).map((m) => m.host);
  }

  // ---------------------------------------------------------------- configuration

  /** replSetInitiate: validates and installs the first configuration, then starts the set's life. */
  initiate(raw: Document | undefined): void {
    if (this.config) throw new CommandError('AlreadyInitialized', 'already initialized');
    const config = normaliseConfig(raw ?? { _id: this.#host.setName, members: [{ _id: 0, host: this.address }] }, this.#options, 1, 0);
    if (config._id !== this.#host.setName) {
      throw new CommandError('InvalidReplicaSetConfig', `Attempting to initiate a replica set with name ${config._id}, but command line reports ${this.#host.setName}; rejecting`);
    }
    const selfIndex = config.members.findIndex((m) => m.host === this.address);
    if (selfIndex < 0) throw new CommandError('InvalidReplicaSetConfig', `No host described in new configuration with {version: ${config.version}, term: ${config.term}} for replica set ${config._id} maps to this node`);
    this.#installConfig(config);
    // The initiating member holds the set's first data: the "initiating set" entry is its oplog
    // (replication_coordinator_external_state_impl.cpp, initializeReplSetStorage).
    this.#host.changeStreams.resetOplog({ op: 'n', ns: '', o: { msg: 'initiating set' }, ts: this.#host.clock.tick(), t: -1n, v: 2n, wall: new Date() });
    this.#hasData = true;
    this.#persist();
    this.#setState(MemberState.SECONDARY);
    this.#start();
    // mongod stands at once when it is the only electable member; with peers, it stands as soon as
    // they have the configuration and answer, rather than after a whole election timeout.
    let attempts = 0;
    const tryStand = () => {
      if (this.isPrimary || this.#primaryAddress || this.#host.stopSignal.aborted || attempts++ > INITIATE_ELECTION_ATTEMPTS) return;
      void this.#standForElection('initiate').finally(() => setTimeout(tryStand, INITIATE_ELECTION_RETRY_MS).unref());
    };
    tryStand();
  }

  /** replSetReconfig: a new version of the configuration, from the primary (force: from any member). */
  reconfig(raw: Document, force: boolean): void {
    if (!this.config) throw new CommandError('NotYetInitialized', 'no replset config has been received');
    if (!force && !this.isPrimary) throw new CommandError('NotWritablePrimary', 'replSetReconfig should only be run on a writable PRIMARY');
    const version = Number(raw.version ?? this.config.version + 1);
    if (version <= this.config.version && !force) {
      throw new CommandError('NewReplicaSetConfigurationIncompatible', `New replica set configuration version must be greater than old, but ${version} is not greater than ${this.config.version} for replset ${this.config._id}`);
    }
    const config = normaliseConfig({ ...raw, version: force ? Math.max(version, this.config.version + 1) : version }, this.#options, version, Number(this.term));
    if (config._id !== this.config._id) throw new CommandError('NewReplicaSetConfigurationIncompatible', 'New and old configurations differ in replica set name');
    config.settings.replicaSetId = this.config.settings.replicaSetId;
    this.#installConfig(config);
  }

  #installConfig(config: ReplSetConfig): void {
    this.config = config;
    this.#persist();
    this.#bumpTopology();
    this.selfIndex = config.members.findIndex((m) => m.host === this.address);
    for (const member of config.members) {
      if (member.host === this.address || this.#members.has(member.host)) continue;
      this.#members.set(member.host, newMemberData());
    }
    for (const host of [...this.#members.keys()]) if (!config.members.some((m) => m.host === host)) this.#members.delete(host);
    if (this.selfIndex < 0) {
      this.#setState(MemberState.REMOVED);
      return;
    }
    if (this.isPrimary && !this.#electable(this.#self())) this.#stepDown('priority 0 in the new configuration');
  }

  #bumpTopology(): void {
    this.topologyCounter += 1n;
    for (const wake of [...this.#topologyWaiters]) wake();
  }

  /** The primary this member knows changed (a heartbeat, a lost primary): streaming hellos answer. */
  #setPrimaryAddress(address: string | undefined): void {
    if (this.#primaryAddress === address) return;
    this.#primaryAddress = address;
    this.#bumpTopology();
  }

  /** An awaitable hello: resolves when the topology counter moves past `counter`, or after `timeoutMs`. */
  waitForTopologyChange(counter: bigint, timeoutMs: number, signals: AbortSignal[]): Promise<void> {
    if (this.topologyCounter !== counter || timeoutMs <= 0 || signals.some((s) => s.aborted)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#topologyWaiters.delete(done);
        for (const s of signals) s.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      for (const s of signals) s.addEventListener('abort', done, { once: true });
      this.#topologyWaiters.add(done);
    });
  }

  #self(): MemberConfig {
    return this.config!.members[this.selfIndex]!;
  }

  #votingMembers(): MemberConfig[] {
    return this.config!.members.filter((m) => m.votes > 0);
  }

  /** mongod's majority of voting members (the count w:majority and elections need). */
  majorityCount(): number {
    return Math.floor(this.#votingMembers().length / 2) + 1;
  }

  #electable(member: MemberConfig): boolean {
    return member.priority > 0 && member.votes > 0 && !member.arbiterOnly && member.secondaryDelaySecs === 0n;
  }

  // ---------------------------------------------------------------- life cycle

  /** Starts heartbeats and the election timer (after initiate, or once a config names this member). */
  #start(): void {
    if (this.#heartbeatTimer) return;
    const beat = () => {
      this.#heartbeatRound();
      this.#heartbeatTimer = setTimeout(beat, this.heartbeatIntervalMs);
      this.#heartbeatTimer.unref();
    };
    beat();
    this.#resetElectionTimer();
    this.#ensureFetcher();
  }

  #shutdown(): void {
    clearTimeout(this.#heartbeatTimer);
    clearTimeout(this.#electionTimer);
    this.#fetchAbort.abort();
    for (const client of this.#clients.values()) client.close();
    for (const waiter of this.#waiters) waiter.resolve(new CommandError('ShutdownInProgress', 'The server is in quiesce mode and will shut down'));
    this.#waiters.clear();
  }

  #setState(state: number): void {
    if (this.state === state) return;
    this.#host.logger.info(`repl: ${this.address} ${STATE_NAMES[this.state]} -> ${STATE_NAMES[state]} (term ${this.term})`);
    this.state = state;
    this.stateChanges += 1;
    this.#bumpTopology();
    this.#wake();
  }

  #client(host: string): PeerClient {
    let client = this.#clients.get(host);
    if (!client) {
      client = new PeerClient(host);
      this.#clients.set(host, client);
    }
    return client;
  }

  // ---------------------------------------------------------------- heartbeats

  #heartbeatRound(): void {
    if (!this.config) return;
    for (const member of this.config.members) {
      if (member.host === this.address) continue;
      void this.#heartbeat(member.host);
    }
    this.#checkPrimaryLiveness();
  }

  async #heartbeat(host: string): Promise<void> {
    const config = this.config;
    const sentMs = Date.now();
    const request: Document = {
      replSetHeartbeat: this.#host.setName,
      configVersion: config?.version ?? -2,
      configTerm: config?.term ?? -1,
      hbv: 1,
      from: this.address,
      fromId: config ? this.#self()?._id ?? -1 : -1,
      term: this.term,
    };
    const data = this.#members.get(host) ?? newMemberData();
    try {
      const reply = await this.#client(host).command('admin', request, Math.max(this.heartbeatIntervalMs, 500));
      if (this.#host.stopSignal.aborted) return;
      this.#onHeartbeatResponse(host, reply, sentMs);
    } catch (error) {
      if (!(error instanceof PeerUnreachable)) this.#host.logger.warn(`repl: heartbeat to ${host}: ${(error as Error).message}`);
      data.health = 0;
      data.state = MemberState.DOWN;
      data.lastHeartbeat = new Date();
      data.message = (error as Error).message;
      if (this.#primaryAddress === host) this.#setPrimaryAddress(undefined);
    }
  }

  #onHeartbeatResponse(host: string, reply: Document, sentMs: number): void {
    if (reply.ok !== 1) return;
    const data = this.#members.get(host);
    const responseTerm = BigInt((reply.term as bigint | number | undefined) ?? -1);
    if (responseTerm > this.term) this.#updateTerm(responseTerm, `heartbeat from ${host}`);
    const config = reply.config as Document | undefined;
    if (config && Number(config.version) > (this.config?.version ?? -1)) {
      const next = normaliseConfig(config, this.#options, Number(config.version), Number(config.term ?? 0));
      if (next.members.some((m) => m.host === this.address)) {
        const uninitiated = !this.config;
        this.#installConfig(next);
        if (uninitiated) {
          this.#host.logger.info(`repl: ${this.address} found its configuration through ${host}`);
          this.#setState(MemberState.STARTUP2);
          this.#start();
        }
      }
    }
    if (!data) return;
    data.health = 1;
    data.state = Number(reply.state ?? MemberState.UNKNOWN);
    data.term = responseTerm;
    data.appliedOpTime = parseOpTime(reply.opTime);
    data.durableOpTime = parseOpTime(reply.durableOpTime ?? reply.opTime);
    data.appliedWallTime = (reply.wallTime as Date | undefined) ?? data.appliedWallTime;
    data.lastHeartbeat = new Date();
    data.lastResponseMs = Date.now();
    data.pingMs = Date.now() - sentMs;
    data.electionTime = reply.electionTime as Timestamp | undefined;
    data.syncSourceHost = String(reply.syncingTo ?? '');
    data.message = '';
    if (data.state === MemberState.PRIMARY && responseTerm >= this.term) {
      if (this.isPrimary && host !== this.address) {
        // Two primaries are never of the same term: the older steps down when it learns of the newer.
        if (responseTerm > this.term || (responseTerm === this.term && host < this.address)) this.#stepDown(`another primary ${host} in term ${responseTerm}`);
      }
      if (!this.isPrimary) {
        this.#setPrimaryAddress(host);
        this.#lastPrimaryContactMs = Date.now();
        // Each heartbeat from the primary restarts the election timer, so it fires an election
        // timeout after the primary was last heard from (replication_coordinator_impl.cpp,
        // _cancelAndRescheduleElectionTimeout_inlock on a primary's heartbeat).
        this.#resetElectionTimer();
      }
      this.#advanceCommitPoint(parseOpTime(reply.lastCommittedOpTime));
    } else if (this.#primaryAddress === host) {
      this.#setPrimaryAddress(undefined);
    }
    if (this.isPrimary) this.#recomputeCommitPoint();
    this.#wake();
  }

  /** replSetHeartbeat on this member: learn the sender's term, hand our config to a member behind. */
  processHeartbeat(request: Document): Document {
    if (request.replSetHeartbeat !== this.#host.setName) {
      throw new CommandError('InconsistentReplicaSetNames', `Our set name of ${this.#host.setName} does not match name ${String(request.replSetHeartbeat)} reported by remote node`);
    }
    const from = String(request.from ?? '');
    const requestTerm = BigInt((request.term as bigint | number | undefined) ?? -1);
    if (requestTerm > this.term) this.#updateTerm(requestTerm, `heartbeat from ${from}`);
    const data = this.#members.get(from);
    if (data) data.lastHeartbeatRecv = new Date();
    // A member whose config is newer than ours (or who names us while we have none) is asked
    // for it at once by a heartbeat back (topology_coordinator.cpp, prepareHeartbeatResponseV1).
    if (Number(request.configVersion ?? -2) > (this.config?.version ?? -1) && from) void this.#heartbeat(from);
    const reply: Document = {
      ok: 1,
      set: this.#host.setName,
      state: this.state,
      term: this.term,
      configVersion: this.config?.version ?? -2,
      configTerm: this.config?.term ?? -1,
      opTime: this.lastApplied,
      wallTime: this.lastAppliedWall,
      durableOpTime: this.lastDurable,
      durableWallTime: this.lastAppliedWall,
      syncingTo: this.#syncSource ?? '',
      lastCommittedOpTime: this.commitPoint,
    };
    if (this.isPrimary && this.electionTime) reply.electionTime = this.electionTime;
    if (this.config && Number(request.configVersion ?? -2) < this.config.version) reply.config = this.config;
    return reply;
  }

  #updateTerm(term: bigint, why: string): void {
    if (term <= this.term) return;
    this.term = term;
    this.#host.changeStreams.term = term;
    this.#persist();
    if (this.isPrimary) this.#stepDown(`a newer term ${term} (${why})`);
  }

  /**
   * A primary that has not heard from a majority of voters for an election timeout steps down
   * (topology_coordinator.cpp, checkMemberTimeouts / the liveness check of _shouldStepDownOnMajorityLoss).
   */
  #checkPrimaryLiveness(): void {
    if (!this.isPrimary || !this.config) return;
    const now = Date.now();
    let live = 0;
    for (const member of this.#votingMembers()) {
      if (member.host === this.address) live += 1;
      else if (now - (this.#members.get(member.host)?.lastResponseMs ?? 0) < this.electionTimeoutMs) live += 1;
    }
    if (live < this.majorityCount() && now - (this.electionDate?.getTime() ?? 0) > this.electionTimeoutMs) {
      this.#stepDown('it can no longer see a majority of the set');
    }
  }

  // ---------------------------------------------------------------- elections

  #resetElectionTimer(): void {
    clearTimeout(this.#electionTimer);
    if (!this.config || this.selfIndex < 0) return;
    const timeout = this.electionTimeoutMs;
    const offset = Math.floor(Math.random() * timeout * ELECTION_TIMEOUT_OFFSET_FRACTION);
    this.#electionTimer = setTimeout(() => {
      if (!this.isPrimary && Date.now() - this.#lastPrimaryContactMs >= timeout) void this.#standForElection('electionTimeout');
      this.#resetElectionTimer();
    }, timeout + offset);
    this.#electionTimer.unref();
  }

  /** replSetFreeze: no election before `secs` from now (0 unfreezes). */
  freeze(secs: number): Document {
    if (this.isPrimary) throw new CommandError('NotSecondary', 'cannot freeze node when primary or running for election. state: Primary');
    this.#noElectionBeforeMs = secs === 0 ? 0 : Date.now() + secs * 1000;
    return secs === 0 ? { info: 'unfreezing' } : {};
  }

  /**
   * One election (replication_coordinator_impl_elect_v1.cpp): a dry run at the current term, then
   * the real vote at term + 1; a majority of voters, this member included, makes it primary.
   */
  async #standForElection(reason: string): Promise<void> {
    if (this.#electing || !this.config || this.isPrimary || this.state !== MemberState.SECONDARY) return;
    if (!this.#electable(this.#self()) || Date.now() < this.#noElectionBeforeMs) return;
    this.#electing = true;
    try {
      if (!(await this.#requestVotes(true, this.term))) return;
      if (this.isPrimary || this.state !== MemberState.SECONDARY) return;
      const term = this.term + 1n;
      this.#updateTerm(term, 'standing for election');
      this.#votedFor = { term, candidateIndex: this.selfIndex };
      this.#persist();
      if (!(await this.#requestVotes(false, term))) return;
      if (this.term !== term || this.state !== MemberState.SECONDARY) return;
      this.#becomePrimary(reason);
    } finally {
      this.#electing = false;
    }
  }

  async #requestVotes(dryRun: boolean, term: bigint): Promise<boolean> {
    const config = this.config!;
    const lastApplied = this.lastApplied;
    const voters = this.#votingMembers().filter((m) => m.host !== this.address);
    const needed = this.majorityCount() - (this.#self().votes > 0 ? 1 : 0);
    if (needed <= 0) return true;
    const request = { replSetRequestVotes: 1, setName: config._id, dryRun, term, candidateIndex: this.selfIndex, configVersion: config.version, configTerm: config.term, lastAppliedOpTime: lastApplied };
    return new Promise((resolve) => {
      let granted = 0;
      let answered = 0;
      const timeoutMs = this.electionTimeoutMs;
      for (const voter of voters) {
        this.#client(voter.host)
          .command('admin', request, timeoutMs)
          .then(
            (reply) => {
              const replyTerm = BigInt((reply.term as bigint | number | undefined) ?? -1);
              if (replyTerm > this.term) this.#updateTerm(replyTerm, `vote reply from ${voter.host}`);
              if (reply.voteGranted === true) granted += 1;
            },
            () => undefined,
          )
          .finally(() => {
            answered += 1;
            if (granted >= needed) resolve(true);
            else if (answered === voters.length) resolve(false);
          });
      }
    });
  }

  /** replSetRequestVotes on a voter (topology_coordinator.cpp, processReplSetRequestVotes). */
  processRequestVotes(request: Document): Document {
    const term = BigInt(request.term as bigint | number);
    const dryRun = request.dryRun === true;
    const candidateIndex = Number(request.candidateIndex);
    const reply = (voteGranted: boolean, reason: string) => ({ term: this.term, voteGranted, reason });
    if (!this.config || this.selfIndex < 0) return reply(false, 'this member has no configuration');
    if (request.setName !== this.config._id) return reply(false, `candidate's set name (${String(request.setName)}) differs from mine (${this.config._id})`);
    if (term < this.term) return reply(false, `candidate's term (${term}) is lower than mine (${this.term})`);
    if (Number(request.configVersion) < this.config.version) return reply(false, `candidate's config version (${String(request.configVersion)}) is lower than mine`);
    const candidateOpTime = parseOpTime(request.lastAppliedOpTime);
    if (compareOpTime(candidateOpTime, this.lastApplied) < 0) {
      return reply(false, `candidate's data is staler than mine. candidate's last applied OpTime: ${formatOpTime(candidateOpTime)}, my last applied OpTime: ${formatOpTime(this.lastApplied)}`);
    }
    if (!dryRun && term > this.term) this.#updateTerm(term, 'a vote request');
    if (!dryRun && this.#votedFor && this.#votedFor.term === term && this.#votedFor.candidateIndex !== candidateIndex) {
      return reply(false, `already voted for another candidate (${this.config.members[this.#votedFor.candidateIndex]?.host}) this term (${term})`);
    }
    if (!dryRun && term === this.term && this.isPrimary) return reply(false, 'I am the primary of this term');
    if (!dryRun) {
      this.#votedFor = { term, candidateIndex };
      this.#persist();
      // Granting a vote restarts the election timer, so voters do not stand against the candidate.
      this.#lastPrimaryContactMs = Date.now();
      this.#resetElectionTimer();
    }
    return reply(true, '');
  }

  #becomePrimary(reason: string): void {
    this.#stopFetcher();
    this.#setPrimaryAddress(undefined);
    this.electionTime = this.#host.clock.now();
    this.electionDate = new Date();
    this.#setState(MemberState.PRIMARY);
    this.#host.changeStreams.term = this.term;
    // A new primary's first entry is a no-op of its term (replication_coordinator_external_state_impl.cpp,
    // onTransitionToPrimary: "new primary"); its majority commit opens the commit point of the term.
    this.#host.changeStreams.recordNoop('new primary');
    this.electionTime = this.lastApplied.ts;
    this.#host.logger.info(`repl: ${this.address} is PRIMARY in term ${this.term} (${reason})`);
    this.#recomputeCommitPoint();
  }

  /**
   * Leaves PRIMARY: open transactions are aborted, write-concern waits end with PrimarySteppedDown,
   * and the member follows the new primary (replication_coordinator_impl.cpp, stepDown and
   * _updateMemberStateFromTopologyCoordinator).
   */
  #stepDown(why: string): void {
    if (!this.isPrimary) return;
    this.#host.logger.info(`repl: ${this.address} steps down: ${why}`);
    this.#setState(MemberState.SECONDARY);
    this.#host.transactions.abandonSessions('all');
    this.#lastPrimaryContactMs = Date.now();
    this.#resetElectionTimer();
    for (const waiter of this.#waiters) waiter.resolve('steppedDown');
    this.#waiters.clear();
    this.#ensureFetcher();
  }

  /**
   * replSetStepDown: waits up to `secondaryCatchUpPeriodSecs` for an electable secondary to have
   * caught up (unless `force`), then steps down and does not stand for `secs`.
   */
  async stepDown(options: { secs: number; catchUpSecs: number; force: boolean }, signals: AbortSignal[]): Promise<void> {
    if (!this.isPrimary) throw new CommandError('NotWritablePrimary', 'not primary so can\'t step down');
    if (options.catchUpSecs > options.secs) throw new CommandError('BadValue', 'stepdown period must be longer than secondaryCatchUpPeriodSecs');
    const target = this.lastApplied;
    const caughtUp = () => this.members().some(({ config, data, self }) => !self && data?.health === 1 && this.#electable(config) && compareOpTime(data.appliedOpTime, target) >= 0);
    if (!caughtUp()) {
      const outcome = await this.#waitUntil(caughtUp, options.catchUpSecs * 1000, signals);
      if (outcome !== 'ready' && !options.force) {
        throw new CommandError('ExceededTimeLimit', 'No electable secondaries caught up as of ' + new Date().toISOString() + '. Please use the replSetStepDown command with the argument {force: true} to force node to step down.');
      }
    }
    if (!this.isPrimary) return;
    this.#noElectionBeforeMs = Date.now() + options.secs * 1000;
    this.#stepDown('replSetStepDown');
    // An electable, caught-up secondary is asked to stand at once (mongod's stepdown hands off the
    // same way: replSetStepUp to the most caught-up electable member, _performElectionHandoff).
    const handoff = this.members().find(({ config, data, self }) => !self && data?.health === 1 && this.#electable(config) && compareOpTime(data.appliedOpTime, target) >= 0);
    if (handoff) void this.#client(handoff.config.host).command('admin', { replSetStepUp: 1, skipDryRun: true }, this.electionTimeoutMs).catch(() => undefined);
  }

  /** replSetStepUp: stand for election now (the step-down hand-off, or a test's request). */
  async stepUp(): Promise<void> {
    if (this.isPrimary) return;
    if (this.state !== MemberState.SECONDARY) throw new CommandError('NotSecondary', 'This node is not in a state to step up');
    await this.#standForElection('stepUp');
    if (!this.isPrimary) throw new CommandError('CommandFailed', 'Election failed.');
  }

  // ---------------------------------------------------------------- commit point, write concern

  /** replSetUpdatePosition from a member that syncs from us: its applied and durable optimes. */
  processUpdatePosition(request: Document): void {
    for (const item of (request.optimes as Document[] | undefined) ?? []) {
      const member = this.config?.members.find((m) => m._id === Number(item.memberId));
      if (!member || member.host === this.address) continue;
      const data = this.#members.get(member.host);
      if (!data) continue;
      data.appliedOpTime = maxOpTime(data.appliedOpTime, parseOpTime(item.appliedOpTime));
      data.durableOpTime = maxOpTime(data.durableOpTime, parseOpTime(item.durableOpTime));
      if (item.appliedWallTime instanceof Date) data.appliedWallTime = item.appliedWallTime;
      data.lastResponseMs = Date.now();
      data.health = 1;
    }
    if (this.isPrimary) this.#recomputeCommitPoint();
    this.#wake();
  }

  /**
   * The commit point on the primary: the newest optime of this term that a majority of voting
   * members hold durably (topology_coordinator.cpp, updateLastCommittedOpTimeAndWallTime: it uses
   * each member's durable optime, since writeConcernMajorityJournalDefault is true).
   */
  #recomputeCommitPoint(): void {
    if (!this.isPrimary || !this.config) return;
    // writeConcernMajorityJournalDefault false: the commit point counts applied optimes (what
    // may be lost to a whole-set power loss, as mongod documents it).
    const journals = this.#majorityJournals;
    const optimes = this.#votingMembers().map((m) => {
      if (m.host === this.address) return journals ? this.lastDurable : this.lastApplied;
      const data = this.#members.get(m.host);
      return (journals ? data?.durableOpTime : data?.appliedOpTime) ?? NULL_OP_TIME;
    });
    optimes.sort((a, b) => compareOpTime(b, a));
    const candidate = optimes[this.majorityCount() - 1] ?? NULL_OP_TIME;
    // Only an optime of the primary's own term commits (Raft's rule; mongod's "new primary" no-op).
    if (candidate.t === this.term) this.#advanceCommitPoint(candidate);
  }

  #advanceCommitPoint(opTime: OpTime): void {
    if (compareOpTime(opTime, this.commitPoint) > 0) {
      this.commitPoint = opTime;
      this.#wake();
    }
  }

  /**
   * How many members (this one included) hold `opTime`: durably when the write concern journals
   * (j: true, and w:majority, which writeConcernMajorityJournalDefault makes journaled), applied
   * otherwise, as replication_coordinator_impl.cpp's _doneWaitingForReplication_inlock
   * (useDurableOpTime = syncMode == JOURNAL). A member here reports its durable optime equal to its
   * applied one (no journal: an entry is durable, in memory, once applied).
   */
  #membersAt(opTime: OpTime, durable: boolean): number {
    let count = 0;
    for (const member of this.config?.members ?? []) {
      const data = this.#members.get(member.host);
      const at = member.host === this.address ? (durable ? this.lastDurable : this.lastApplied) : durable ? data?.durableOpTime : data?.appliedOpTime;
      if (at && compareOpTime(at, opTime) >= 0) count += 1;
    }
    return count;
  }

  /**
   * Waits for a write concern after a write at `opTime` (replication_coordinator_impl.cpp,
   * _awaitReplication_inlock / _doneWaitingForReplication_inlock); returns the writeConcernError
   * the reply carries, or undefined once satisfied.
   */
  async awaitWriteConcern(writeConcern: Document, opTime: OpTime, signals: AbortSignal[]): Promise<Document | undefined> {
    const w = writeConcern.w ?? 'majority';
    const j = writeConcern.j === true || writeConcern.j === 1 ? true : writeConcern.j === false || writeConcern.j === 0 ? false : undefined;
    if (w === 0 || w === 0n) return undefined;
    if ((w === 1 || w === 1n) && j !== true) return undefined;
    if (!this.isPrimary) return steppedDownError();
    this.#recomputeCommitPoint();
    let ready: () => boolean;
    if (w === 1 || w === 1n) {
      // w:1, j:true: this member's own journal (mongod waits for its JournalFlusher).
      this.#host.storage?.requestFlush();
      ready = () => compareOpTime(this.lastDurable, opTime) >= 0;
    } else if (w === 'majority') {
      // write_concern.cpp: a majority write journals when writeConcernMajorityJournalDefault is
      // true and j is not given; j:true always journals.
      const durable = j === true || (j === undefined && this.#majorityJournals);
      if (durable) this.#host.storage?.requestFlush();
      ready = () => compareOpTime(this.commitPoint, opTime) >= 0 && this.#membersAt(opTime, durable) >= this.majorityCount();
    } else if (typeof w === 'number' || typeof w === 'bigint') {
      const needed = Number(w);
      if (needed > (this.config?.members.length ?? 1)) {
        return { code: 100, codeName: 'UnsatisfiableWriteConcern', errmsg: 'Not enough data-bearing nodes', errInfo: { writeConcern: provenance(writeConcern) } };
      }
      const journaled = j === true;
      if (journaled) this.#host.storage?.requestFlush();
      ready = () => this.#membersAt(opTime, journaled) >= needed;
    } else {
      return { code: 79, codeName: 'UnknownReplWriteConcern', errmsg: `No write concern mode named '${String(w)}' found in replica set configuration`, errInfo: { writeConcern: provenance(writeConcern) } };
    }
    const wtimeout = Number(writeConcern.wtimeout ?? writeConcern.wtimeoutMS ?? 0);
    const outcome = await this.#waitUntil(ready, wtimeout > 0 ? wtimeout : Number.POSITIVE_INFINITY, signals);
    if (outcome === 'ready') return undefined;
    if (outcome === 'steppedDown') return steppedDownError();
    if (outcome === 'timeout') {
      return { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true, writeConcern: provenance(writeConcern) } };
    }
    throw outcome;
  }

  /**
   * A read's readConcern on this member: waits until it has applied `afterClusterTime` (majority:
   * until its commit point has), bounded by `deadlineMs` (maxTimeMS: MaxTimeMSExpired).
   */
  async awaitReadConcern(readConcern: Document, deadlineMs: number | undefined, signals: AbortSignal[]): Promise<void> {
    const after = readConcern.afterClusterTime ?? readConcern.afterOpTime;
    if (!(after instanceof Timestamp) && readConcern.level !== 'majority') return;
    const majority = readConcern.level === 'majority' || readConcern.level === 'snapshot';
    const target = after instanceof Timestamp ? after : undefined;
    const ready = () => {
      const point = majority ? this.majorityReadPoint : this.lastApplied;
      return target === undefined ? true : !target.greaterThan(point.ts);
    };
    if (ready()) return;
    // A primary behind the asked time writes a no-op to reach it (read_concern_mongod.cpp,
    // makeNoopWriteIfNeeded: "noop write for afterClusterTime read concern").
    if (this.isPrimary && !majority) this.#host.changeStreams.recordNoop('noop write for afterClusterTime read concern');
    if (ready()) return;
    // A secondary asked for a time past every entry it holds waits briefly (it may only lag),
    // then asks the primary for a no-op at or past that time (appendOplogNote), which reaches it
    // through replication: read_concern_mongod.cpp, makeNoopWriteIfNeeded
    // (waitForSecondaryBeforeNoopWriteMS, 10 ms by default). mongod compares with the member's
    // last written optime; here fetched entries are applied at once unless a fail point holds
    // them, so the last applied one stands in for it (a held member asks for a harmless no-op).
    if (!this.isPrimary && target !== undefined && target.greaterThan(this.lastApplied.ts)) {
      const settled = await this.#waitUntil(() => !target.greaterThan(this.lastApplied.ts), WAIT_FOR_SECONDARY_BEFORE_NOOP_WRITE_MS, signals);
      const primary = this.#primaryAddress;
      if (settled !== 'ready' && primary !== undefined) {
        void this.#client(primary)
          .command('admin', { appendOplogNote: 1, data: { 'noop write for afterClusterTime read concern': 1 } }, PEER_COMMAND_TIMEOUT_MS)
          .catch(() => undefined);
      }
      if (ready()) return;
    }
    const outcome = await this.#waitUntil(ready, deadlineMs === undefined ? Number.POSITIVE_INFINITY : deadlineMs - Date.now(), signals);
    if (outcome === 'ready') return;
    if (outcome === 'timeout') throw new CommandError('MaxTimeMSExpired', 'operation exceeded time limit');
    if (outcome === 'steppedDown') return;
    throw outcome;
  }

  #waitUntil(ready: () => boolean, timeoutMs: number, signals: AbortSignal[]): Promise<'ready' | 'timeout' | 'steppedDown' | CommandError> {
    if (ready()) return Promise.resolve('ready');
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (outcome: 'ready' | 'timeout' | 'steppedDown' | CommandError) => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
        for (const s of signals) s.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const onAbort = () => finish(new CommandError('Interrupted', 'operation was interrupted'));
      const waiter: Waiter = { ready, resolve: (error) => finish(error ?? 'ready') };
      if (Number.isFinite(timeoutMs)) timer = setTimeout(() => finish('timeout'), Math.max(0, timeoutMs));
      for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
      this.#waiters.add(waiter);
    });
  }

  /** Re-checks every waiter (after an apply, a position update, a commit point move). */
  #wake(): void {
    this.#host.changeStreams.commitPointAdvanced();
    for (const waiter of [...this.#waiters]) if (waiter.ready()) waiter.resolve();
  }


  // ---------------------------------------------------------------- the oplog fetcher

  /** The member to sync from: the primary when known and ahead, else the most advanced healthy member. */
  #chooseSyncSource(): string | undefined {
    const primary = this.#primaryAddress;
    if (primary && this.#members.get(primary)?.health === 1) return primary;
    let best: { host: string; opTime: OpTime } | undefined;
    for (const [host, data] of this.#members) {
      if (data.health !== 1 || (data.state !== MemberState.PRIMARY && data.state !== MemberState.SECONDARY)) continue;
      if (compareOpTime(data.appliedOpTime, this.lastApplied) <= 0 && this.state !== MemberState.STARTUP2) continue;
      if (!best || compareOpTime(data.appliedOpTime, best.opTime) > 0) best = { host, opTime: data.appliedOpTime };
    }
    return best?.host;
  }

  #ensureFetcher(): void {
    if (this.#fetcher || this.isPrimary || this.#host.stopSignal.aborted) return;
    this.#fetchAbort = new AbortController();
    const signal = this.#fetchAbort.signal;
    this.#fetcher = this.#fetchLoop(signal).finally(() => {
      this.#fetcher = undefined;
      this.#syncSource = undefined;
      if (!signal.aborted) this.#ensureFetcher();
    });
  }

  #stopFetcher(): void {
    this.#fetchAbort.abort();
  }

  async #fetchLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && !this.isPrimary) {
      const source = this.#chooseSyncSource();
      if (!source) {
        await delay(Math.min(this.heartbeatIntervalMs, 200), signal);
        continue;
      }
      this.#syncSource = source;
      const client = new PeerClient(source);
      try {
        if (this.state === MemberState.STARTUP2) await this.#initialSync(client, signal);
        else await this.#tail(client, source, signal);
      } catch (error) {
        if (!(error instanceof PeerUnreachable) && !signal.aborted) this.#host.logger.warn(`repl: ${this.address} syncing from ${source}: ${(error as Error).message}`);
        await delay(FETCH_RETRY_MS, signal);
      } finally {
        client.close();
        this.#syncSource = undefined;
      }
    }
  }

  /**
   * Tails the sync source's oplog from our last entry (oplog_fetcher.cpp): the first entry
   * returned must be our last one; if the source no longer has it, we are too stale (a new initial
   * sync); if it has a different entry there, our history diverged (rollback).
   */
  async #tail(client: PeerClient, source: string, signal: AbortSignal): Promise<void> {
    const last = this.lastApplied;
    while (this.#host.failPoints.replicationStopped('stopReplProducer')) {
      await delay(50, signal);
      if (signal.aborted) return;
    }
    const reply = await client.command('local', { find: 'oplog.rs', filter: { ts: { $gte: last.ts } }, tailable: true, awaitData: true, batchSize: FETCH_BATCH_ENTRIES }, this.electionTimeoutMs + FETCH_AWAIT_MS);
    if (reply.ok !== 1) throw new Error(`find on the oplog failed: ${String(reply.errmsg)}`);
    const cursor = reply.cursor as Document;
    let batch = cursor.firstBatch as Document[];
    const first = batch[0];
    if (!first || !(first.ts as Timestamp).equals(last.ts) || BigInt(first.t as bigint) !== last.t) {
      await this.#onDivergence(client, source, signal);
      return;
    }
    batch = batch.slice(1);
    const id = cursor.id as bigint;
    try {
      await this.#follow(client, source, id, batch, signal);
    } finally {
      // The source drops the cursor now rather than after its idle timeout.
      if (id !== 0n) await client.command('local', { killCursors: 'oplog.rs', cursors: [id] }, KILL_CURSOR_TIMEOUT_MS).catch(() => undefined);
    }
  }

  async #follow(client: PeerClient, source: string, id: bigint, first: Document[], signal: AbortSignal): Promise<void> {
    let batch = first;
    for (;;) {
      // stopReplProducer drops what was fetched, as mongod's oplog fetcher does with its batch.
      if (this.#host.failPoints.replicationStopped('stopReplProducer')) return;
      await this.#applyBatch(batch, signal);
      if (signal.aborted || id === 0n || this.isPrimary) return;
      if (this.#chooseSyncSource() !== source) return;
      if (this.#host.failPoints.replicationStopped('stopReplProducer')) return;
      const more = await client.command('local', { getMore: id, collection: 'oplog.rs', batchSize: FETCH_BATCH_ENTRIES, maxTimeMS: FETCH_AWAIT_MS }, this.electionTimeoutMs + FETCH_AWAIT_MS);
      if (more.ok !== 1) throw new Error(`getMore on the oplog failed: ${String(more.errmsg)}`);
      const replData = more.$replData as Document | undefined;
      if (replData) this.#processReplData(replData);
      batch = (more.cursor as Document).nextBatch as Document[];
    }
  }

  /**
   * The metadata of a batch fetched from the sync source (data_replicator_external_state_impl.cpp,
   * DataReplicatorExternalStateImpl::processMetadata): the commit point advances, and a source that
   * names a primary postpones the election timer (cancelAndRescheduleElectionTimeout), so a
   * secondary that keeps fetching does not stand while the primary lives, whatever the heartbeat
   * interval is against the election timeout.
   */
  #processReplData(replData: Document): void {
    this.#advanceCommitPoint(parseOpTime(replData.lastOpCommitted));
    if (Number(replData.primaryIndex ?? -1) < 0 || this.isPrimary || BigInt((replData.term as bigint | number | undefined) ?? -1) < this.term) return;
    this.#lastPrimaryContactMs = Date.now();
    this.#resetElectionTimer();
  }

  async #applyBatch(batch: Document[], signal: AbortSignal, idempotent = false): Promise<void> {
    if (batch.length === 0) return;
    const delaySecs = this.config && this.selfIndex >= 0 ? Number(this.#self().secondaryDelaySecs) : 0;
    for (const entry of batch) {
      while (this.#host.failPoints.replicationStopped('rsSyncApplyStop')) {
        await delay(50, signal);
        if (signal.aborted) return;
      }
      if (delaySecs > 0) {
        const dueMs = (entry.wall as Date).getTime() + delaySecs * 1000;
        if (dueMs > Date.now()) await delay(dueMs - Date.now(), signal);
      }
      if (signal.aborted || this.isPrimary) return;
      applyEntry(this.#host, entry, idempotent);
      this.#host.clock.advanceTo(entry.ts as Timestamp);
    }
    // The batch goes to the journal at once rather than at the next commit interval, as mongod's
    // secondaries do (sync_tail.cpp, ApplyBatchFinalizerForJournal: waitUntilDurable after each
    // batch, then the durable optime moves); the position is reported again when the flush
    // lands (storage.onDurable).
    this.#host.storage?.requestFlush();
    this.#wake();
    this.#reportPosition();
  }

  /** replSetUpdatePosition to the primary (and our sync source): our applied and durable optimes. */
  #reportPosition(): void {
    if (!this.config || this.selfIndex < 0) return;
    const applied = this.lastApplied;
    const request = {
      replSetUpdatePosition: 1,
      optimes: [{ appliedOpTime: applied, appliedWallTime: this.lastAppliedWall, durableOpTime: this.lastDurable, durableWallTime: this.lastAppliedWall, memberId: this.#self()._id, cfgver: this.config.version }],
    };
    const targets = new Set([this.#syncSource, this.#primaryAddress].filter((h): h is string => !!h));
    for (const host of targets) void this.#client(host).command('admin', request, this.electionTimeoutMs).catch(() => undefined);
  }

  /**
   * Initial sync (initial_syncer.cpp, in short): note the source's last entry, clone every
   * collection with its options and indexes, start our oplog at that entry, then apply what the
   * source wrote during the clone in idempotent mode. Retryable-write records are not cloned.
   */
  async #initialSync(client: PeerClient, signal: AbortSignal): Promise<void> {
    const host = this.#host;
    const latest = await client.command('local', { find: 'oplog.rs', sort: { $natural: -1 }, limit: 1, singleBatch: true }, this.electionTimeoutMs);
    const begin = ((latest.cursor as Document | undefined)?.firstBatch as Document[] | undefined)?.[0];
    if (!begin) throw new Error('the sync source has no oplog yet');
    host.logger.info(`repl: ${this.address} initial sync from ${client.address} at ${String(begin.ts)}`);
    host.changeStreams.quiet(() => {
      host.transactions.abandonSessions('all');
      host.sessions.clear();
      for (const db of host.catalog.listDatabaseNames()) host.catalog.dropDatabase(db);
    });
    const dbs = await client.command('admin', { listDatabases: 1, nameOnly: true }, this.electionTimeoutMs);
    for (const { name } of (dbs.databases as Document[]) ?? []) {
      if (name === 'local' || signal.aborted) continue;
      const listed = await client.command(String(name), { listCollections: 1 }, this.electionTimeoutMs);
      const infos = ((listed.cursor as Document).firstBatch as Document[]).filter((c) => !String(c.name).startsWith('system.'));
      for (const info of infos) await this.#cloneCollection(client, String(name), info);
    }
    if (signal.aborted) return;
    host.changeStreams.resetOplog(begin);
    host.clock.advanceTo(begin.ts as Timestamp);
    this.#hasData = true;
    // Replays what the source wrote while we cloned: the clone may already hold some of it.
    const reply = await client.command('local', { find: 'oplog.rs', filter: { ts: { $gt: begin.ts } }, batchSize: 1_000_000 }, this.electionTimeoutMs);
    await this.#applyBatch(((reply.cursor as Document).firstBatch as Document[]) ?? [], signal, true);
    if (signal.aborted) return;
    this.#hasData = true;
    this.#persist();
    this.#setState(MemberState.SECONDARY);
    this.#reportPosition();
  }

  async #cloneCollection(client: PeerClient, db: string, info: Document): Promise<void> {
    const host = this.#host;
    const name = String(info.name);
    const options = { ...((info.options as Document | undefined) ?? {}) };
    if (info.type === 'view') {
      host.changeStreams.quiet(() => host.catalog.createView(db, name, { viewOn: String(options.viewOn), pipeline: (options.pipeline as Document[]) ?? [] } as never));
      return;
    }
    const indexes = await client.command(db, { listIndexes: name }, this.electionTimeoutMs);
    const specs = ((indexes.cursor as Document).firstBatch as Document[]).filter((spec) => spec.name !== '_id_').map(({ v: _v, ...spec }) => spec);
    host.changeStreams.quiet(() => {
      const collection = host.catalog.createCollection(db, name, options);
      if (specs.length > 0) collection.createIndexes(specs as never[]);
    });
    let reply = await client.command(db, { find: name, batchSize: CLONE_BATCH_DOCS }, this.electionTimeoutMs);
    for (;;) {
      const cursor = reply.cursor as Document;
      const docs = (cursor.firstBatch ?? cursor.nextBatch) as Document[];
      host.changeStreams.quiet(() => {
        const collection = host.catalog.getOrCreateCollection(db, name);
        collection.withoutValidation(() => {
          for (const doc of docs) collection.insertOne(doc);
        });
      });
      if (cursor.id === 0n) return;
      reply = await client.command(db, { getMore: cursor.id, collection: name, batchSize: CLONE_BATCH_DOCS }, this.electionTimeoutMs);
    }
  }

  /**
   * Our last entry is not the source's: too stale (the source's oplog starts after it) means a new
   * initial sync; otherwise our newest entries were never majority-committed and are rolled back
   * (rollback_impl.cpp): the documents they wrote are saved under the rollback directory as
   * <db>.<coll>/removed.<time>.bson (mongod's rollback files), connections are closed, and the
   * member re-syncs from the source, which brings its data back to the common point and beyond.
   */
  async #onDivergence(client: PeerClient, source: string, signal: AbortSignal): Promise<void> {
    const ours = this.#host.changeStreams.oplog.records().map((r) => r.doc);
    const reply = await client.command('local', { find: 'oplog.rs', filter: { ts: { $gte: ours[0]!.ts } }, projection: { ts: 1, t: 1 }, batchSize: 1_000_000 }, this.electionTimeoutMs);
    const theirs = new Set((((reply.cursor as Document).firstBatch as Document[]) ?? []).map((d) => `${String(d.ts)}/${String(d.t)}`));
    let common = ours.length - 1;
    while (common >= 0 && !theirs.has(`${String(ours[common]!.ts)}/${String(ours[common]!.t)}`)) common -= 1;
    if (common < 0) {
      this.#host.logger.warn(`repl: ${this.address} is too stale to sync from ${source}: a new initial sync`);
    } else {
      const rolledBack = ours.slice(common + 1);
      this.#setState(MemberState.ROLLBACK);
      this.#host.closeClientConnections();
      this.#writeRollbackFiles(rolledBack);
      this.#host.logger.warn(`repl: ${this.address} rolls back ${rolledBack.length} entries after ${String(ours[common]!.ts)} (common point with ${source})`);
    }
    if (signal.aborted) return;
    this.#setState(MemberState.STARTUP2);
    await this.#initialSync(client, signal);
  }

  #writeRollbackFiles(entries: Document[]): void {
    const byNs = new Map<string, Document[]>();
    const visit = (op: Document) => {
      if (op.op === 'c' && Array.isArray((op.o as Document).applyOps)) {
        for (const inner of (op.o as Document).applyOps as Document[]) visit(inner);
        return;
      }
      if (op.op !== 'i' && op.op !== 'u' && op.op !== 'd') return;
      const ns = String(op.ns);
      const dot = ns.indexOf('.');
      const key = (op.o2 as Document | undefined) ?? { _id: (op.o as Document)._id };
      const current = this.#host.catalog.getCollection(ns.slice(0, dot), ns.slice(dot + 1))?.find(key, { limit: 1 })[0];
      // A delete's document is gone here too; mongod saves what it can refetch, we save its key.
      const saved = current ?? (op.op === 'd' ? (op.o as Document) : undefined);
      if (!saved) return;
      const list = byNs.get(ns) ?? [];
      if (!list.some((d) => JSON.stringify(d._id) === JSON.stringify(saved._id))) list.push(saved);
      byNs.set(ns, list);
    };
    for (const entry of entries) visit(entry);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    for (const [ns, docs] of byNs) {
      const dir = join(this.#options.rollbackDir, ns);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `removed.${stamp}.bson`), Buffer.concat(docs.map((d) => serialize(d))));
    }
    this.rollbackCount += 1;
  }

  /** How many rollbacks this member went through (serverStatus repl.rollback). */
  rollbackCount = 0;

  get rollbackDir(): string {
    return this.#options.rollbackDir;
  }

  /** The getMore reply's $replData a fetcher reads the commit point from (oplog_fetcher.cpp). */
  replData(): Document {
    // primaryIndex names the primary this member knows (rpc::ReplSetMetadata), itself or another.
    const primary = this.primaryAddress;
    const primaryIndex = primary === undefined ? -1 : (this.config?.members.findIndex((m) => m.host === primary) ?? -1);
    return { term: this.term, lastOpCommitted: this.commitPoint, lastOpVisible: this.lastApplied, configVersion: this.config?.version ?? -2, primaryIndex, syncSourceIndex: -1 };
  }
}

/** An optime as mongod logs it: { ts: Timestamp(s, i), t: n }. */
function formatOpTime(opTime: OpTime): string {
  return `{ ts: Timestamp(${opTime.ts.high}, ${opTime.ts.low}), t: ${opTime.t} }`;
}

function newMemberData(): MemberData {
  return {
    state: MemberState.UNKNOWN,
    health: 0,
    term: -1n,
    appliedOpTime: NULL_OP_TIME,
    durableOpTime: NULL_OP_TIME,
    appliedWallTime: new Date(0),
    lastHeartbeat: undefined,
    lastHeartbeatRecv: undefined,
    lastResponseMs: 0,
    pingMs: 0,
    electionTime: undefined,
    syncSourceHost: '',
    message: '',
  };
}

/** A configuration with mongod's defaults filled in (repl_set_config.idl, member_config.idl). */
export function normaliseConfig(raw: Document, options: Pick<ReplOptions, 'electionTimeoutMillis' | 'heartbeatIntervalMillis'>, version: number, term: number): ReplSetConfig {
  if (!Array.isArray(raw.members) || raw.members.length === 0) throw new CommandError('InvalidReplicaSetConfig', 'Replica set configuration must contain at least one member');
  const settings = (raw.settings as Document | undefined) ?? {};
  const members = (raw.members as Document[]).map((m, index) => {
    if (typeof m.host !== 'string') throw new CommandError('InvalidReplicaSetConfig', `member ${index} has no host`);
    const hidden = m.hidden === true;
    const priority = m.priority === undefined ? (hidden ? 0 : 1) : Number(m.priority);
    if (hidden && priority !== 0) throw new CommandError('InvalidReplicaSetConfig', 'priority must be 0 when hidden=true');
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
  });
  return {
    _id: String(raw._id),
    version: Number(raw.version ?? version),
    term: Number(raw.term ?? term),
    members,
    protocolVersion: 1n,
    writeConcernMajorityJournalDefault: raw.writeConcernMajorityJournalDefault !== false,
    settings: {
      chainingAllowed: true,
      heartbeatIntervalMillis: BigInt((settings.heartbeatIntervalMillis ?? options.heartbeatIntervalMillis ?? DEFAULT_HEARTBEAT_INTERVAL_MS) as number),
      heartbeatTimeoutSecs: 10,
      electionTimeoutMillis: BigInt((settings.electionTimeoutMillis ?? options.electionTimeoutMillis ?? DEFAULT_ELECTION_TIMEOUT_MS) as number),
      catchUpTimeoutMillis: -1,
      catchUpTakeoverDelayMillis: 30000,
      getLastErrorModes: {},
      getLastErrorDefaults: { w: 1, wtimeout: 0 },
      replicaSetId: settings.replicaSetId instanceof ObjectId ? settings.replicaSetId : new ObjectId(),
    },
  };
}

function provenance(writeConcern: Document): Document {
  return { ...writeConcern, wtimeout: writeConcern.wtimeout ?? 0, provenance: writeConcern.provenance ?? 'clientSupplied' };
}

/**
 * The writeConcernError of a write whose wait a step-down ended: mongod's step-down kills every
 * operation that took the global lock for writing, including ones waiting for write concern
 * (replication_coordinator_impl.cpp, _killConflictingOpsOnStepUpAndStepDown).
 */
function steppedDownError(): Document {
  return { code: 11602, codeName: 'InterruptedDueToReplStateChange', errmsg: 'operation was interrupted' };
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export { DEFAULT_CATCH_UP_SECS, DEFAULT_STEP_DOWN_SECS };
