/**
 * @module
 * The temp directory of one `vitest run` (vitest.config.ts calls {@link useTmpfsForRun} first): a fresh folder
 * on tmpfs (`/dev/shm`) when the machine has one with room, removed when the run's process exits; else the
 * temp directory is left as it is (a CI container without `/dev/shm`, or with Docker's 64 MB one).
 *
 * Why: everything the run keeps in `os.tmpdir()` goes there through `TMPDIR`, which the vitest process and
 * every child inherit: the worker pool's Miniflare state (each file's D1 databases and Durable Object SQLite
 * files, created, written, synced and deleted by workerd on its one thread), the e2e stacks' state folders,
 * bundles and browser profiles, the CLIs the tests run. On this machine's disk (ext4, mounted `discard`) the
 * run wrote 1.3 GB and workerd waited on it: the worker projects took 149.6 s wall, 142.6 + 34.9 CPU-s on
 * disk against 129.7 s, 135.9 + 25.9 on tmpfs. The same files are written; only where they live changes.
 *
 * `TRIBUNAL_TEST_TMPFS=0` keeps the temp directory as given (e.g. to look at a stack's state afterwards).
 */
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statfsSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Where the run's folder goes when it can. */
const TMPFS = '/dev/shm';

/** The room tmpfs must have free, in bytes: 1 GiB (node, worker and the shards' files peaked at 79 MB; it is RAM). */
const MIN_FREE_BYTES = 1024 ** 3;

/** The run's folder name: the pid tells a later run whether its owner is gone (killed before its exit hook). */
const PREFIX = 'tribunal-test-';

/**
 * Points `TMPDIR` at a fresh folder on tmpfs for this process and its children, and removes it on exit.
 * Returns the folder, or null when the temp directory stays as it was (no writable tmpfs with room, or
 * `TRIBUNAL_TEST_TMPFS=0`). Folders of earlier runs whose process is gone (a killed run) are removed first.
 */
export function useTmpfsForRun(): string | null {
  if (process.env.TRIBUNAL_TEST_TMPFS === '0') return null;
  try {
    accessSync(TMPFS, constants.W_OK);
    const fs = statfsSync(TMPFS);
    if (fs.bavail * fs.bsize < MIN_FREE_BYTES) return null;
  } catch {
    return null;
  }
  removeOrphans();
  const before = tmpdir();
  const dir = mkdtempSync(join(TMPFS, `${PREFIX}${process.pid}-`));
  keepTsxCache(before, dir);
  process.env.TMPDIR = dir;
  process.on('exit', () => {
    // A child still writing into it must not fail a passing run: the next run removes what is left.
    removeQuietly(dir);
  });
  return dir;
}

/** Removes the folders of runs whose process no longer exists. */
function removeOrphans(): void {
  for (const name of readdirSync(TMPFS)) {
    const pid = new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1];
    if (!pid || alive(Number(pid))) continue;
    const path = join(TMPFS, name);
    // Another user's killed run is theirs to clean: removing it would fail on its permissions anyway.
    if (process.getuid && statSync(path, { throwIfNoEntry: false })?.uid !== process.getuid()) continue;
    removeQuietly(path);
  }
}

/** Removes a folder, retrying briefly; a folder that cannot go now is left for the next run. */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // Left for the next run's removeOrphans.
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * tsx keeps its transforms in `<tmpdir>/tsx-<euid>`, a cache across runs: the run's folder links to the
 * one in the temp directory it replaced, so the CLIs the tests spawn (`node --import tsx`) start warm. Also for
 * a test that gives a CLI a `TMPDIR` of its own (`before` the temp directory whose cache it shares, `dir` the
 * new one).
 */
export function keepTsxCache(before: string, dir: string): void {
  // tsx's own naming: the effective uid, or the user name where there is none.
  const name = `tsx-${process.geteuid?.() ?? userInfo().username}`;
  const cache = join(before, name);
  try {
    if (!existsSync(cache)) mkdirSync(cache, { recursive: true });
    symlinkSync(cache, join(dir, name));
  } catch {
    // No cache to share: tsx makes its own in the run's folder.
  }
}
