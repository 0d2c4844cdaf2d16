/**
 * The live processes of this machine as /proc lists them (Linux), for tests that check what a program left
 * running: each one's pid, parent and process group. Zombies (exited, not yet reaped) are left out.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** One process: its pid, parent pid and process group id. */
export interface ProcStat {
  pid: number;
  ppid: number;
  pgrp: number;
}

/** Every live process's {@link ProcStat}; one that exits while being read is skipped. */
export function liveProcesses(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces, so read after its closing parenthesis.
    const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state !== 'Z') out.push({ pid: Number(name), ppid: Number(ppid), pgrp: Number(pgrp) });
  }
  return out;
}
