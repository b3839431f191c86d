// LOG_FORMAT=pretty: each JSON line pino writes becomes one line a person reads on a terminal,
// `12:00:01.234 INFO  listening on http://localhost:4000/graphql port=4000 engine=emulator`. A
// small synchronous stream instead of pino-pretty: no worker thread, no dependency, and the JSON
// format (the default, for log collectors) is untouched.
import type { DestinationStream } from 'pino';

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields every line has, shown in the prefix or not at all. */
const OMITTED = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

export function prettyLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const time = typeof record['time'] === 'string' ? record['time'].slice(11, 23) : String(record['time'] ?? '');
  const level = (LEVEL_NAMES[Number(record['level'])] ?? String(record['level'])).padEnd(5);
  const fields = Object.entries(record)
    .filter(([key]) => !OMITTED.has(key))
    .map(([key, value]) => `${key}=${fieldText(key, value)}`);
  return [time, level, String(record['msg'] ?? ''), ...fields].join(' ');
}

function fieldText(key: string, value: unknown): string {
  if (key === 'err' && value !== null && typeof value === 'object') {
    const { type, message, stack } = value as { type?: string; message?: string; stack?: string };
    return `${type ?? 'Error'}: ${message ?? ''}${stack ? `\n${stack.split('\n').slice(1).join('\n')}` : ''}`;
  }
  if (typeof value === 'string') return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

export function prettyDestination(out: { write(text: string): unknown } = process.stdout): DestinationStream {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line !== '') out.write(`${prettyLine(line)}\n`);
    },
  };
}
