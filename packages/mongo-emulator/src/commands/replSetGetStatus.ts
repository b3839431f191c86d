import { oplogWindowDocument } from '../changes/index.ts';
import type { CommandDefinition } from './types.ts';

const PRIMARY_STATE = 1;

/** `replSetGetStatus`: one healthy PRIMARY member, whose optimes are the latest write. */
export const replSetGetStatus: CommandDefinition = {
  names: ['replSetGetStatus'],
  adminOnly: true,
  run({ server }) {
    const { node, clock } = server;
    const now = new Date();
    // The last entry of local.oplog.rs: applied, durable and majority-committed at once on one node.
    const last = server.changeStreams.oplog.lastRecord.doc;
    const opTime = { ts: last.ts, t: node.term };
    const opTimeDate = last.wall as Date;
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
        durableOpTime: opTime,
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
          optimeDurable: opTime,
          optimeDurableDate: opTimeDate,
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
