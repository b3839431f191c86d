// What a member knows of the others and how it decides elections: the heartbeats it sends and
// answers, the primary it follows, its vote, the election timer and the elections it runs.
// The decisions follow mongod's topology_coordinator.cpp (processHeartbeatResponse,
// prepareHeartbeatResponseV1, processReplSetRequestVotes, chooseNewSyncSource, the commit point
// of updateLastCommittedOpTimeAndWallTime); the scheduling, which mongod keeps in
// replication_coordinator_impl_heartbeat.cpp and replication_coordinator_impl_elect_v1.cpp (with
// vote_requester.cpp), lives here too, beside the state it reads. State, term and configuration
// belong to the coordinator (ReplCoordinator.ts), reached through TopologyHost.
import type { Timestamp } from 'bson';
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { MemberState } from './memberState.ts';
import { compareOpTime, formatOpTime, maxOpTime, NULL_OP_TIME, parseOpTime, type OpTime } from './opTime.ts';
import { PeerUnreachable, type PeerCommander } from './PeerClient.ts';
import { isElectable, majorityCount, votingMembers, type MemberConfig, type ReplSetConfig } from './replSetConfig.ts';

/** mongod's electionTimeoutOffsetLimitFraction: the timeout is randomised by up to 15% of itself. */
const ELECTION_TIMEOUT_OFFSET_FRACTION = 0.15;
/** A heartbeat waits at least this long for its answer, however short the heartbeat interval. */
const HEARTBEAT_TIMEOUT_MIN_MS = 500;
/** After replSetInitiate the member stands this often until its peers vote (they need the config first). */
const INITIATE_ELECTION_RETRY_MS = 50;
const INITIATE_ELECTION_ATTEMPTS = 200;

/** What this member knows of another from its heartbeats (topology_coordinator.cpp's MemberData). */
export interface MemberData {
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

/** One member as replSetGetStatus lists it: its configuration and what we know of it. */
export interface MemberView {
  config: MemberConfig;
  data: Readonly<MemberData> | undefined;
  self: boolean;
}

/** This member's own position, as its heartbeat replies carry it. */
export interface SelfPosition {
  applied: OpTime;
  appliedWall: Date;
  durable: OpTime;
  commitPoint: OpTime;
  syncSource: string | undefined;
  electionTime: Timestamp | undefined;
}

/** The coordinator as the topology sees it: state, term and configuration, and the changes it may ask for. */
export interface TopologyHost {
  readonly address: string;
  readonly setName: string;
  readonly logger: { info(message: string): void; warn(message: string): void };
  readonly stopSignal: AbortSignal;
  config(): ReplSetConfig | undefined;
  selfIndex(): number;
  term(): bigint;
  state(): number;
  electionDate(): Date | undefined;
  electionTimeoutMs(): number;
  heartbeatIntervalMs(): number;
  position(): SelfPosition;
  /** Connection to a peer (one per peer for the member's life). */
  peer(host: string): PeerCommander;
  updateTerm(term: bigint, why: string): void;
  /** A heartbeat reply carried a newer configuration. */
  adoptConfig(raw: Document, from: string): void;
  /** Config, term and vote to disk before the member acts on them. */
  persist(): void;
  becomePrimary(reason: string): void;
  stepDown(why: string): void;
  advanceCommitPoint(opTime: OpTime): void;
  /** What we know of the others moved (a heartbeat, a position): commit point and waiters re-check. */
  membersChanged(): void;
  /** The primary this member knows changed: streaming hellos answer. */
  primaryChanged(): void;
}

export class TopologyCoordinator {
  readonly #host: TopologyHost;
  readonly #members = new Map<string, MemberData>();
  #votedFor: { term: bigint; candidateIndex: number } | undefined;
  #primaryAddress: string | undefined;
  #lastPrimaryContactMs = Date.now();
  /** replSetFreeze / replSetStepDown: this member does not stand before this time. */
  #noElectionBeforeMs = 0;
  #electing = false;
  #heartbeatTimer: NodeJS.Timeout | undefined;
  #electionTimer: NodeJS.Timeout | undefined;

  constructor(host: TopologyHost) {
    this.#host = host;
  }

  /** The primary this member follows, as heartbeats told it (not itself). */
  get primaryAddress(): string | undefined {
    return this.#primaryAddress;
  }

  /** The vote this member cast last (kept on disk with the term). */
  get votedFor(): Readonly<{ term: bigint; candidateIndex: number }> | undefined {
    return this.#votedFor;
  }

  /** A restarted member's vote, from its dbpath. */
  restoreVote(votedFor: { term: bigint; candidateIndex: number } | undefined): void {
    this.#votedFor = votedFor;
  }

  member(host: string): Readonly<MemberData> | undefined {
    return this.#members.get(host);
  }

  members(): MemberView[] {
    const config = this.#host.config();
    const selfIndex = this.#host.selfIndex();
    return (config?.members ?? []).map((member, index) => ({
      config: member,
      data: this.#members.get(member.host),
      self: index === selfIndex,
    }));
  }

  /** A configuration was installed: a table entry for every other member it names, none for those it drops. */
  onConfigInstalled(config: ReplSetConfig): void {
    for (const member of config.members) {
      if (member.host === this.#host.address || this.#members.has(member.host)) continue;
      this.#members.set(member.host, newMemberData());
    }
    for (const host of [...this.#members.keys()])
      if (!config.members.some((m) => m.host === host)) this.#members.delete(host);
  }

  /** Starts heartbeats and the election timer (after initiate, or once a config names this member). */
  start(): void {
    if (this.#heartbeatTimer) return;
    const beat = () => {
      this.#heartbeatRound();
      this.#heartbeatTimer = setTimeout(beat, this.#host.heartbeatIntervalMs());
      this.#heartbeatTimer.unref();
    };
    beat();
    this.resetElectionTimer();
  }

  stop(): void {
    clearTimeout(this.#heartbeatTimer);
    clearTimeout(this.#electionTimer);
  }

  #isPrimary(): boolean {
    return this.#host.state() === MemberState.PRIMARY;
  }

  #self(): MemberConfig | undefined {
    return this.#host.config()?.members[this.#host.selfIndex()];
  }

  #setPrimaryAddress(address: string | undefined): void {
    if (this.#primaryAddress === address) return;
    this.#primaryAddress = address;
    this.#host.primaryChanged();
  }

  /** This member became primary: it follows nobody. */
  clearPrimary(): void {
    this.#setPrimaryAddress(undefined);
  }

  // ---------------------------------------------------------------- heartbeats

  #heartbeatRound(): void {
    const config = this.#host.config();
    if (!config) return;
    for (const member of config.members) {
      if (member.host === this.#host.address) continue;
      void this.#heartbeat(member.host);
    }
    this.checkPrimaryLiveness();
  }

  async #heartbeat(host: string): Promise<void> {
    const config = this.#host.config();
    const sentMs = Date.now();
    const request: Document = {
      replSetHeartbeat: this.#host.setName,
      configVersion: config?.version ?? -2,
      configTerm: config?.term ?? -1,
      hbv: 1,
      from: this.#host.address,
      fromId: config ? (this.#self()?._id ?? -1) : -1,
      term: this.#host.term(),
    };
    const data = this.#members.get(host) ?? newMemberData();
    try {
      const timeoutMs = Math.max(this.#host.heartbeatIntervalMs(), HEARTBEAT_TIMEOUT_MIN_MS);
      const reply = await this.#host.peer(host).command('admin', request, timeoutMs);
      if (this.#host.stopSignal.aborted) return;
      this.onHeartbeatResponse(host, reply, sentMs);
    } catch (error) {
      if (!(error instanceof PeerUnreachable))
        this.#host.logger.warn(`repl: heartbeat to ${host}: ${(error as Error).message}`);
      data.health = 0;
      data.state = MemberState.DOWN;
      data.lastHeartbeat = new Date();
      data.message = (error as Error).message;
      if (this.#primaryAddress === host) this.#setPrimaryAddress(undefined);
    }
  }

  /** A heartbeat's answer (topology_coordinator.cpp, processHeartbeatResponse). */
  onHeartbeatResponse(host: string, reply: Document, sentMs: number): void {
    if (reply.ok !== 1) return;
    // Read before a configuration the reply carries is adopted: a member we did not know yet is
    // recorded from its next heartbeat.
    const data = this.#members.get(host);
    const responseTerm = BigInt((reply.term as bigint | number | undefined) ?? -1);
    if (responseTerm > this.#host.term()) this.#host.updateTerm(responseTerm, `heartbeat from ${host}`);
    const config = reply.config as Document | undefined;
    if (config && Number(config.version) > (this.#host.config()?.version ?? -1)) this.#host.adoptConfig(config, host);
    if (!data) return;
    recordHeartbeat(data, reply, responseTerm, sentMs);
    if (data.state === MemberState.PRIMARY && responseTerm >= this.#host.term())
      this.#onPrimaryHeartbeat(host, responseTerm, reply);
    else if (this.#primaryAddress === host) this.#setPrimaryAddress(undefined);
    this.#host.membersChanged();
  }

  #onPrimaryHeartbeat(host: string, responseTerm: bigint, reply: Document): void {
    const term = this.#host.term();
    if (this.#isPrimary() && host !== this.#host.address) {
      // Two primaries are never of the same term: the older steps down when it learns of the newer.
      if (responseTerm > term || (responseTerm === term && host < this.#host.address))
        this.#host.stepDown(`another primary ${host} in term ${responseTerm}`);
    }
    if (!this.#isPrimary()) {
      this.#setPrimaryAddress(host);
      // Each heartbeat from the primary restarts the election timer, so it fires an election
      // timeout after the primary was last heard from (replication_coordinator_impl.cpp,
      // _cancelAndRescheduleElectionTimeout_inlock on a primary's heartbeat).
      this.postponeElection();
    }
    this.#host.advanceCommitPoint(parseOpTime(reply.lastCommittedOpTime));
  }

  /** replSetHeartbeat on this member: learn the sender's term, hand our config to a member behind. */
  processHeartbeat(request: Document): Document {
    const setName = this.#host.setName;
    if (request.replSetHeartbeat !== setName) {
      throw new CommandError(
        'InconsistentReplicaSetNames',
        `Our set name of ${setName} does not match name ${String(request.replSetHeartbeat)} reported by remote node`,
      );
    }
    const from = String(request.from ?? '');
    const requestTerm = BigInt((request.term as bigint | number | undefined) ?? -1);
    if (requestTerm > this.#host.term()) this.#host.updateTerm(requestTerm, `heartbeat from ${from}`);
    const data = this.#members.get(from);
    if (data) data.lastHeartbeatRecv = new Date();
    const config = this.#host.config();
    const theirVersion = Number(request.configVersion ?? -2);
    // A member whose config is newer than ours (or who names us while we have none) is asked
    // for it at once by a heartbeat back (topology_coordinator.cpp, prepareHeartbeatResponseV1).
    if (theirVersion > (config?.version ?? -1) && from) void this.#heartbeat(from);
    const position = this.#host.position();
    const reply: Document = {
      ok: 1,
      set: setName,
      state: this.#host.state(),
      term: this.#host.term(),
      configVersion: config?.version ?? -2,
      configTerm: config?.term ?? -1,
      opTime: position.applied,
      wallTime: position.appliedWall,
      durableOpTime: position.durable,
      durableWallTime: position.appliedWall,
      syncingTo: position.syncSource ?? '',
      lastCommittedOpTime: position.commitPoint,
    };
    if (this.#isPrimary() && position.electionTime) reply.electionTime = position.electionTime;
    if (config && theirVersion < config.version) reply.config = config;
    return reply;
  }

  /** replSetUpdatePosition from a member that syncs from us: its applied and durable optimes. */
  recordPositions(optimes: Document[]): void {
    const config = this.#host.config();
    for (const item of optimes) {
      const member = config?.members.find((m) => m._id === Number(item.memberId));
      if (!member || member.host === this.#host.address) continue;
      const data = this.#members.get(member.host);
      if (!data) continue;
      data.appliedOpTime = maxOpTime(data.appliedOpTime, parseOpTime(item.appliedOpTime));
      data.durableOpTime = maxOpTime(data.durableOpTime, parseOpTime(item.durableOpTime));
      if (item.appliedWallTime instanceof Date) data.appliedWallTime = item.appliedWallTime;
      data.lastResponseMs = Date.now();
      data.health = 1;
    }
  }

  /**
   * A primary that has not heard from a majority of voters for an election timeout steps down
   * (topology_coordinator.cpp, checkMemberTimeouts / the liveness check of _shouldStepDownOnMajorityLoss).
   */
  checkPrimaryLiveness(): void {
    const config = this.#host.config();
    if (!this.#isPrimary() || !config) return;
    const now = Date.now();
    const timeoutMs = this.#host.electionTimeoutMs();
    let live = 0;
    for (const member of votingMembers(config)) {
      if (member.host === this.#host.address) live += 1;
      else if (now - (this.#members.get(member.host)?.lastResponseMs ?? 0) < timeoutMs) live += 1;
    }
    if (live < majorityCount(config) && now - (this.#host.electionDate()?.getTime() ?? 0) > timeoutMs) {
      this.#host.stepDown('it can no longer see a majority of the set');
    }
  }

  // ---------------------------------------------------------------- what the coordinator asks of the table

  /**
   * The newest optime a majority of voting members hold (durably when `journals`): the commit
   * point's candidate (topology_coordinator.cpp, updateLastCommittedOpTimeAndWallTime).
   */
  majorityOpTime(self: { applied: OpTime; durable: OpTime }, journals: boolean): OpTime {
    const config = this.#host.config();
    if (!config) return NULL_OP_TIME;
    const optimes = votingMembers(config).map((m) => {
      if (m.host === this.#host.address) return journals ? self.durable : self.applied;
      const data = this.#members.get(m.host);
      return (journals ? data?.durableOpTime : data?.appliedOpTime) ?? NULL_OP_TIME;
    });
    optimes.sort((a, b) => compareOpTime(b, a));
    return optimes[majorityCount(config) - 1] ?? NULL_OP_TIME;
  }

  /** How many members (this one included) hold `opTime`: durably or applied. */
  membersAt(opTime: OpTime, durable: boolean, self: { applied: OpTime; durable: OpTime }): number {
    let count = 0;
    for (const member of this.#host.config()?.members ?? []) {
      const data = this.#members.get(member.host);
      const at =
        member.host === this.#host.address
          ? durable
            ? self.durable
            : self.applied
          : durable
            ? data?.durableOpTime
            : data?.appliedOpTime;
      if (at && compareOpTime(at, opTime) >= 0) count += 1;
    }
    return count;
  }

  /** A healthy, electable other member that has applied `target` (the step-down's catch-up and hand-off). */
  caughtUpElectable(target: OpTime): MemberConfig | undefined {
    return this.members().find(
      ({ config, data, self }) =>
        !self && data?.health === 1 && isElectable(config) && compareOpTime(data.appliedOpTime, target) >= 0,
    )?.config;
  }

  /**
   * The member to sync from (topology_coordinator.cpp, chooseNewSyncSource, in short): the primary
   * when known and healthy, else the most advanced healthy member ahead of us (any, in initial sync).
   */
  chooseSyncSource(lastApplied: OpTime): string | undefined {
    const primary = this.#primaryAddress;
    if (primary && this.#members.get(primary)?.health === 1) return primary;
    const initialSync = this.#host.state() === MemberState.STARTUP2;
    let best: { host: string; opTime: OpTime } | undefined;
    for (const [host, data] of this.#members) {
      if (data.health !== 1 || (data.state !== MemberState.PRIMARY && data.state !== MemberState.SECONDARY)) continue;
      if (compareOpTime(data.appliedOpTime, lastApplied) <= 0 && !initialSync) continue;
      if (!best || compareOpTime(data.appliedOpTime, best.opTime) > 0) best = { host, opTime: data.appliedOpTime };
    }
    return best?.host;
  }

  // ---------------------------------------------------------------- elections

  /** Restarts the election timer: it fires an election timeout (plus a random offset) from now. */
  resetElectionTimer(): void {
    clearTimeout(this.#electionTimer);
    if (!this.#host.config() || this.#host.selfIndex() < 0) return;
    const timeout = this.#host.electionTimeoutMs();
    const offset = Math.floor(Math.random() * timeout * ELECTION_TIMEOUT_OFFSET_FRACTION);
    this.#electionTimer = setTimeout(() => {
      if (!this.#isPrimary() && Date.now() - this.#lastPrimaryContactMs >= timeout)
        void this.standForElection('electionTimeout');
      this.resetElectionTimer();
    }, timeout + offset);
    this.#electionTimer.unref();
  }

  /** The primary was heard from (a heartbeat, a fetched batch that names it, a vote granted): no election for a timeout. */
  postponeElection(): void {
    this.#lastPrimaryContactMs = Date.now();
    this.resetElectionTimer();
  }

  /** replSetFreeze: no election before `secs` from now (0 unfreezes). */
  freeze(secs: number): Document {
    if (this.#isPrimary())
      throw new CommandError('NotSecondary', 'cannot freeze node when primary or running for election. state: Primary');
    this.#noElectionBeforeMs = secs === 0 ? 0 : Date.now() + secs * 1000;
    return secs === 0 ? { info: 'unfreezing' } : {};
  }

  /** replSetStepDown's `secs`: the old primary does not stand again before then. */
  noElectionFor(ms: number): void {
    this.#noElectionBeforeMs = Date.now() + ms;
  }

  /** mongod stands at once when it is the only electable member; with peers, as soon as they have the configuration and answer. */
  standAfterInitiate(): void {
    let attempts = 0;
    const tryStand = () => {
      if (
        this.#isPrimary() ||
        this.#primaryAddress ||
        this.#host.stopSignal.aborted ||
        attempts++ > INITIATE_ELECTION_ATTEMPTS
      )
        return;
      void this.standForElection('initiate').finally(() => setTimeout(tryStand, INITIATE_ELECTION_RETRY_MS).unref());
    };
    tryStand();
  }

  /** Whether this member may stand now: a secondary, electable, not frozen, not already standing. */
  #mayStand(): boolean {
    if (this.#electing || !this.#host.config() || this.#host.state() !== MemberState.SECONDARY) return false;
    const self = this.#self();
    return self !== undefined && isElectable(self) && Date.now() >= this.#noElectionBeforeMs;
  }

  /**
   * One election (replication_coordinator_impl_elect_v1.cpp): a dry run at the current term, then
   * the real vote at term + 1; a majority of voters, this member included, makes it primary.
   */
  async standForElection(reason: string): Promise<void> {
    if (!this.#mayStand()) return;
    this.#electing = true;
    try {
      if (!(await this.#requestVotes(true, this.#host.term()))) return;
      if (this.#host.state() !== MemberState.SECONDARY) return;
      const term = this.#host.term() + 1n;
      this.#host.updateTerm(term, 'standing for election');
      this.#votedFor = { term, candidateIndex: this.#host.selfIndex() };
      this.#host.persist();
      if (!(await this.#requestVotes(false, term))) return;
      if (this.#host.term() !== term || this.#host.state() !== MemberState.SECONDARY) return;
      this.#host.becomePrimary(reason);
    } finally {
      this.#electing = false;
    }
  }

  /** Asks every other voter for its vote (vote_requester.cpp); true once a majority, this member's vote included, granted it. */
  #requestVotes(dryRun: boolean, term: bigint): Promise<boolean> {
    const config = this.#host.config()!;
    const address = this.#host.address;
    const voters = votingMembers(config).filter((m) => m.host !== address);
    const needed = majorityCount(config) - ((this.#self()?.votes ?? 0) > 0 ? 1 : 0);
    if (needed <= 0) return Promise.resolve(true);
    const request = {
      replSetRequestVotes: 1,
      setName: config._id,
      dryRun,
      term,
      candidateIndex: this.#host.selfIndex(),
      configVersion: config.version,
      configTerm: config.term,
      lastAppliedOpTime: this.#host.position().applied,
    };
    return new Promise((resolve) => {
      let granted = 0;
      let answered = 0;
      for (const voter of voters) {
        this.#host
          .peer(voter.host)
          .command('admin', request, this.#host.electionTimeoutMs())
          .then(
            (reply) => {
              const replyTerm = BigInt((reply.term as bigint | number | undefined) ?? -1);
              if (replyTerm > this.#host.term()) this.#host.updateTerm(replyTerm, `vote reply from ${voter.host}`);
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
    const refusal = this.#voteRefusal(request, term);
    if (refusal !== undefined) return { term: this.#host.term(), voteGranted: false, reason: refusal };
    if (!dryRun && term > this.#host.term()) this.#host.updateTerm(term, 'a vote request');
    const config = this.#host.config()!;
    if (!dryRun && this.#votedFor && this.#votedFor.term === term && this.#votedFor.candidateIndex !== candidateIndex) {
      return {
        term: this.#host.term(),
        voteGranted: false,
        reason: `already voted for another candidate (${config.members[this.#votedFor.candidateIndex]?.host}) this term (${term})`,
      };
    }
    if (!dryRun && term === this.#host.term() && this.#isPrimary())
      return { term: this.#host.term(), voteGranted: false, reason: 'I am the primary of this term' };
    if (!dryRun) {
      this.#votedFor = { term, candidateIndex };
      this.#host.persist();
      // Granting a vote restarts the election timer, so voters do not stand against the candidate.
      this.postponeElection();
    }
    return { term: this.#host.term(), voteGranted: true, reason: '' };
  }

  /** Why a candidate gets no vote whatever this member voted before: no config, another set, an older term or config, staler data. */
  #voteRefusal(request: Document, term: bigint): string | undefined {
    const config = this.#host.config();
    if (!config || this.#host.selfIndex() < 0) return 'this member has no configuration';
    if (request.setName !== config._id)
      return `candidate's set name (${String(request.setName)}) differs from mine (${config._id})`;
    if (term < this.#host.term()) return `candidate's term (${term}) is lower than mine (${this.#host.term()})`;
    if (Number(request.configVersion) < config.version)
      return `candidate's config version (${String(request.configVersion)}) is lower than mine`;
    const candidateOpTime = parseOpTime(request.lastAppliedOpTime);
    const applied = this.#host.position().applied;
    if (compareOpTime(candidateOpTime, applied) < 0) {
      return `candidate's data is staler than mine. candidate's last applied OpTime: ${formatOpTime(candidateOpTime)}, my last applied OpTime: ${formatOpTime(applied)}`;
    }
    return undefined;
  }
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

/** What a successful heartbeat reply says of its sender. */
function recordHeartbeat(data: MemberData, reply: Document, responseTerm: bigint, sentMs: number): void {
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
}
