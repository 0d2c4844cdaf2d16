/**
 * `npm start` signalled while it starts (here while it bundles the Worker) stops what it started: wrangler runs
 * as a process group of its own, which a signal to npm start alone never reaches, and was left running (spinning
 * a core on EPIPE once npm start was gone). A stub stands in for wrangler (TRIBUNAL_WRANGLER): a leader and a
 * child that ignores SIGTERM, as wrangler's esbuild may. A SIGKILL, which no handler of npm start sees, ends the
 * group too.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProgram } from '../support/npm-start.js';
import { liveProcesses } from '../support/proc-stat.js';

const dir = mkdtempSync(join(tmpdir(), 'start-interrupt-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves once `file` (in `dir`) exists. */
function created(file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, () => {
      if (!existsSync(file)) return;
      watcher.close();
      resolve();
    });
    if (existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

/** Live processes whose process group is `pgid`. */
function groupMembers(pgid: number): number[] {
  return liveProcesses()
    .filter((p) => p.pgrp === pgid)
    .map((p) => p.pid);
}

/** Resolves to the members of group `pgid` still running once it has none, or after `ms`. */
async function groupGone(pgid: number, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  // SIGKILL is delivered, not awaited: a member may take a moment to die and be reaped.
  while (groupMembers(pgid).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return groupMembers(pgid);
}

/**
 * npm start (its program, on state `name`) with the stub for wrangler, once the stub's group is up: the run and
 * the group's leader.
 */
async function startBundling(name: string): Promise<{ run: ReturnType<typeof startProgram>; leader: number }> {
  const pids = join(dir, `pids-${name}`);
  const run = startProgram(['--port', '0', '--mock-port', '0', '--persist-to', join(dir, name), '--no-watch'], {
    TRIBUNAL_WRANGLER: join(import.meta.dirname, '../support/wrangler-stub.sh'),
    TRIBUNAL_STUB_PIDS: pids,
    TRIBUNAL_PREPARED_WORKER: '',
  });
  await Promise.race([created(pids), run.exit.then(() => Promise.reject(new Error(run.output())))]);
  const [leader = 0, child = 0] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
  // The stub's `mv` may not have ended yet: the group holds at least the two.
  expect(groupMembers(leader)).toEqual(expect.arrayContaining([leader, child]));
  return { run, leader };
}

describe('npm start interrupted while it bundles the Worker', () => {
  it('SIGINT: ends on the signal and leaves no process of the bundling group', async () => {
    const { run, leader } = await startBundling('state');
    run.child.kill('SIGINT');
    await run.exit;
    expect(run.child.signalCode, run.output()).toBe('SIGINT');
    expect(await groupGone(leader, 5_000)).toEqual([]);
  });

  it('SIGKILL (no handler runs): the bundling group still ends, through the guard that holds a pipe from npm start', async () => {
    const { run, leader } = await startBundling('state-kill');
    run.child.kill('SIGKILL');
    await run.exit;
    try {
      expect(await groupGone(leader, 10_000)).toEqual([]);
    } finally {
      // Whatever the outcome, nothing of the stub outlives the test.
      if (groupMembers(leader).length > 0) process.kill(-leader, 'SIGKILL');
    }
  });
});
