import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second for /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const CLOCK_TICKS_PER_S = 100;

/**
 * CPU time (user + system, all threads) a process has used so far, in µs, from /proc/<pid>/stat;
 * undefined where there is no /proc. Unlike a sampling profiler's ticks, it does not count the time
 * the process waited for a core on a busy machine.
 */
export function processCpuUs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the parenthesised command name start at field 3; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_S;
  } catch {
    return undefined;
  }
}
