import { hostname } from 'node:os';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { oplogWindowDocument } from '../changes/index.ts';
import { SERVER_VERSION } from './buildInfo.ts';
import type { CommandDefinition } from './types.ts';

/** The event loop's delay since the first serverStatus (a soak samples it), as a Node process measures it. */
let loopDelay: IntervalHistogram | undefined;

/** mongod's `mem` section (MiB, as mongod reports it), and the process's own figures, for a soak. */
function memorySections(): Record<string, unknown> {
  if (!loopDelay) {
    loopDelay = monitorEventLoopDelay({ resolution: 20 });
    loopDelay.enable();
  }
  const usage = process.memoryUsage();
  const mib = (bytes: number) => Math.round(bytes / 1_048_576);
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.().length ?? -1;
  const p99Ms = loopDelay.count > 0 ? loopDelay.percentile(99) / 1e6 : 0;
  loopDelay.reset();
  return {
    mem: { bits: 64, resident: mib(usage.rss), virtual: mib(usage.rss + usage.external), supported: true },
    // Not mongod's: the emulator is a Node process, and these are what say whether it leaks.
    emulatorProcess: { heapUsedBytes: BigInt(usage.heapUsed), activeHandles: handles, eventLoopDelayP99Ms: p99Ms },
  };
}

/**
 * `serverStatus`, minimal: what dashboards, tests and the bench read (connections, opcounters,
 * per-command counts as mongod's metrics.commands, uptime, write conflicts, memory).
 */
export const serverStatus: CommandDefinition = {
  names: ['serverStatus'],
  run({ server }) {
    const { node, counters, cursors, sessions, transactions } = server;
    const now = new Date();
    const uptimeMillis = now.getTime() - node.startedAt.getTime();
    return {
      host: hostname(),
      version: SERVER_VERSION,
      process: 'mongod',
      pid: BigInt(process.pid),
      uptime: Math.floor(uptimeMillis / 1000),
      uptimeMillis: BigInt(uptimeMillis),
      uptimeEstimate: BigInt(Math.floor(uptimeMillis / 1000)),
      localTime: now,
      connections: {
        current: counters.connectionsCurrent,
        available: 10_000 - counters.connectionsCurrent,
        totalCreated: counters.connectionsTotalCreated,
      },
      opcounters: { ...counters.opcounters },
      metrics: {
        commands: Object.fromEntries(
          [...counters.commands].map(([name, { total, failed }]) => [
            name,
            { failed: BigInt(failed), total: BigInt(total) },
          ]),
        ),
        cursor: { open: { total: cursors.openCount } },
        operation: { writeConflicts: BigInt(transactions.writeConflicts) },
      },
      logicalSessionRecordCache: { activeSessionsCount: sessions.size },
      repl: server.repl
        ? {
            setName: node.setName,
            setVersion: server.repl.config?.version ?? -2,
            isWritablePrimary: server.repl.isPrimary,
            secondary: server.repl.state === 2,
            ...(server.repl.primaryAddress ? { primary: server.repl.primaryAddress } : {}),
            me: node.address,
            hosts: server.repl.visibleHosts(),
            ...(server.repl.isPrimary ? { electionId: server.repl.electionId } : {}),
            term: server.repl.term,
            syncSource: server.repl.syncSource ?? '',
            rbid: server.repl.rollbackCount,
            rollbackDir: server.repl.rollbackDir,
          }
        : {
            setName: node.setName,
            isWritablePrimary: true,
            secondary: false,
            primary: node.address,
            me: node.address,
            hosts: [node.address],
          },
      storageEngine: { name: 'emulator', supportsCommittedReads: true, persistent: false },
      oplog: oplogWindowDocument(server.changeStreams.oplog),
      ...memorySections(),
    };
  },
};
