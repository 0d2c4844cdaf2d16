/**
 * @module
 * The local stack's bundle directory (the Worker bundle and the runtime child, about 11 MB) in the OS
 * temp directory: made with its owner's pid inside, removed when the stack stops, and, for a stack whose
 * process was killed before it could remove its own, removed by the next stack that starts once that
 * pid is gone. Node only.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './process-group.js';

/** Name prefix of a bundle directory. */
export const BUNDLE_DIR_PREFIX = 'tribunal-bundle-';

/** File in a bundle directory holding its owner's pid. */
const OWNER_FILE = '.owner-pid';

/** A directory without an owner file (made before owners were written) counts as stale after this long, ms (24 h). */
export const UNOWNED_STALE_MS = 24 * 60 * 60 * 1000;

/** Whether the bundle directory `dir` is left over: its owner is gone, or it has none and is older than {@link UNOWNED_STALE_MS}. */
function stale(dir: string, now: number): boolean {
  let owner: string;
  try {
    owner = readFileSync(join(dir, OWNER_FILE), 'utf8');
  } catch {
    try {
      return now - statSync(dir).mtimeMs > UNOWNED_STALE_MS;
    } catch {
      return false;
    }
  }
  const pid = Number.parseInt(owner, 10);
  return Number.isInteger(pid) && pid > 0 && !processAlive(pid);
}

/**
 * Removes the bundle directories under `root` (default the OS temp directory) that are left over (see
 * {@link stale}); one being removed by another stack at the same time is fine. Resolves to the names removed.
 */
export function removeStaleBundleDirs(root = tmpdir(), now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => n.startsWith(BUNDLE_DIR_PREFIX));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const dir = join(root, name);
    if (!stale(dir, now)) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** A new bundle directory under `root` (default the OS temp directory) owned by this process, and its removal. */
export function makeBundleDir(root = tmpdir()): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(root, BUNDLE_DIR_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  return {
    dir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
