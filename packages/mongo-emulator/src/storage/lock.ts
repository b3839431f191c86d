// mongod.lock: one process per data directory (mongod's DBPathInUse). mongod holds an OS file lock
// that the kernel drops when the process dies; Node has none, so the lock file names its owner
// (pid and, on Linux, the process's start time from /proc) and a lock whose owner is gone, or
// whose pid now belongs to another process, is taken over: a killed process never blocks restart.
import { closeSync, fsyncSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StorageError } from './records.ts';

export interface DbPathLock {
  readonly file: string;
  release(): void;
}

export function acquireLock(dir: string): DbPathLock {
  const file = join(dir, 'mongod.lock');
  const mine = `${process.pid} ${processStartTime(process.pid) ?? ''}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(file);
      if (owner && owner.pid !== process.pid && isAlive(owner.pid, owner.startTime)) {
        throw new StorageError(
          'DBPathInUse',
          `Unable to lock the lock file: ${file} (held by live process ${owner.pid}). Another mongod instance is already running on the ${dir} directory`,
        );
      }
      // A dead owner's lock (or an empty one, a crash while writing it): take it over.
      try {
        unlinkSync(file);
      } catch {
        // Another starter removed it first; the next attempt's exclusive create decides.
      }
      continue;
    }
    writeSync(fd, mine);
    fsyncSync(fd);
    closeSync(fd);
    return {
      file,
      release() {
        // Only our own lock: a process that lost it (never, barring a pid race) leaves the other's.
        if (readOwner(file)?.pid === process.pid) unlinkSync(file);
      },
    };
  }
  throw new StorageError('DBPathInUse', `Unable to lock the lock file: ${file}: another process keeps taking it`);
}

function readOwner(file: string): { pid: number; startTime: string | undefined } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const [pid, startTime] = text.trim().split(/\s+/);
  const n = Number(pid);
  return Number.isInteger(n) && n > 0 ? { pid: n, startTime: startTime || undefined } : undefined;
}

function isAlive(pid: number, startTime: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // The pid lives; is it still the process that took the lock (pids are reused)?
  const now = processStartTime(pid);
  return startTime === undefined || now === undefined || now === startTime;
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined off Linux. */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis are plain.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
