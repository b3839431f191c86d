// Proves the topology's election decisions on their own, with no server and no network: a
// scripted coordinator (state, term, config) and scripted peers stand in for the rest of the
// member. Each test names the rule of mongod's topology_coordinator.cpp or
// replication_coordinator_impl_elect_v1.cpp it pins.
import { Timestamp } from 'bson';
import { afterEach, describe, expect, it } from 'vitest';
import type { Document } from '../../src/engine/types.ts';
import { MemberState } from '../../src/repl/memberState.ts';
import { NULL_OP_TIME, type OpTime } from '../../src/repl/opTime.ts';
import type { PeerCommander } from '../../src/repl/PeerClient.ts';
import { normaliseConfig, type ReplSetConfig } from '../../src/repl/replSetConfig.ts';
import { TopologyCoordinator, type TopologyHost } from '../../src/repl/TopologyCoordinator.ts';

const HOSTS = ['a:1', 'b:2', 'c:3'];
/** Long enough that no election timer fires while a test runs. */
const ELECTION_TIMEOUT_MS = 60_000;

const opTime = (seconds: number, term: bigint): OpTime => ({ ts: new Timestamp({ t: seconds, i: 1 }), t: term });

/** A coordinator the topology can drive: it records what it was asked to do. */
interface Script {
  term: bigint;
  state: number;
  applied: OpTime;
  steppedDown: string[];
  becamePrimary: string[];
  persisted: number;
  /** How each peer answers a command (default: unreachable). */
  answer: (peer: string, command: Document) => Promise<Document>;
}

interface Scripted extends Script {
  host: TopologyHost;
  topology: TopologyCoordinator;
}

const made: Scripted[] = [];
afterEach(() => {
  for (const s of made.splice(0)) s.topology.stop();
});

function member(
  self: string,
  options: { members?: Document[]; term?: bigint; state?: number; applied?: OpTime } = {},
): Scripted {
  const config: ReplSetConfig = normaliseConfig(
    { _id: 'rs0', members: options.members ?? HOSTS.map((host, _id) => ({ _id, host })) },
    {},
    1,
    0,
  );
  const stop = new AbortController();
  const s: Script = {
    term: options.term ?? 1n,
    state: options.state ?? MemberState.SECONDARY,
    applied: options.applied ?? opTime(100, 1n),
    steppedDown: [] as string[],
    becamePrimary: [] as string[],
    persisted: 0,
    answer: (peer: string) => Promise.reject(new Error(`${peer} unreachable`)),
  };
  const peer = (address: string): PeerCommander => ({
    address,
    command: (_db, command) => s.answer(address, command),
    close: () => undefined,
  });
  const host: TopologyHost = {
    address: self,
    setName: 'rs0',
    logger: { info: () => undefined, warn: () => undefined },
    stopSignal: stop.signal,
    config: () => config,
    selfIndex: () => config.members.findIndex((m) => m.host === self),
    term: () => s.term,
    state: () => s.state,
    electionDate: () => new Date(0),
    electionTimeoutMs: () => ELECTION_TIMEOUT_MS,
    heartbeatIntervalMs: () => ELECTION_TIMEOUT_MS,
    position: () => ({
      applied: s.applied,
      appliedWall: new Date(),
      durable: s.applied,
      commitPoint: NULL_OP_TIME,
      syncSource: undefined,
      electionTime: undefined,
    }),
    peer,
    updateTerm: (term) => {
      if (term <= s.term) return;
      s.term = term;
      if (s.state === MemberState.PRIMARY) s.state = MemberState.SECONDARY;
    },
    adoptConfig: () => undefined,
    persist: () => {
      s.persisted += 1;
    },
    becomePrimary: (reason) => {
      s.state = MemberState.PRIMARY;
      s.becamePrimary.push(reason);
    },
    stepDown: (why) => {
      s.state = MemberState.SECONDARY;
      s.steppedDown.push(why);
    },
    advanceCommitPoint: () => undefined,
    membersChanged: () => undefined,
    primaryChanged: () => undefined,
  };
  const scripted: Scripted = Object.assign(s, { host, topology: new TopologyCoordinator(host) });
  scripted.topology.onConfigInstalled(config);
  made.push(scripted);
  return scripted;
}

function voteRequest(fields: Document = {}): Document {
  return {
    replSetRequestVotes: 1,
    setName: 'rs0',
    dryRun: false,
    term: 2n,
    candidateIndex: 1,
    configVersion: 1,
    configTerm: 0,
    lastAppliedOpTime: opTime(100, 1n),
    ...fields,
  };
}

describe('a voter (processReplSetRequestVotes)', () => {
  it('grants an up-to-date candidate of a newer term, takes the term and keeps the vote on disk', () => {
    const voter = member('a:1');
    const reply = voter.topology.processRequestVotes(voteRequest());
    expect(reply).toMatchObject({ voteGranted: true, term: 2n });
    expect(voter.term).toBe(2n);
    expect(voter.topology.votedFor).toEqual({ term: 2n, candidateIndex: 1 });
    expect(voter.persisted).toBe(1);
  });

  it('refuses a candidate whose last applied optime is older than its own', () => {
    const voter = member('a:1', { applied: opTime(200, 1n) });
    const reply = voter.topology.processRequestVotes(voteRequest({ lastAppliedOpTime: opTime(150, 1n) }));
    expect(reply.voteGranted).toBe(false);
    expect(reply.reason).toMatch(/staler than mine/);
    expect(voter.topology.votedFor).toBeUndefined();
  });

  it('refuses a lower term, another set and an older config version', () => {
    const voter = member('a:1', { term: 5n });
    expect(voter.topology.processRequestVotes(voteRequest({ term: 4n })).reason).toMatch(
      /term \(4\) is lower than mine \(5\)/,
    );
    expect(voter.topology.processRequestVotes(voteRequest({ term: 6n, setName: 'other' })).reason).toMatch(/set name/);
    expect(voter.topology.processRequestVotes(voteRequest({ term: 6n, configVersion: 0 })).reason).toMatch(
      /config version/,
    );
    expect(voter.term).toBe(5n);
  });

  it('gives one vote per term: a second candidate of the same term is refused', () => {
    const voter = member('a:1');
    expect(voter.topology.processRequestVotes(voteRequest({ candidateIndex: 1 })).voteGranted).toBe(true);
    const second = voter.topology.processRequestVotes(voteRequest({ candidateIndex: 2 }));
    expect(second.voteGranted).toBe(false);
    expect(second.reason).toMatch(/already voted for another candidate \(b:2\) this term \(2\)/);
    // The same candidate asking again keeps its vote.
    expect(voter.topology.processRequestVotes(voteRequest({ candidateIndex: 1 })).voteGranted).toBe(true);
  });

  it('answers a dry run without casting a vote or taking the term', () => {
    const voter = member('a:1');
    expect(voter.topology.processRequestVotes(voteRequest({ dryRun: true, term: 1n })).voteGranted).toBe(true);
    expect(voter.term).toBe(1n);
    expect(voter.topology.votedFor).toBeUndefined();
    expect(voter.persisted).toBe(0);
  });

  it('refuses as the primary of the very term asked for', () => {
    const voter = member('a:1', { term: 2n, state: MemberState.PRIMARY });
    expect(voter.topology.processRequestVotes(voteRequest({ term: 2n })).reason).toBe('I am the primary of this term');
  });
});

describe('a candidate (replication_coordinator_impl_elect_v1.cpp)', () => {
  /** Peers that grant (or refuse) every vote, and the requests they saw. */
  function peersVoting(candidate: Scripted, granted: boolean): Document[] {
    const seen: Document[] = [];
    candidate.answer = (_peer, command) => {
      seen.push(command);
      return Promise.resolve({ ok: 1, term: candidate.term, voteGranted: granted });
    };
    return seen;
  }

  it('runs a dry run at its term, then the real vote at term + 1, and becomes primary on a majority', async () => {
    const candidate = member('b:2');
    const seen = peersVoting(candidate, true);
    await candidate.topology.standForElection('test');
    expect(candidate.becamePrimary).toEqual(['test']);
    expect(candidate.term).toBe(2n);
    expect(candidate.topology.votedFor).toEqual({ term: 2n, candidateIndex: 1 });
    expect(seen.filter((r) => r.dryRun === true).map((r) => r.term)).toEqual([1n, 1n]);
    expect(seen.filter((r) => r.dryRun === false).map((r) => r.term)).toEqual([2n, 2n]);
  });

  it('stops after a dry run the voters refuse: no new term, no vote for itself', async () => {
    const candidate = member('b:2');
    const seen = peersVoting(candidate, false);
    await candidate.topology.standForElection('test');
    expect(candidate.becamePrimary).toEqual([]);
    expect(candidate.term).toBe(1n);
    expect(candidate.topology.votedFor).toBeUndefined();
    expect(seen.every((r) => r.dryRun === true)).toBe(true);
  });

  it('does not stand while frozen, with priority 0, or when not a secondary', async () => {
    const frozen = member('b:2');
    peersVoting(frozen, true);
    frozen.topology.freeze(60);
    await frozen.topology.standForElection('test');
    expect(frozen.becamePrimary).toEqual([]);

    const passive = member('b:2', {
      members: HOSTS.map((host, _id) => ({ _id, host, priority: host === 'b:2' ? 0 : 1 })),
    });
    peersVoting(passive, true);
    await passive.topology.standForElection('test');
    expect(passive.becamePrimary).toEqual([]);

    const syncing = member('b:2', { state: MemberState.STARTUP2 });
    peersVoting(syncing, true);
    await syncing.topology.standForElection('test');
    expect(syncing.becamePrimary).toEqual([]);
  });

  it('stands alone at once as the only voting member', async () => {
    const alone = member('a:1', { members: [{ _id: 0, host: 'a:1' }] });
    await alone.topology.standForElection('test');
    expect(alone.becamePrimary).toEqual(['test']);
  });
});

describe('what heartbeats decide (processHeartbeatResponse)', () => {
  const primaryReply = (term: bigint): Document => ({
    ok: 1,
    state: MemberState.PRIMARY,
    term,
    opTime: opTime(100, term),
    lastCommittedOpTime: opTime(90, term),
  });

  it('follows a primary it hears from, and forgets it when a heartbeat says otherwise', () => {
    const secondary = member('a:1');
    secondary.topology.onHeartbeatResponse('b:2', primaryReply(1n), Date.now());
    expect(secondary.topology.primaryAddress).toBe('b:2');
    expect(secondary.topology.member('b:2')).toMatchObject({ health: 1, state: MemberState.PRIMARY });
    secondary.topology.onHeartbeatResponse('b:2', { ok: 1, state: MemberState.SECONDARY, term: 1n }, Date.now());
    expect(secondary.topology.primaryAddress).toBeUndefined();
  });

  it('steps a primary down when another primary of a newer term answers', () => {
    const primary = member('a:1', { state: MemberState.PRIMARY });
    primary.topology.onHeartbeatResponse('b:2', primaryReply(3n), Date.now());
    expect(primary.term).toBe(3n);
    expect(primary.state).toBe(MemberState.SECONDARY);
  });

  it('of two primaries of one term, steps down the one with the greater address', () => {
    const higher = member('c:3', { state: MemberState.PRIMARY });
    higher.topology.onHeartbeatResponse('b:2', primaryReply(1n), Date.now());
    expect(higher.steppedDown).toEqual(['another primary b:2 in term 1']);
    const lower = member('a:1', { state: MemberState.PRIMARY });
    lower.topology.onHeartbeatResponse('b:2', primaryReply(1n), Date.now());
    expect(lower.steppedDown).toEqual([]);
  });

  it('steps a primary down that has heard from no majority for an election timeout', () => {
    const isolated = member('a:1', { state: MemberState.PRIMARY });
    isolated.topology.checkPrimaryLiveness();
    expect(isolated.steppedDown).toEqual(['it can no longer see a majority of the set']);

    const connected = member('a:1', { state: MemberState.PRIMARY });
    connected.topology.onHeartbeatResponse('b:2', { ok: 1, state: MemberState.SECONDARY, term: 1n }, Date.now());
    connected.topology.checkPrimaryLiveness();
    expect(connected.steppedDown).toEqual([]);
  });

  it('syncs from the primary when it is healthy, else from the most advanced member ahead of it', () => {
    const secondary = member('a:1', { applied: opTime(100, 1n) });
    const secondaryReply = (seconds: number): Document => ({
      ok: 1,
      state: MemberState.SECONDARY,
      term: 1n,
      opTime: opTime(seconds, 1n),
    });
    secondary.topology.onHeartbeatResponse('b:2', secondaryReply(120), Date.now());
    secondary.topology.onHeartbeatResponse('c:3', secondaryReply(110), Date.now());
    expect(secondary.topology.chooseSyncSource(opTime(100, 1n))).toBe('b:2');
    expect(secondary.topology.chooseSyncSource(opTime(130, 1n))).toBeUndefined();
    secondary.topology.onHeartbeatResponse('c:3', primaryReply(1n), Date.now());
    expect(secondary.topology.chooseSyncSource(opTime(100, 1n))).toBe('c:3');
  });
});
