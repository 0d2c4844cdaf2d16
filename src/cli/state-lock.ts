/**
 * @module
 * One runtime per local state directory. Two runtimes on the same D1 and Durable Object files (a second
 * `npm start` on another port) would each see the other's evaluations as their own: the sweeper of one
 * re-kicks what the other runs, and neither's objects know of the other's. So the local stack takes a
 * lock file in the state directory (`tribunal.lock`: the holder's pid and URL) and refuses a directory
 * whose holder is alive; a lock left by a process that is gone (a crash) is taken over. Node only.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from './process-group.js';

/** The lock file's name inside the state directory. */
export const STATE_LOCK_FILE = 'tribunal.lock';

/** Who holds a state directory. */
export interface StateHolder {
  pid: number;
  url: string;
}

/** The state directory is in use by another live local stack. */
export class StateInUseError extends Error {
  override name = 'StateInUseError';
  constructor(
    readonly persistTo: string,
    readonly holder: StateHolder,
  ) {
    super(
      `the local state in ${persistTo} is in use by another Tribunal (pid ${holder.pid}, ${holder.url}): two runtimes ` +
        "on one state would take over each other's work, so this one is not started. Use that one, stop it, or give " +
        'this one its own state with --persist-to DIR (npm start -- --port N --persist-to .wrangler/state-N)',
    );
  }
}

function holderOf(path: string): StateHolder | null {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Partial<StateHolder>;
    return typeof h.pid === 'number' && typeof h.url === 'string' ? { pid: h.pid, url: h.url } : null;
  } catch {
    return null;
  }
}

/** A held state lock: `serving` names the URL once known (a stack on port 0 learns it after the start). */
export interface StateLock {
  /** Releases the lock (idempotent). */
  release(): void;
  /** Rewrites the holder's URL, for the message another stack on this state gets. */
  serving(url: string): void;
}

/**
 * Takes the lock of `persistTo` (created if missing) for this process, serving `url`. Throws
 * {@link StateInUseError} when a live process holds it.
 */
export function lockState(persistTo: string, url: string): StateLock {
  mkdirSync(persistTo, { recursive: true });
  const path = join(persistTo, STATE_LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw e;
      const holder = holderOf(path);
      if (holder && processAlive(holder.pid)) throw new StateInUseError(persistTo, holder);
      // Left by a process that is gone (or half written by one that died): take it over.
      rmSync(path, { force: true });
      continue;
    }
    writeSync(fd, JSON.stringify({ pid: process.pid, url } satisfies StateHolder));
    closeSync(fd);
    let held = true;
    const ours = () => held && holderOf(path)?.pid === process.pid;
    return {
      release: () => {
        if (ours()) rmSync(path, { force: true });
        held = false;
      },
      serving: (servedAt) => {
        if (ours()) writeFileSync(path, JSON.stringify({ pid: process.pid, url: servedAt } satisfies StateHolder));
      },
    };
  }
}
