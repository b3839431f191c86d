// What the bench's orchestrator and its client processes say to each other over IPC. A client
// gets its order as argv[2] (JSON), connects and warms up, says `ready`, waits for `go`, runs,
// and answers with its figures.

/** Run findOneAndUpdate ({$inc} on `_id: i % documents`) over `connections` for `durationMs`. */
export interface ClientOrder {
  uri: string;
  db: string;
  collection: string;
  connections: number;
  documents: number;
  durationMs: number;
}

export type ClientMessage = { kind: 'ready' } | { kind: 'done'; ops: number; cpuUs: number; elapsedMs: number };

export type OrchestratorMessage = { kind: 'go' };

/** Connections each client process warms up with before the clock starts. */
export const WARMUP_OPS_PER_CONNECTION = 200;

/** The client side of the protocol: warm up, wait for go, run `loop` on every connection, report. */
export async function runClient(
  order: ClientOrder,
  loop: (connection: number, index: number) => Promise<void>,
): Promise<void> {
  await Promise.all(
    Array.from({ length: order.connections }, async (_, k) => {
      for (let i = 0; i < WARMUP_OPS_PER_CONNECTION; i++) await loop(k, i);
    }),
  );
  const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
  send({ kind: 'ready' });
  await go;
  let ops = 0;
  const cpuBefore = process.cpuUsage();
  const startMs = performance.now();
  const endMs = startMs + order.durationMs;
  await Promise.all(
    Array.from({ length: order.connections }, async (_, k) => {
      for (let i = k; performance.now() < endMs; i += order.connections) {
        await loop(k, i);
        ops += 1;
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  send({ kind: 'done', ops, cpuUs: cpu.user + cpu.system, elapsedMs: performance.now() - startMs });
}

function send(message: ClientMessage): void {
  process.send!(message);
}
