// @module-tag processes
// D2 in npm test: a SIGKILLed member restarted on its dbpath rejoins without an initial sync.
// The whole-set kill, seed 002's third question and the stale member are in test:faults
// (test/faults/emulatorDurability.faults.ts): the cases are in replicaSetCases.ts.
import { memberRejoins } from './replicaSetCases.ts';

memberRejoins();
