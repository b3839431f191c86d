import type { Document } from '../../engine/types.ts';
import type { ServerState } from '../../serverState.ts';

/** hello's topologyVersion now: the process's id and the counter of its replica-set state (or of the one node). */
export function topologyVersionOf(server: ServerState): Document {
  return { processId: server.node.processId, counter: server.repl?.topologyCounter ?? server.node.topologyCounter };
}
