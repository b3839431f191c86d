// The payout worker's log lines, shared by both modes (worker.ts over work items, bullmq.ts over
// BullMQ): one JSON object per line on stdout, as the API logs.

export interface PayoutWorkerLog {
  info(line: Record<string, unknown>): void;
  debug(line: Record<string, unknown>): void;
}

export function jsonLog(
  level: 'silent' | 'info' | 'debug',
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): PayoutWorkerLog {
  const emit = (name: string) => (line: Record<string, unknown>) =>
    write(JSON.stringify({ time: new Date().toISOString(), level: name, ...line }));
  const nothing = () => undefined;
  return { info: level === 'silent' ? nothing : emit('info'), debug: level === 'debug' ? emit('debug') : nothing };
}
