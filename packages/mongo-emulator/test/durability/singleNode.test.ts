// @module-tag processes
// D1 on one node in npm test: j:true and w:majority writes survive a SIGKILL mid-stream. The
// cases, and the longer ones test:faults runs, are in singleNodeCases.ts.
import { singleNodeD1 } from './singleNodeCases.ts';

singleNodeD1(false);
