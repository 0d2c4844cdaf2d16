/**
 * @module
 * Child processes that own their process group (wrangler with its workerd and esbuild children, or the
 * Miniflare runtime with its workerd), so stopping one stops everything it started: signals go to the
 * whole group, never to the leader alone (a workerd left behind keeps its port bound). A group also ends when
 * this process dies of a signal nothing can handle (SIGKILL): a guard shell holding a pipe from it kills the
 * group at the pipe's end. Node only, POSIX.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';

/** The groups {@link spawnGroup} started whose leader has not exited yet. */
const live = new Set<ChildProcess>();

/** The signals that end a process that does not handle them. */
const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * While a group is live: a signal that would end this process (nothing else listens to it) ends its groups
 * too, then this process as before. A group is not in this process's group, so a terminal's Ctrl+C no longer
 * reaches it; and `exit` listeners do not run when a signal ends a process.
 */
function onEndingSignal(signal: NodeJS.Signals): void {
  // Another listener handles the signal (npm start): it decides what happens to the groups.
  if (process.listenerCount(signal) > 1) return;
  for (const child of live) signalGroup(child, 'SIGKILL');
  for (const s of ENDING_SIGNALS) process.removeListener(s, onEndingSignal);
  process.kill(process.pid, signal);
}

/**
 * A shell that kills a process group when its stdin ends: the first line it reads names the group; the pipe is
 * one only this process holds open, which the kernel closes however this process ends, SIGKILL included (no
 * handler of ours runs then). In a session of its own, so a terminal's Ctrl+C does not end it first. At the
 * pipe's end before a group was named, there is nothing to kill.
 */
const GUARD_SCRIPT = 'read -r group || exit 0; read -r _; kill -KILL "-$group" 2>/dev/null';

/**
 * Starts a guard (see {@link GUARD_SCRIPT}), before the group it guards: the group's id is written to it in the
 * same turn as the group's spawn, so no window of a fork stands between the two. Held by nothing: it keeps no
 * event loop alive. Returns how to name the group to it, and how to end it quietly (the leader exited: the group
 * is then this process's to stop, as before).
 */
function startGuard(): { guard: (pgid: number) => void; end: () => void } {
  const guard = spawn('/bin/sh', ['-c', GUARD_SCRIPT], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  guard.on('error', () => undefined);
  guard.stdin.on('error', () => undefined);
  guard.unref();
  // A child's pipe is a socket: unreferenced, it keeps no event loop alive.
  (guard.stdin as unknown as { unref(): void }).unref();
  return {
    guard: (pgid) => {
      guard.stdin.write(`${String(pgid)}\n`);
    },
    end: () => {
      guard.kill('SIGKILL');
    },
  };
}

/**
 * Spawns `command` as the leader of a new process group. The group gets a SIGKILL when this process exits,
 * when a signal it does not handle ends it (SIGINT, SIGTERM, SIGHUP), or when it dies of a signal no handler
 * sees (SIGKILL, an OOM kill): a guard process waits on a pipe from this one and kills the group at its end.
 */
export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const guard = startGuard();
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid === undefined) guard.end();
  else {
    guard.guard(child.pid);
    child.once('exit', () => {
      guard.end();
    });
  }
  // Last resort when this process ends without stopping the group (an uncaught error, process.exit()).
  const onExit = () => {
    signalGroup(child, 'SIGKILL');
  };
  process.once('exit', onExit);
  if (child.pid !== undefined) {
    // First of the listeners: a `once` listener (meta-eval's Ctrl+C) is removed before it is called, so a later one
    // would count it gone and end the process under it.
    if (live.size === 0) for (const s of ENDING_SIGNALS) process.prependListener(s, onEndingSignal);
    live.add(child);
  }
  const gone = () => {
    process.removeListener('exit', onExit);
    if (!live.delete(child) || live.size > 0) return;
    for (const s of ENDING_SIGNALS) process.removeListener(s, onEndingSignal);
  };
  // A command that could not be spawned (ENOENT) has no pid: it was never live.
  child.once('exit', gone);
  return child;
}

/**
 * Stops every group {@link spawnGroup} started in this process that is still running ({@link stopGroup},
 * `graceMs` each, at the same time): what a process stops before it ends on a signal it handles.
 */
export async function stopLiveGroups(graceMs = 5_000): Promise<void> {
  await Promise.all([...live].map((child) => stopGroup(child, graceMs)));
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
