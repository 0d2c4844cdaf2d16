/**
 * Global setup of the e2e project: bundles the Worker once (`wrangler deploy --dry-run`, as every local
 * stack would) and reads wrangler.toml once (through wrangler, as every stack would), for every stack the
 * e2e files start (`startLocalStack({ worker: preparedWorker() })`, ./worker-ready.ts) instead of each making
 * its own. The processes the files start, `npm start` and the runner's own stack run as a developer runs them
 * (tests/cli/e2e/start.test.ts, meta-eval.test.ts), serve it too: each e2e test process's environment names it
 * (`TRIBUNAL_PREPARED_WORKER`, src/cli/prepared-worker.ts), and its children inherit that. A bundle costs
 * about 7 CPU-s (wrangler, esbuild and the assets' build), a start without one a runtime's boot only. It also
 * migrates one empty state, which the files copy for their stacks' fresh state folders (./seed-state.ts): a
 * fresh start then applies no migration.
 *
 * Vitest runs every project's global setup before the run's first file, so this one made `npm test`'s node
 * files wait for it (about 20 s at load 10). It now returns at once and a process at the lowest CPU priority
 * makes both (./worker-prepare.ts) with the cores the node and worker projects' files leave idle; the e2e
 * files wait for them (./worker-ready.ts, on the loopback endpoint provided as `inject('workerReady')`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, getPriority, setPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { PreparedWorker } from '../../src/cli/worker-bundle.js';
import { PREPARED_WORKER_ENV, preparedWorkerFrom } from '../../src/cli/prepared-worker.js';
import { ARENA_HOOK_SOURCE } from './miniflare-arena.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * Makes the bundle and the seed state in `dir` and `seed` (./worker-prepare.ts, a process of its own at the
 * lowest CPU priority, which its wrangler, esbuild and workerd children inherit: it takes only what the run's
 * test files leave idle, so the node files' timing tests see no more load than before). `made` resolves to what
 * was made, or rejects with the process's output; `hurry()` gives it this process's priority back (an e2e
 * file waits for it); `stop()` ends it.
 */
function prepareInBackground(
  dir: string,
  seed: string,
): { made: Promise<PreparedWorker>; hurry: () => void; stop: () => void } {
  // Its own process group, so a run that ends first stops wrangler and workerd with it.
  const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'worker-prepare.ts'), dir, seed], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid !== undefined) setPriority(child.pid, constants.priority.PRIORITY_LOW);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const made = new Promise<PreparedWorker>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) reject(new Error(`tests/support/worker-prepare.ts exited ${code ?? signal}:\n${output}`));
      else
        try {
          // Throws, naming what is missing, when the process ended without making it.
          const worker = preparedWorkerFrom({ [PREPARED_WORKER_ENV]: dir });
          if (worker) resolve(worker);
          else reject(new Error(`tests/support/worker-prepare.ts left no prepared Worker in ${dir}`));
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
    });
  });
  // Once an e2e file waits for it, it is no longer spare work: back to this process's priority, every
  // process of its group (Linux's /proc; raising a priority may need privileges: else it keeps its own).
  const hurry = () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const own = getPriority();
    // A priority is a thread's on Linux: every thread of every process (esbuild's and workerd's workers).
    for (const tid of groupMembers(child.pid).flatMap(threadsOf))
      try {
        setPriority(tid, own);
      } catch {
        // Gone meanwhile, or not allowed.
      }
  };
  // The whole group even when the making process has ended: a child it left would hold the output pipes open.
  const stop = () => {
    if (child.pid !== undefined)
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
  };
  return { made, hurry, stop };
}

/** The thread ids of process `pid` (Linux: /proc/<pid>/task), or the pid alone where that cannot be read. */
function threadsOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [pid];
  }
}

/** The pids of process group `pgid` (Linux: /proc/<pid>/stat's fifth field), none elsewhere. */
function groupMembers(pgid: number): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return pids.map(Number).filter((pid) => {
    try {
      // "pid (comm) state ppid pgrp ...": comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid;
    } catch {
      return false;
    }
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-e2e-bundle-'));
  // Every Node process of the run (test files, the stacks' runtime children, npm start) loads Miniflare with
  // its config serialization made linear (./miniflare-arena.ts): inherited through NODE_OPTIONS.
  const hook = join(dir, 'miniflare-arena.cjs');
  writeFileSync(hook, ARENA_HOOK_SOURCE);
  const nodeOptions = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = [nodeOptions, '--require', hook].filter(Boolean).join(' ');
  const seed = join(dir, 'seed-state');
  const { made: preparing, hurry, stop } = prepareInBackground(dir, seed);
  // A failure is answered to every e2e file that asks (each fails naming it), not thrown here.
  preparing.catch(() => undefined);
  const server = createServer((_req, res) => {
    hurry();
    preparing.then(
      (worker) => res.end(JSON.stringify({ dir, worker })),
      (e: unknown) => res.writeHead(500).end(e instanceof Error ? e.message : String(e)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('workerReady', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  project.provide('seedState', seed);
  return async () => {
    server.close();
    // A run that ended before the bundle was made (cancelled) stops the making first.
    stop();
    await preparing.catch(() => undefined);
    if (nodeOptions === undefined) Reflect.deleteProperty(process.env, 'NODE_OPTIONS');
    else process.env.NODE_OPTIONS = nodeOptions;
    rmSync(dir, { recursive: true, force: true });
  };
}
