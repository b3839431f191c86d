import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second for /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const CLOCK_TICKS_PER_S = 100;

/**
 * CPU time (user + system, all threads) another process has used so far, in µs, read from
 * /proc; undefined where there is no /proc (the bench then prints no server CPU figure).
 */
export function processCpuUs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_S;
  } catch {
    return undefined;
  }
}
