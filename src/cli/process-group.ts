/**
 * @module
 * Child processes that own their process group (wrangler with its workerd and esbuild children, or the
 * Miniflare runtime with its workerd), so stopping one stops everything it started: signals go to the
 * whole group, never to the leader alone (a workerd left behind keeps its port bound). Node only, POSIX.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';

/** Spawns `command` as the leader of a new process group; a SIGKILL to the group is sent when this process exits. */
export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  // Last resort when this process ends without stopping the group (an uncaught error, process.exit()).
  const onExit = () => {
    signalGroup(child, 'SIGKILL');
  };
  process.once('exit', onExit);
  child.once('exit', () => process.removeListener('exit', onExit));
  return child;
}

/** Sends `signal` to every process of `child`'s group; a group that is already gone is fine. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

/** Resolves once `child` has exited (at once if it already has), or false after `timeoutMs`. */
export function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      resolve(false);
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Stops `child`'s whole group: SIGTERM, then SIGKILL to the group if the leader has not exited within
 * `graceMs` (default 5000). Processes of the group that outlive their leader get the SIGKILL too.
 */
export async function stopGroup(child: ChildProcess, graceMs = 5_000): Promise<void> {
  signalGroup(child, 'SIGTERM');
  await exited(child, graceMs);
  // The leader may exit before its children (workerd): nothing of the group is wanted any more.
  signalGroup(child, 'SIGKILL');
  await exited(child, graceMs);
}

/**
 * Calls `onOrphaned` once when this process's parent goes away (npm killed by SIGTERM or SIGKILL leaves
 * its script running otherwise); checked every `everyMs` (default 500) on a timer that keeps nothing alive.
 */
export function whenOrphaned(onOrphaned: () => void, everyMs = 500): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onOrphaned();
    }
  }, everyMs);
  timer.unref();
}

/** Whether process `pid` exists (one owned by another user counts: `kill(pid, 0)` answers EPERM). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
