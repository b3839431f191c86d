// The emulator's durability on three member processes with --dbpath (issue 36): every member
// SIGKILLed at once under majority load, writeConcernMajorityJournalDefault false shown losing
// acknowledged majority writes, seed 002's third question (w:1 j:true through a crash and through
// a failover), and a member that fell off the oplog, the launcher run again on its dbpath. The cases: packages/mongo-emulator/test/durability/replicaSetCases.ts.
import { launcherBringsTheSetBack, memberFellOffTheOplog, memberRejoins, seed002Q3, wholeSetKill } from '../../packages/mongo-emulator/test/durability/replicaSetCases.ts';

wholeSetKill();
seed002Q3();
memberRejoins();
memberFellOffTheOplog();
launcherBringsTheSetBack();
