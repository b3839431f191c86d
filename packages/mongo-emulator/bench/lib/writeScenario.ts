import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { processCpuUs } from './processCpu.ts';
import type { ClientMessage, ClientOrder } from './protocol.ts';

/** The client programs a scenario can run. */
export const CLIENTS = {
  driver: fileURLToPath(new URL('./driverClient.ts', import.meta.url)),
  wire: fileURLToPath(new URL('./wireClient.ts', import.meta.url)),
} as const;

export interface WriteScenario {
  client: keyof typeof CLIENTS;
  /** Connections in all; split evenly over `processes` client processes. */
  connections: number;
  processes: number;
}

export interface WriteFigures {
  opsPerS: number;
  /** Server CPU per op (all its threads), undefined where /proc is missing. */
  serverCpuUsPerOp: number | undefined;
  clientCpuUsPerOp: number;
}

/** Never wait longer than this for a client to connect and warm up. */
const CLIENT_READY_TIMEOUT_MS = 60_000;

/**
 * One timed run: forks the client processes, lets them connect and warm up, starts them at once,
 * and counts their ops, their CPU and the emulator's CPU over the same window.
 */
export async function runWriteScenario(
  scenario: WriteScenario,
  target: { uri: string; db: string; collection: string; documents: number; durationMs: number; serverPid: number },
): Promise<WriteFigures> {
  const perProcess = scenario.connections / scenario.processes;
  const order: Omit<ClientOrder, 'connections'> = {
    uri: target.uri,
    db: target.db,
    collection: target.collection,
    documents: target.documents,
    durationMs: target.durationMs,
  };
  const children = Array.from({ length: scenario.processes }, () =>
    fork(CLIENTS[scenario.client], [JSON.stringify({ ...order, connections: perProcess })], {
      execArgv: process.execArgv,
    }),
  );
  try {
    const messages = children.map((child) => nextMessages(child));
    await withTimeout(Promise.all(messages.map((m) => m.ready)), CLIENT_READY_TIMEOUT_MS);
    const serverCpuBefore = processCpuUs(target.serverPid);
    for (const child of children) child.send({ kind: 'go' });
    const results = await Promise.all(messages.map((m) => m.done));
    const serverCpuAfter = processCpuUs(target.serverPid);
    const ops = results.reduce((sum, r) => sum + r.ops, 0);
    const elapsedMs = Math.max(...results.map((r) => r.elapsedMs));
    return {
      opsPerS: (ops * 1000) / elapsedMs,
      serverCpuUsPerOp:
        serverCpuBefore === undefined || serverCpuAfter === undefined
          ? undefined
          : (serverCpuAfter - serverCpuBefore) / ops,
      clientCpuUsPerOp: results.reduce((sum, r) => sum + r.cpuUs, 0) / ops,
    };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
    await Promise.all(
      children.map((child) => (child.exitCode === null && child.signalCode === null ? once(child, 'exit') : undefined)),
    );
  }
}

function nextMessages(child: ReturnType<typeof fork>): {
  ready: Promise<void>;
  done: Promise<Extract<ClientMessage, { kind: 'done' }>>;
} {
  // After a turn of the loop, so a message sent just before a clean exit is taken first.
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => setImmediate(() => reject(new Error(`bench client exited with ${code}`)))),
  );
  exited.catch(() => undefined);
  const ready = new Promise<void>((resolve) =>
    child.on('message', (m: ClientMessage) => m.kind === 'ready' && resolve()),
  );
  const done = new Promise<Extract<ClientMessage, { kind: 'done' }>>((resolve) =>
    child.on('message', (m: ClientMessage) => m.kind === 'done' && resolve(m)),
  );
  return { ready: Promise.race([ready, exited]), done: Promise.race([done, exited]) };
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(() => reject(new Error(`bench clients not ready after ${timeoutMs} ms`)), timeoutMs)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
