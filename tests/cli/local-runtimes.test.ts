/**
 * The key a stopped stack's runtime child is kept under (src/cli/local-runtimes.ts): the e2e tests' next file
 * takes it only if vitest's per-file variables are left out of it; the next stack it serves gets no answer meant
 * for the stack before.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EndedRef } from '../../src/cli/ended.js';
import { reuseEnv, startMiniflare } from '../../src/cli/local-runtimes.js';
import { processAlive, stopGroup } from '../../src/cli/process-group.js';
import type { WorkerSetup } from '../../src/cli/worker-options.js';
import { liveProcesses } from '../support/proc-stat.js';

/**
 * This process's live children (zombies excepted), from /proc. A test finds the child the code under test spawns
 * by the difference before and after the call, which spawns synchronously: not with `vi.mock` of process-group,
 * which the node project's shared module cache (`isolate: false`) may already hold unmocked from another file.
 */
function ownChildren(): Set<number> {
  return new Set(
    liveProcesses()
      .filter((p) => p.ppid === process.pid)
      .map((p) => p.pid),
  );
}

/** Process `pid`'s command line, or '' once it is gone. */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

describe('a kept runtime child’s key', () => {
  it('leaves out vitest’s per-file variables, so the next file of the process takes the child', () => {
    const base = { PATH: '/usr/bin', LLM_BASE_URL: 'http://127.0.0.1:1' };
    expect(reuseEnv({ ...base, VITEST_WORKER_ID: '3', VITEST_POOL_ID: '1' })).toEqual(
      reuseEnv({ ...base, VITEST_WORKER_ID: '4', VITEST_POOL_ID: '1' }),
    );
  });

  it('keeps every other variable, in one order: a child spawned with another environment is not taken', () => {
    expect(reuseEnv({ B: '2', A: '1' })).toEqual([
      ['A', '1'],
      ['B', '2'],
    ]);
    expect(JSON.stringify(reuseEnv({ LLM_BASE_URL: 'http://a' }))).not.toBe(
      JSON.stringify(reuseEnv({ LLM_BASE_URL: 'http://b' })),
    );
  });
});

/**
 * A runtime child that speaks the parent's protocol (src/cli/miniflare-runtime.ts) and answers the first
 * `describe` it gets late: only once the next request of the next stack came, just before that one's answer.
 */
const FAKE_RUNTIME = `
let late = null;
let first = true;
process.on('disconnect', () => process.exit(0));
process.on('message', (m) => {
  if (m.type === 'start') process.send({ type: 'ready', url: 'http://127.0.0.1:1', crons: [], fromEnv: [], fromDevVars: [] });
  else if (m.type === 'dispose') process.send({ type: 'disposed' });
  else if (m.type === 'describe') {
    if (first) { first = false; late = m.requestId; return; }
    if (late !== null) process.send({ type: 'described', requestId: late, described: { stale: true } });
    late = null;
    process.send({ type: 'described', requestId: m.requestId, described: { fresh: m.requestId } });
  }
});
`;

describe('a kept runtime child serving the next stack', () => {
  it("a late answer to a stopped stack's describe reaches no request of the next stack", async () => {
    const dir = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'fake-runtime-'));
    const runtime = join(dir, 'fake-runtime.mjs');
    writeFileSync(runtime, FAKE_RUNTIME);
    const config = {} as Parameters<typeof startMiniflare>[0];
    const prepared = () => Promise.resolve({ entry: 'x.js', setup: { name: 'w' } as WorkerSetup });
    const ref: EndedRef = { evaluationId: 'ev_1' };
    const first = await startMiniflare(config, runtime, prepared(), {}, dir, true);
    // Its answer never comes while this stack runs: the stop answers it with null, the child is kept.
    const unanswered = first.describe(ref);
    expect(await first.release()).toBe(true);
    expect(await unanswered).toBeNull();
    const second = await startMiniflare(config, runtime, prepared(), {}, dir, true);
    try {
      expect(second.child.pid).toBe(first.child.pid);
      // The child sends the first stack's late answer, then this one's: this request gets its own.
      const answer = (await second.describe(ref)) as unknown as { fresh?: number; stale?: boolean };
      expect(answer.stale).toBeUndefined();
      expect(answer.fresh).toBeGreaterThan(0);
    } finally {
      await stopGroup(second.child);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a runtime child that never answers its start', () => {
  it('is stopped, and the start fails naming the start that did not come, within its bound', async () => {
    const dir = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'silent-runtime-'));
    const runtime = join(dir, 'silent-runtime.mjs');
    // Connected and alive, never answering (as a workerd up with no socket once held a start).
    writeFileSync(runtime, "process.on('message', () => {});\n");
    const prepared = Promise.resolve({ entry: 'x.js', setup: { name: 'w' } as WorkerSetup });
    try {
      const before = ownChildren();
      // A short bound: the child is found by its spawn, so it need not have started by then on a busy machine.
      const start = startMiniflare({} as Parameters<typeof startMiniflare>[0], runtime, prepared, {}, dir, false, 200);
      // The runtime's own (its group's guard, a shell, is a child too: src/cli/process-group.ts).
      const child = [...ownChildren()].filter((pid) => !before.has(pid) && commandLine(pid).includes(runtime));
      expect(child).toHaveLength(1);
      await expect(start).rejects.toThrow('the local runtime did not start: no answer to its start within 0.2 s');
      expect(processAlive(child[0] ?? 0)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
