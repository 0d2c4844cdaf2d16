/**
 * Where a bench keeps the local stack's state (D1, Durable Object SQLite files): on tmpfs (`/dev/shm`)
 * where the machine has one, else in the OS temp directory; `TRIBUNAL_BENCH_STATE` names another parent.
 *
 * Why tmpfs: locally every Durable Object is an SQLite file that workerd creates, writes and syncs on
 * its one thread, so on a disk each new evaluation's file I/O waits on that thread (bench:peers 42 vs 53
 * items/s on this machine's disk and tmpfs). A deployment's storage does not run on the isolate's thread,
 * so RAM is the closer stand-in; the same writes still happen. BENCHMARKS.md says which each figure used.
 */
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The parent directory benches put their state under, and how it was chosen (for the printed header). */
export function benchStateRoot(): { root: string; why: string } {
  const given = process.env.TRIBUNAL_BENCH_STATE;
  if (given) return { root: given, why: `TRIBUNAL_BENCH_STATE=${given}` };
  try {
    accessSync('/dev/shm', constants.W_OK);
    return { root: '/dev/shm', why: 'tmpfs (/dev/shm)' };
  } catch {
    return { root: tmpdir(), why: `the temp directory ${tmpdir()}` };
  }
}

/**
 * A new, empty directory for one bench run's state, under {@link benchStateRoot}. It is removed when the
 * process exits (on tmpfs it holds RAM: every evaluation leaves an SQLite file), unless
 * `TRIBUNAL_BENCH_KEEP_STATE=1` keeps it for a look afterwards.
 */
export function benchStateDir(prefix: string): string {
  const dir = mkdtempSync(join(benchStateRoot().root, prefix));
  if (process.env.TRIBUNAL_BENCH_KEEP_STATE !== '1')
    process.on('exit', () => {
      rmSync(dir, { recursive: true, force: true });
    });
  return dir;
}
