/**
 * CPU time of a process group, from Linux's /proc: user + system time of every process whose process
 * group is `pgid` (a local runtime and its workerd, the mock and its children). Processes that ended
 * during a measurement are not counted (the local stack's runtime processes live for the whole run).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`, 100 on Linux). */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU milliseconds (user + system) used so far by the live processes of process group `pgid`. */
export function groupCpuMs(pgid: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp … utime stime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== pgid) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** CPU milliseconds used so far by this process. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
