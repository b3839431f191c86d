// The emulator's durability with --dbpath (issue 36): one node through a SIGKILL at every write
// concern (checkpoints mid-stream, the w:1 j:false bound); on three member processes, every member
// SIGKILLed at once under majority load, writeConcernMajorityJournalDefault false shown losing
// acknowledged majority writes, seed 002's third question (w:1 j:true through a crash and through
// a failover), and a member that fell off the oplog, the launcher run again on its dbpath. The cases: packages/mongo-emulator/test/durability/replicaSetCases.ts.
import { singleNodeD1 } from '../../packages/mongo-emulator/test/durability/singleNodeCases.ts';
import {
  launcherBringsTheSetBack,
  memberFellOffTheOplog,
  memberRejoins,
  seed002Q3,
  wholeSetKill,
} from '../../packages/mongo-emulator/test/durability/replicaSetCases.ts';

singleNodeD1(true);
wholeSetKill();
seed002Q3();
memberRejoins();
memberFellOffTheOplog();
launcherBringsTheSetBack();
