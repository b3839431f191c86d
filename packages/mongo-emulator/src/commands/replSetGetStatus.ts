import { oplogWindowDocument } from '../changes/index.ts';
import type { Oplog } from '../changes/index.ts';
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { MemberState } from '../repl/memberState.ts';
import type { ReplCoordinator } from '../repl/ReplCoordinator.ts';
import type { CommandDefinition } from './types.ts';

const PRIMARY_STATE = 1;

/** `replSetGetStatus`: one healthy PRIMARY member, whose optimes are the latest write. */
export const replSetGetStatus: CommandDefinition = {
  names: ['replSetGetStatus'],
  adminOnly: true,
  run({ server }) {
    if (server.repl) return memberStatus(server.repl, server.changeStreams.oplog);
    const { node, clock } = server;
    const now = new Date();
    // The last entry of local.oplog.rs: applied, durable and majority-committed at once on one node.
    const last = server.changeStreams.oplog.lastRecord.doc;
    const opTime = { ts: last.ts, t: node.term };
    const opTimeDate = last.wall as Date;
    // On a dbpath, what the journal holds; in memory, everything applied is all there is.
    const durable = server.storage ? { ts: server.storage.durableOpTime.ts, t: node.term } : opTime;
    const uptimeSeconds = Math.floor((now.getTime() - node.startedAt.getTime()) / 1000);
    return {
      set: node.setName,
      date: now,
      myState: PRIMARY_STATE,
      term: node.term,
      heartbeatIntervalMillis: 2000n,
      majorityVoteCount: 1,
      writeMajorityCount: 1,
      votingMembersCount: 1,
      writableVotingMembersCount: 1,
      optimes: {
        lastCommittedOpTime: opTime,
        lastCommittedWallTime: opTimeDate,
        readConcernMajorityOpTime: opTime,
        appliedOpTime: opTime,
        durableOpTime: durable,
        lastAppliedWallTime: opTimeDate,
        lastDurableWallTime: opTimeDate,
      },
      // Not in mongod's reply (it reads local.oplog.rs): the window change streams can resume in.
      oplog: oplogWindowDocument(server.changeStreams.oplog),
      members: [
        {
          _id: 0,
          name: node.address,
          health: 1,
          state: PRIMARY_STATE,
          stateStr: 'PRIMARY',
          uptime: uptimeSeconds,
          optime: opTime,
          optimeDate: opTimeDate,
          optimeDurable: durable,
          optimeDurableDate: new Date((durable.ts as { high: number }).high * 1000),
          lastAppliedWallTime: opTimeDate,
          lastDurableWallTime: opTimeDate,
          syncSourceHost: '',
          syncSourceId: -1,
          infoMessage: '',
          electionTime: clock.now(),
          electionDate: node.startedAt,
          configVersion: node.setVersion,
          configTerm: Number(node.term),
          self: true,
          lastHeartbeatMessage: '',
        },
      ],
    };
  },
};

/**
 * replSetGetStatus on a member of a set of processes (topology_coordinator.cpp, prepareStatusResponse):
 * every member's state, health, optimes and heartbeat times as this member knows them; the lag of
 * a member is its optimeDate against the primary's.
 */
function memberStatus(repl: ReplCoordinator, oplog: Oplog): Document {
  if (!repl.config) throw new CommandError('NotYetInitialized', 'no replset config has been received');
  const now = new Date();
  const applied = repl.lastApplied;
  const durable = repl.lastDurable;
  const appliedWall = repl.lastAppliedWall;
  const members = repl.members().map(({ config, data, self }) => {
    if (self) {
      return {
        _id: config._id,
        name: config.host,
        health: 1,
        state: repl.state,
        stateStr: repl.stateName(),
        uptime: Math.floor((now.getTime() - repl.startedAt.getTime()) / 1000),
        optime: applied,
        optimeDate: new Date(applied.ts.high * 1000),
        optimeDurable: durable,
        optimeDurableDate: new Date((durable.ts as { high: number }).high * 1000),
        lastAppliedWallTime: appliedWall,
        lastDurableWallTime: appliedWall,
        syncSourceHost: repl.syncSource ?? '',
        syncSourceId: repl.config!.members.find((m) => m.host === repl.syncSource)?._id ?? -1,
        infoMessage: '',
        ...(repl.isPrimary && repl.electionTime
          ? { electionTime: repl.electionTime, electionDate: repl.electionDate }
          : {}),
        configVersion: repl.config!.version,
        configTerm: Number(repl.term),
        self: true,
        lastHeartbeatMessage: '',
      };
    }
    const state = data && data.health === 1 ? data.state : MemberState.DOWN;
    return {
      _id: config._id,
      name: config.host,
      health: data?.health ?? 0,
      state,
      stateStr:
        state === MemberState.DOWN
          ? '(not reachable/healthy)'
          : ([
              'STARTUP',
              'PRIMARY',
              'SECONDARY',
              'RECOVERING',
              '',
              'STARTUP2',
              'UNKNOWN',
              'ARBITER',
              'DOWN',
              'ROLLBACK',
              'REMOVED',
            ][state] ?? 'UNKNOWN'),
      uptime: 0,
      optime: data?.appliedOpTime,
      optimeDurable: data?.durableOpTime,
      optimeDate: data ? new Date(data.appliedOpTime.ts.high * 1000) : new Date(0),
      optimeDurableDate: data ? new Date(data.durableOpTime.ts.high * 1000) : new Date(0),
      lastAppliedWallTime: data?.appliedWallTime ?? new Date(0),
      lastHeartbeat: data?.lastHeartbeat ?? new Date(0),
      lastHeartbeatRecv: data?.lastHeartbeatRecv ?? new Date(0),
      pingMs: BigInt(data?.pingMs ?? 0),
      lastHeartbeatMessage: data?.message ?? '',
      syncSourceHost: data?.syncSourceHost ?? '',
      syncSourceId: repl.config!.members.find((m) => m.host === data?.syncSourceHost)?._id ?? -1,
      infoMessage: '',
      ...(data?.state === MemberState.PRIMARY && data.electionTime ? { electionTime: data.electionTime } : {}),
      configVersion: repl.config!.version,
      configTerm: Number(repl.term),
    };
  });
  const voting = repl.config.members.filter((m) => m.votes > 0).length;
  return {
    set: repl.config._id,
    date: now,
    myState: repl.state,
    term: repl.term,
    syncSourceHost: repl.syncSource ?? '',
    syncSourceId: repl.config.members.find((m) => m.host === repl.syncSource)?._id ?? -1,
    heartbeatIntervalMillis: BigInt(repl.heartbeatIntervalMs),
    majorityVoteCount: repl.majorityCount(),
    writeMajorityCount: repl.majorityCount(),
    votingMembersCount: voting,
    writableVotingMembersCount: voting,
    optimes: {
      lastCommittedOpTime: repl.commitPoint,
      lastCommittedWallTime: new Date(repl.commitPoint.ts.high * 1000),
      readConcernMajorityOpTime: repl.majorityReadPoint,
      appliedOpTime: applied,
      durableOpTime: durable,
      lastAppliedWallTime: appliedWall,
      lastDurableWallTime: appliedWall,
    },
    oplog: oplogWindowDocument(oplog),
    members,
  };
}
