// One member of a replica set: its state, term and configuration, the commit point, and the waits
// of write and read concerns, as mongod's replication_coordinator_impl.cpp keeps them. The other
// pieces follow mongod's seams and reach this one through narrow host interfaces:
//   TopologyCoordinator.ts  heartbeats, the primary it follows, votes, elections (topology_coordinator.cpp)
//   OplogFetcher.ts         the sync source's oplog, tailed (oplog_fetcher.cpp)
//   OplogApplier.ts         fetched entries applied (oplog_applier_impl.cpp)
//   InitialSyncer.ts        a clone of the source's data (initial_syncer.cpp)
//   Rollback.ts             entries the set never committed, saved and undone (rollback_impl.cpp)
//   replicationWaits.ts     write and read concern waits (replication_coordinator_impl.cpp, read_concern_mongod.cpp)
//   TopologyVersion.ts      hello's topologyVersion and the awaitable hellos waiting on it
// Where the emulator is simpler than mongod each file says so, and the README too.
//
// A one-node emulator has no coordinator at all (ServerState.repl is undefined), so the single
// node's hot path pays nothing for any of this.
import type { ObjectId, Timestamp } from 'bson';
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import type { PersistedReplState } from '../storage/Storage.ts';
import { timeKey } from '../changes/resumeToken.ts';
import { InitialSyncer } from './InitialSyncer.ts';
import { MemberState, memberStateName } from './memberState.ts';
import { OplogApplier } from './OplogApplier.ts';
import { OplogFetcher } from './OplogFetcher.ts';
import { compareOpTime, electionIdForTerm, formatOpTime, NULL_OP_TIME, type OpTime } from './opTime.ts';
import { PeerClient, PeerPool } from './PeerClient.ts';
import type { ReplHost, ReplOptions } from './replHost.ts';
import { ReplicationWaits } from './replicationWaits.ts';
import {
  configForInitiate,
  configForReconfig,
  DEFAULT_ELECTION_TIMEOUT_MS,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  isElectable,
  majorityCount,
  normaliseConfig,
  type ReplSetConfig,
} from './replSetConfig.ts';
import { Rollback } from './Rollback.ts';
import { TopologyCoordinator, type MemberView } from './TopologyCoordinator.ts';
import { TopologyVersion } from './TopologyVersion.ts';

/** replSetStepDown's default secondaryCatchUpPeriodSecs. */
export const DEFAULT_CATCH_UP_SECS = 10;
/** replSetStepDown's default `secs`: how long the old primary may not stand again. */
export const DEFAULT_STEP_DOWN_SECS = 60;

export class ReplCoordinator {
  readonly #host: ReplHost;
  readonly #options: ReplOptions;
  readonly #startedAt = new Date();
  #state: number = MemberState.STARTUP;
  #term = 0n;
  #config: ReplSetConfig | undefined;
  #selfIndex = -1;
  /** The latest optime known majority-committed (the commit point). */
  #commitPoint: OpTime = NULL_OP_TIME;
  #electionTime: Timestamp | undefined;
  #electionDate: Date | undefined;
  /** False until replSetInitiate or an initial sync gave this member the set's data (its own start entry is not). */
  #hasData = false;
  /** Incremented on every state change, so waiting hellos and tests can see one happened. */
  #stateChanges = 0;
  /** hello's topologyVersion counter (TopologyVersion.ts). */
  readonly #topologyVersion = new TopologyVersion();
  readonly #peers = new PeerPool();
  readonly #topology: TopologyCoordinator;
  readonly #fetcher: OplogFetcher;
  readonly #applier: OplogApplier;
  readonly #initialSyncer: InitialSyncer;
  readonly #rollback: Rollback;
  readonly #waits: ReplicationWaits;

  constructor(host: ReplHost, options: ReplOptions) {
    this.#host = host;
    this.#options = options;
    this.#waits = this.#newWaits(host);
    this.#topology = this.#newTopology(host);
    this.#applier = this.#newApplier(host);
    this.#initialSyncer = this.#newInitialSyncer(host);
    this.#rollback = this.#newRollback(host);
    this.#fetcher = this.#newFetcher(host);
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

  /** The write and read concern waits, reading the member through closures. */
  #newWaits(host: ReplHost): ReplicationWaits {
    return new ReplicationWaits({
      server: host,
      state: () => this.#state,
      memberCount: () => this.#config?.members.length ?? 1,
      majorityCount: () => this.majorityCount(),
      majorityJournals: () => this.#majorityJournals,
      lastApplied: () => this.lastApplied,
      lastDurable: () => this.lastDurable,
      majorityReadPoint: () => this.majorityReadPoint,
      commitPoint: () => this.#commitPoint,
      primaryAddress: () => this.#topology.primaryAddress,
      peer: (peer) => this.#peers.get(peer),
      recomputeCommitPoint: () => this.#recomputeCommitPoint(),
      membersAt: (opTime, durable) =>
        this.#topology.membersAt(opTime, durable, { applied: this.lastApplied, durable: this.lastDurable }),
    });
  }

  /** The topology, with the coordinator as its host: state, term and config are read here, changed here. */
  #newTopology(host: ReplHost): TopologyCoordinator {
    return new TopologyCoordinator({
      address: host.address,
      setName: host.setName,
      logger: host.logger,
      stopSignal: host.stopSignal,
      config: () => this.#config,
      selfIndex: () => this.#selfIndex,
      term: () => this.#term,
      state: () => this.#state,
      electionDate: () => this.#electionDate,
      electionTimeoutMs: () => this.electionTimeoutMs,
      heartbeatIntervalMs: () => this.heartbeatIntervalMs,
      position: () => ({
        applied: this.lastApplied,
        appliedWall: this.lastAppliedWall,
        durable: this.lastDurable,
        commitPoint: this.#commitPoint,
        syncSource: this.syncSource,
        electionTime: this.#electionTime,
      }),
      peer: (peer) => this.#peers.get(peer),
      updateTerm: (term, why) => this.#updateTerm(term, why),
      adoptConfig: (raw, from) => this.#adoptConfig(raw, from),
      persist: () => this.#persist(),
      becomePrimary: (reason) => this.#becomePrimary(reason),
      stepDown: (why) => this.#stepDown(why),
      advanceCommitPoint: (opTime) => this.#advanceCommitPoint(opTime),
      membersChanged: () => {
        if (this.isPrimary) this.#recomputeCommitPoint();
        this.#wake();
      },
      primaryChanged: () => this.#bumpTopology(),
    });
  }

  /** The applier: after each batch, waiters re-check and the position is reported. */
  #newApplier(host: ReplHost): OplogApplier {
    return new OplogApplier({
      server: host,
      secondaryDelaySecs: () =>
        this.#config && this.#selfIndex >= 0 ? Number(this.#config.members[this.#selfIndex]!.secondaryDelaySecs) : 0,
      isPrimary: () => this.isPrimary,
      batchApplied: () => {
        this.#wake();
        this.#reportPosition();
      },
    });
  }

  /** The initial syncer: the member holds data from the oplog reset on, and is a secondary once the replay is done. */
  #newInitialSyncer(host: ReplHost): InitialSyncer {
    return new InitialSyncer({
      server: host,
      electionTimeoutMs: () => this.electionTimeoutMs,
      applyBatch: (batch, signal, idempotent) => this.#applier.applyBatch(batch, signal, idempotent),
      markHasData: () => {
        this.#hasData = true;
      },
      finished: () => {
        this.#hasData = true;
        this.#persist();
        this.#setState(MemberState.SECONDARY);
        this.#reportPosition();
      },
    });
  }

  /** Rollback, followed by an initial sync from the same source. */
  #newRollback(host: ReplHost): Rollback {
    return new Rollback({
      server: host,
      rollbackDir: this.#options.rollbackDir,
      electionTimeoutMs: () => this.electionTimeoutMs,
      setState: (state) => this.#setState(state),
      initialSync: (source, signal) => this.#initialSyncer.run(source, signal),
    });
  }

  /** The fetcher: sync source from the topology, batches to the applier, divergence to rollback. */
  #newFetcher(host: ReplHost): OplogFetcher {
    return new OplogFetcher({
      address: host.address,
      logger: host.logger,
      stopSignal: host.stopSignal,
      producerStopped: () => host.failPoints.replicationStopped('stopReplProducer'),
      state: () => this.#state,
      lastApplied: () => this.lastApplied,
      term: () => this.#term,
      electionTimeoutMs: () => this.electionTimeoutMs,
      heartbeatIntervalMs: () => this.heartbeatIntervalMs,
      chooseSyncSource: () => this.#topology.chooseSyncSource(this.lastApplied),
      connect: (source) => new PeerClient(source),
      applyBatch: (batch, signal) => this.#applier.applyBatch(batch, signal),
      initialSync: (source, signal) => this.#initialSyncer.run(source, signal),
      onDivergence: (source, signal) => this.#rollback.onDivergence(source, signal),
      advanceCommitPoint: (opTime) => this.#advanceCommitPoint(opTime),
      postponeElection: () => this.#topology.postponeElection(),
    });
  }

  /**
   * A member restarted on its dbpath (mongod with --replSet on a dbpath holding a config): its
   * config, term and vote come back from disk, its data from the checkpoint and journal; it
   * starts as a secondary and catches up from a sync source (or rolls back what the set never
   * committed), with no initial sync unless it never had the set's data.
   */
  restore(persisted: PersistedReplState): void {
    const config = normaliseConfig(
      persisted.config,
      this.#options,
      Number(persisted.config.version ?? 1),
      Number(persisted.config.term ?? 0),
    );
    if (config._id !== this.#host.setName) {
      throw new Error(
        `the replica-set config on disk is for set ${config._id}, but this member was started with --replSet ${this.#host.setName}`,
      );
    }
    this.#term = persisted.term;
    this.#host.changeStreams.term = persisted.term;
    this.#topology.restoreVote(persisted.votedFor);
    this.#hasData = persisted.hasData;
    this.#installConfig(config);
    if (this.#selfIndex < 0) return;
    this.#host.logger.info(
      `repl: ${this.address} restarts with config version ${config.version}, term ${this.#term}${this.#hasData ? `, last applied ${formatOpTime(this.lastApplied)}` : ', no data yet'}`,
    );
    this.#setState(this.#hasData ? MemberState.SECONDARY : MemberState.STARTUP2);
    this.#start();
  }

  /** Writes config, term and vote to the dbpath before the member acts on them (mongod's local.system.replset, local.replset.election). */
  #persist(): void {
    const storage = this.#host.storage;
    if (!storage || !this.#config) return;
    storage.saveReplState({
      config: this.#config as unknown as Document,
      term: this.#term,
      votedFor: this.#topology.votedFor,
      hasData: this.#hasData,
    });
  }

  // ---------------------------------------------------------------- what the member is

  get state(): number {
    return this.#state;
  }

  get term(): bigint {
    return this.#term;
  }

  get config(): Readonly<ReplSetConfig> | undefined {
    return this.#config;
  }

  get selfIndex(): number {
    return this.#selfIndex;
  }

  /** The latest optime known majority-committed (the commit point). */
  get commitPoint(): OpTime {
    return this.#commitPoint;
  }

  get electionTime(): Timestamp | undefined {
    return this.#electionTime;
  }

  get electionDate(): Date | undefined {
    return this.#electionDate;
  }

  get startedAt(): Date {
    return this.#startedAt;
  }

  /** How many times this member's state changed (waiting hellos and tests watch it). */
  get stateChanges(): number {
    return this.#stateChanges;
  }

  /** hello's topologyVersion counter. */
  get topologyCounter(): bigint {
    return this.#topologyVersion.counter;
  }

  /** How many rollbacks this member went through (serverStatus repl.rbid). */
  get rollbackCount(): number {
    return this.#rollback.count;
  }

  get rollbackDir(): string {
    return this.#options.rollbackDir;
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
    return this.#config?.writeConcernMajorityJournalDefault !== false;
  }

  get address(): string {
    return this.#host.address;
  }

  get isPrimary(): boolean {
    return this.#state === MemberState.PRIMARY;
  }

  get primaryAddress(): string | undefined {
    if (this.isPrimary) return this.address;
    return this.#topology.primaryAddress;
  }

  get electionId(): ObjectId {
    return electionIdForTerm(this.#term);
  }

  get electionTimeoutMs(): number {
    return Number(
      this.#config?.settings.electionTimeoutMillis ??
        BigInt(this.#options.electionTimeoutMillis ?? DEFAULT_ELECTION_TIMEOUT_MS),
    );
  }

  get heartbeatIntervalMs(): number {
    return Number(
      this.#config?.settings.heartbeatIntervalMillis ??
        BigInt(this.#options.heartbeatIntervalMillis ?? DEFAULT_HEARTBEAT_INTERVAL_MS),
    );
  }

  get syncSource(): string | undefined {
    return this.#fetcher.syncSource;
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
    return compareOpTime(this.#commitPoint, this.lastApplied) <= 0 ? this.#commitPoint : this.lastApplied;
  }

  stateName(): string {
    return memberStateName(this.#state);
  }

  members(): MemberView[] {
    return this.#topology.members();
  }

  /** Hosts the drivers see (hello's `hosts`): members neither hidden nor arbiters nor delayed-hidden. */
  visibleHosts(): string[] {
    return (this.#config?.members ?? []).filter((m) => !m.hidden && !m.arbiterOnly).map((m) => m.host);
  }

  /** mongod's majority of voting members (the count w:majority and elections need). */
  majorityCount(): number {
    return majorityCount(this.#config!);
  }

  // ---------------------------------------------------------------- configuration

  /** replSetInitiate: validates and installs the first configuration, then starts the set's life. */
  initiate(raw: Document | undefined): void {
    if (this.#config) throw new CommandError('AlreadyInitialized', 'already initialized');
    const config = configForInitiate(raw, this.#host.setName, this.address, this.#options);
    this.#installConfig(config);
    // The initiating member holds the set's first data: the "initiating set" entry is its oplog
    // (replication_coordinator_external_state_impl.cpp, initializeReplSetStorage).
    this.#host.changeStreams.resetOplog({
      op: 'n',
      ns: '',
      o: { msg: 'initiating set' },
      ts: this.#host.clock.tick(),
      t: -1n,
      v: 2n,
      wall: new Date(),
    });
    this.#hasData = true;
    this.#persist();
    this.#setState(MemberState.SECONDARY);
    this.#start();
    this.#topology.standAfterInitiate();
  }

  /** replSetReconfig: a new version of the configuration, from the primary (force: from any member). */
  reconfig(raw: Document, force: boolean): void {
    const current = this.#config;
    if (!current) throw new CommandError('NotYetInitialized', 'no replset config has been received');
    if (!force && !this.isPrimary)
      throw new CommandError('NotWritablePrimary', 'replSetReconfig should only be run on a writable PRIMARY');
    const config = configForReconfig(current, raw, force, this.#term, this.#options);
    this.#installConfig(config);
  }

  /** A heartbeat reply carried a newer configuration: install it if it names us; an uninitiated member starts its life here. */
  #adoptConfig(raw: Document, from: string): void {
    const next = normaliseConfig(raw, this.#options, Number(raw.version), Number(raw.term ?? 0));
    if (!next.members.some((m) => m.host === this.address)) return;
    const uninitiated = !this.#config;
    this.#installConfig(next);
    if (!uninitiated) return;
    this.#host.logger.info(`repl: ${this.address} found its configuration through ${from}`);
    this.#setState(MemberState.STARTUP2);
    this.#start();
  }

  #installConfig(config: ReplSetConfig): void {
    this.#config = config;
    this.#persist();
    this.#bumpTopology();
    this.#selfIndex = config.members.findIndex((m) => m.host === this.address);
    this.#topology.onConfigInstalled(config);
    if (this.#selfIndex < 0) {
      this.#setState(MemberState.REMOVED);
      return;
    }
    if (this.isPrimary && !isElectable(config.members[this.#selfIndex]!))
      this.#stepDown('priority 0 in the new configuration');
  }

  #bumpTopology(): void {
    this.#topologyVersion.bump();
  }

  /** An awaitable hello: resolves when the topology counter moves past `counter`, or after `timeoutMs`. */
  waitForTopologyChange(counter: bigint, timeoutMs: number, signals: AbortSignal[]): Promise<void> {
    return this.#topologyVersion.waitForChange(counter, timeoutMs, signals);
  }

  // ---------------------------------------------------------------- life cycle, state, term

  /** Starts heartbeats, the election timer and the fetcher (after initiate, or once a config names this member). */
  #start(): void {
    this.#topology.start();
    this.#fetcher.start();
  }

  #shutdown(): void {
    this.#topology.stop();
    this.#fetcher.stop();
    this.#peers.closeAll();
    this.#waits.endAll(new CommandError('ShutdownInProgress', 'The server is in quiesce mode and will shut down'));
  }

  #setState(state: number): void {
    if (this.#state === state) return;
    this.#host.logger.info(
      `repl: ${this.address} ${memberStateName(this.#state)} -> ${memberStateName(state)} (term ${this.#term})`,
    );
    this.#state = state;
    this.#stateChanges += 1;
    this.#bumpTopology();
    this.#wake();
  }

  #updateTerm(term: bigint, why: string): void {
    if (term <= this.#term) return;
    this.#term = term;
    this.#host.changeStreams.term = term;
    this.#persist();
    if (this.isPrimary) this.#stepDown(`a newer term ${term} (${why})`);
  }

  // ---------------------------------------------------------------- elections won and lost

  /** replSetHeartbeat on this member. */
  processHeartbeat(request: Document): Document {
    return this.#topology.processHeartbeat(request);
  }

  /** replSetRequestVotes on this member. */
  processRequestVotes(request: Document): Document {
    return this.#topology.processRequestVotes(request);
  }

  /** replSetFreeze: no election before `secs` from now (0 unfreezes). */
  freeze(secs: number): Document {
    return this.#topology.freeze(secs);
  }

  #becomePrimary(reason: string): void {
    this.#fetcher.stop();
    this.#topology.clearPrimary();
    this.#electionTime = this.#host.clock.now();
    this.#electionDate = new Date();
    this.#setState(MemberState.PRIMARY);
    this.#host.changeStreams.term = this.#term;
    // A new primary's first entry is a no-op of its term (replication_coordinator_external_state_impl.cpp,
    // onTransitionToPrimary: "new primary"); its majority commit opens the commit point of the term.
    this.#host.changeStreams.recordNoop('new primary');
    this.#electionTime = this.lastApplied.ts;
    this.#host.logger.info(`repl: ${this.address} is PRIMARY in term ${this.#term} (${reason})`);
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
    this.#topology.postponeElection();
    this.#waits.endAll('steppedDown');
    this.#fetcher.start();
  }

  /**
   * replSetStepDown: waits up to `secondaryCatchUpPeriodSecs` for an electable secondary to have
   * caught up (unless `force`), then steps down and does not stand for `secs`.
   */
  async stepDown(
    options: { secs: number; catchUpSecs: number; force: boolean },
    signals: AbortSignal[],
  ): Promise<void> {
    if (!this.isPrimary) throw new CommandError('NotWritablePrimary', "not primary so can't step down");
    if (options.catchUpSecs > options.secs)
      throw new CommandError('BadValue', 'stepdown period must be longer than secondaryCatchUpPeriodSecs');
    const target = this.lastApplied;
    const caughtUp = () => this.#topology.caughtUpElectable(target) !== undefined;
    if (!caughtUp()) {
      const outcome = await this.#waits.waitUntil(caughtUp, options.catchUpSecs * 1000, signals);
      if (outcome !== 'ready' && !options.force) {
        throw new CommandError(
          'ExceededTimeLimit',
          'No electable secondaries caught up as of ' +
            new Date().toISOString() +
            '. Please use the replSetStepDown command with the argument {force: true} to force node to step down.',
        );
      }
    }
    if (!this.isPrimary) return;
    this.#topology.noElectionFor(options.secs * 1000);
    this.#stepDown('replSetStepDown');
    // An electable, caught-up secondary is asked to stand at once (mongod's stepdown hands off the
    // same way: replSetStepUp to the most caught-up electable member, _performElectionHandoff).
    const handoff = this.#topology.caughtUpElectable(target);
    if (handoff)
      void this.#peers
        .get(handoff.host)
        .command('admin', { replSetStepUp: 1, skipDryRun: true }, this.electionTimeoutMs)
        .catch(() => undefined);
  }

  /** replSetStepUp: stand for election now (the step-down hand-off, or a test's request). */
  async stepUp(): Promise<void> {
    if (this.isPrimary) return;
    if (this.#state !== MemberState.SECONDARY)
      throw new CommandError('NotSecondary', 'This node is not in a state to step up');
    await this.#topology.standForElection('stepUp');
    if (!this.isPrimary) throw new CommandError('CommandFailed', 'Election failed.');
  }

  // ---------------------------------------------------------------- commit point, positions, waits

  /** replSetUpdatePosition from a member that syncs from us: its applied and durable optimes. */
  processUpdatePosition(request: Document): void {
    this.#topology.recordPositions((request.optimes as Document[] | undefined) ?? []);
    if (this.isPrimary) this.#recomputeCommitPoint();
    this.#wake();
  }

  /**
   * The commit point on the primary: the newest optime of this term that a majority of voting
   * members hold durably (topology_coordinator.cpp, updateLastCommittedOpTimeAndWallTime: it uses
   * each member's durable optime, since writeConcernMajorityJournalDefault is true).
   */
  #recomputeCommitPoint(): void {
    if (!this.isPrimary || !this.#config) return;
    // writeConcernMajorityJournalDefault false: the commit point counts applied optimes (what
    // may be lost to a whole-set power loss, as mongod documents it).
    const candidate = this.#topology.majorityOpTime(
      { applied: this.lastApplied, durable: this.lastDurable },
      this.#majorityJournals,
    );
    // Only an optime of the primary's own term commits (Raft's rule; mongod's "new primary" no-op).
    if (candidate.t === this.#term) this.#advanceCommitPoint(candidate);
  }

  #advanceCommitPoint(opTime: OpTime): void {
    if (compareOpTime(opTime, this.#commitPoint) > 0) {
      this.#commitPoint = opTime;
      this.#wake();
    }
  }

  /** Waits for a write concern after a write at `opTime`; returns the writeConcernError the reply carries, or undefined. */
  awaitWriteConcern(writeConcern: Document, opTime: OpTime, signals: AbortSignal[]): Promise<Document | undefined> {
    return this.#waits.awaitWriteConcern(writeConcern, opTime, signals);
  }

  /** Waits until a read's readConcern is satisfied here, bounded by `deadlineMs`. */
  awaitReadConcern(readConcern: Document, deadlineMs: number | undefined, signals: AbortSignal[]): Promise<void> {
    return this.#waits.awaitReadConcern(readConcern, deadlineMs, signals);
  }

  /** Re-checks every waiter (after an apply, a position update, a commit point move). */
  #wake(): void {
    this.#host.changeStreams.commitPointAdvanced();
    this.#waits.wake();
  }

  /** replSetUpdatePosition to the primary (and our sync source): our applied and durable optimes (mongod's reporter.cpp). */
  #reportPosition(): void {
    if (!this.#config || this.#selfIndex < 0) return;
    const applied = this.lastApplied;
    const self = this.#config.members[this.#selfIndex]!;
    const request = {
      replSetUpdatePosition: 1,
      optimes: [
        {
          appliedOpTime: applied,
          appliedWallTime: this.lastAppliedWall,
          durableOpTime: this.lastDurable,
          durableWallTime: this.lastAppliedWall,
          memberId: self._id,
          cfgver: this.#config.version,
        },
      ],
    };
    const targets = new Set([this.syncSource, this.#topology.primaryAddress].filter((h): h is string => !!h));
    for (const host of targets)
      void this.#peers
        .get(host)
        .command('admin', request, this.electionTimeoutMs)
        .catch(() => undefined);
  }

  /** The getMore reply's $replData a fetcher reads the commit point from (oplog_fetcher.cpp). */
  replData(): Document {
    // primaryIndex names the primary this member knows (rpc::ReplSetMetadata), itself or another.
    const primary = this.primaryAddress;
    const primaryIndex =
      primary === undefined ? -1 : (this.#config?.members.findIndex((m) => m.host === primary) ?? -1);
    return {
      term: this.#term,
      lastOpCommitted: this.#commitPoint,
      lastOpVisible: this.lastApplied,
      configVersion: this.#config?.version ?? -2,
      primaryIndex,
      syncSourceIndex: -1,
    };
  }
}
