/**
 * CPU time of a process group, from Linux's /proc: user + system time of every process whose process
 * group is `pgid` (a local runtime and its workerd, the mock and its children). Processes that ended
 * during a measurement are not counted (the local stack's runtime processes live for the whole run).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`, 100 on Linux). */
export const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU milliseconds (user + system) used so far by the live processes of process group `pgid`. */
export function groupCpuMs(pgid: number): number {
  return sum(groupCpuByCommand(pgid).values());
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/**
 * CPU milliseconds (user + system) used so far by the live processes of process group `pgid`, by command
 * name (`workerd`, `node`, …): a local runtime's workerd apart from its Node side.
 */
export function groupCpuByCommand(pgid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp … utime stime.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    if (Number(fields[2]) !== pgid) continue;
    const command = stat.slice(stat.indexOf('(') + 1, close);
    out.set(command, (out.get(command) ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
  }
  return out;
}

/** CPU of a local runtime's process group so far, ms: all of it, and its workerd (the rest is its Node side). */
export function runtimeCpuMs(pgid: number): { total: number; workerd: number } {
  const byCommand = groupCpuByCommand(pgid);
  return { total: sum(byCommand.values()), workerd: byCommand.get('workerd') ?? 0 };
}

/** CPU milliseconds used so far by this process. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
