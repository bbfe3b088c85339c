/** CPU time of a server process and its descendants (nginx's workers), read from /proc: a measure that holds on a loaded machine, unlike requests per second. */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function children(pid: number): number[] {
  try {
    const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return tasks === '' ? [] : tasks.split(' ').map(Number);
  } catch {
    return [];
  }
}

/** User plus system CPU seconds of one process (all its threads). */
function ownSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds used so far by `pid` and every process below it. */
export function cpuSeconds(pid: number): number {
  return ownSeconds(pid) + children(pid).reduce((s, c) => s + cpuSeconds(c), 0);
}
