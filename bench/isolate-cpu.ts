/**
 * Whose CPU a local runtime's workerd spends, for `bench:peers`: the Worker's own isolates (what a deployed
 * Worker is billed for) apart from the local runtime's emulation (Miniflare's entry and router workers,
 * local D1's worker and its SQLite) and from workerd's own work outside any isolate (I/O, KJ, HTTP).
 *
 * How it is measured. workerd runs every isolate on its one main thread and its V8 helpers (the collector's
 * and the compiler's) on other threads, so /proc's per-thread CPU splits the process exactly into the main
 * thread and the helpers. Within the main thread, V8's sampling profiler (workerd's inspector, one session per
 * isolate) records a sample of an isolate only while that isolate is locked on the thread: its JS, its
 * collector's pauses and the runtime's C++ it calls (a Durable Object's SQLite included). An isolate's samples
 * times the sampler's period is the time it held the thread. The shares of the main thread so measured are
 * applied to the main thread's CPU of an unprofiled pass of the same loop (the profiler's own cost, on the
 * profiled isolates, is then left out). The remainder of the main thread is workerd's work outside any isolate.
 * Error: the sampling's (about 1/√samples of a share) and the thread's preemption while it holds a lock, which
 * counts as held (small on a quiet machine, a few % at load 10).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import type { CpuProfile } from './cpu-profile.js';
import { achievedPeriodUs, session } from './cpu-profile.js';
import { TICKS_PER_SECOND } from './proc-cpu.js';

/**
 * CPU ms (user + system) so far of process `pid`: its main thread and all its other threads; and the main
 * thread's time waiting runnable for a CPU (Linux's schedstat, ms).
 */
export function threadSplitMs(pid: number): { main: number; helpers: number; mainRunQueue: number } {
  let main = 0;
  let helpers = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    if (Number(tid) === pid) main += ms;
    else helpers += ms;
  }
  let mainRunQueue = 0;
  try {
    mainRunQueue = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    // No schedstat in this kernel: no correction for preemption.
  }
  return { main, helpers, mainRunQueue };
}

/** Who an isolate's CPU belongs to: the Worker under test, or the local runtime's emulation around it. */
export type Owner = 'worker' | 'emulation';

/** Inspector targets worth profiling: the ones that run per request (the others were seen idle). */
const PROFILED = /core:user:|core:entry|strip-cf-connecting-ip|d1:|assets:router|assets:rpc-proxy/;

/**
 * The owner of the isolate titled `title` (`workerd: worker core:user:tribunal`, …), given the Worker's
 * service names `own` (Tribunal: `tribunal`; the forwarding floor: its unnamed Worker, ``).
 */
export function ownerOf(title: string, own: readonly string[]): Owner {
  const m = /core:user:(.*)$/.exec(title);
  return m && own.includes(m[1] ?? '') ? 'worker' : 'emulation';
}

/** One isolate's share of the main thread over a profiled pass. */
export interface IsolateTime {
  title: string;
  owner: Owner;
  samples: number;
  /** Of {@link samples}, in V8's collector (its pauses on the main thread). */
  gcSamples: number;
  /**
   * Of {@link samples}, those whose leaf-most JS function is one of the `inCall` names given to
   * {@link profileIsolates}: native work inside a call the runtime makes synchronously for it.
   */
  inCallSamples: number;
  /** Time it held the main thread, ms: samples times the sampler's achieved period. */
  heldMs: number;
}

/**
 * Starts V8's sampling profiler (every `intervalUs` µs, default 500) in every per-request isolate of the
 * workerd whose inspector listens on `inspectorPort`; `stop()` ends them and says how long each held the thread.
 */
export async function profileIsolates(
  inspectorPort: number,
  own: readonly string[],
  inCall: readonly string[] = [],
  intervalUs = 500,
): Promise<{ stop(): Promise<IsolateTime[]> }> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as {
    title: string;
    webSocketDebuggerUrl: string;
  }[];
  const sessions: { title: string; s: Awaited<ReturnType<typeof session>> }[] = [];
  for (const t of targets.filter((t) => PROFILED.test(t.title))) {
    const s = await session(t.webSocketDebuggerUrl);
    await s.send('Profiler.enable');
    await s.send('Profiler.setSamplingInterval', { interval: intervalUs });
    sessions.push({ title: t.title, s });
  }
  for (const { s } of sessions) await s.send('Profiler.start');
  return {
    async stop() {
      const out: IsolateTime[] = [];
      for (const { title, s } of sessions) {
        const { profile } = (await s.send('Profiler.stop')) as { profile: CpuProfile };
        s.close();
        const gcIds = new Set(
          profile.nodes.filter((n) => n.callFrame.functionName === '(garbage collector)').map((n) => n.id),
        );
        const inCallIds = new Set(
          profile.nodes.filter((n) => inCall.includes(n.callFrame.functionName)).map((n) => n.id),
        );
        const samples = profile.samples.length;
        out.push({
          title: title.replace(/^workerd: worker /, ''),
          owner: ownerOf(title, own),
          samples,
          gcSamples: profile.samples.filter((id) => gcIds.has(id)).length,
          inCallSamples: profile.samples.filter((id) => inCallIds.has(id)).length,
          heldMs: (samples * achievedPeriodUs(profile, intervalUs)) / 1000,
        });
      }
      return out;
    },
  };
}

/** workerd's CPU per item split by owner, ms (from {@link splitCpu}). */
export interface CpuSplit {
  /** The whole process, unprofiled pass (as `bench:peers` prints it). */
  whole: number;
  /** The Worker's own isolates (a deployed Worker is billed this less {@link workerInCall}). */
  worker: number;
  /** Of {@link worker}, its collector's pauses. */
  workerGc: number;
  /** Of {@link worker}, the runtime's work inside the `inCall` functions' own samples ({@link IsolateTime}). */
  workerInCall: number;
  /** The local runtime's emulation: Miniflare's entry, router and D1 workers. */
  emulation: number;
  /** The main thread outside any profiled isolate: workerd's I/O, KJ, HTTP, SQLite commits of the runtime. */
  outside: number;
  /** V8's helper threads (concurrent collection, compilation) of all isolates. */
  helpers: number;
  /** The isolates, busiest first, ms per item. */
  isolates: { title: string; owner: Owner; ms: number }[];
  /** Samples behind {@link worker} (its relative error is about 1/√samples). */
  workerSamples: number;
  /** The profiled pass: its main thread's CPU, run-queue wait and the isolates' held time on CPU, ms per item. */
  profiled: { main: number; runQueue: number; held: number };
}

/**
 * Splits an unprofiled pass's workerd CPU (`unprofiled`: main thread and helpers, ms per item) by the shares
 * of the main thread the isolates held in a profiled pass (`profiledMain`: that pass's main-thread CPU and its
 * time waiting runnable for a CPU, ms per item; `isolates`' times over `items` items). Held time is wall time:
 * it is scaled by the thread's CPU ÷ (CPU + run-queue wait), as if preemption hit locked and unlocked work alike
 * (a lower bound of the isolates' share), unless `spreadWait` is false (the wait counted as held: an upper bound).
 */
export function splitCpu(
  unprofiled: { main: number; helpers: number },
  profiledMain: { cpu: number; runQueue: number },
  isolates: readonly IsolateTime[],
  items: number,
  spreadWait = true,
): CpuSplit {
  const profiledMainMs = profiledMain.cpu;
  const onCpu = spreadWait ? profiledMainMs / Math.max(profiledMainMs + profiledMain.runQueue, 1e-9) : 1;
  const held = (onCpu * isolates.reduce((a, i) => a + i.heldMs, 0)) / items;
  // Never more than the thread's CPU (blocking calls made under a lock count as held too).
  const scale = (onCpu * unprofiled.main) / Math.max(profiledMainMs, held);
  const per = (ms: number) => (ms / items) * scale;
  const sumOf = (owner: Owner) => isolates.filter((i) => i.owner === owner).reduce((a, i) => a + per(i.heldMs), 0);
  const own = isolates.filter((i) => i.owner === 'worker');
  const worker = sumOf('worker');
  const emulation = sumOf('emulation');
  return {
    whole: unprofiled.main + unprofiled.helpers,
    worker,
    workerGc: own.reduce((a, i) => a + per((i.heldMs * i.gcSamples) / Math.max(i.samples, 1)), 0),
    workerInCall: own.reduce((a, i) => a + per((i.heldMs * i.inCallSamples) / Math.max(i.samples, 1)), 0),
    emulation,
    outside: Math.max(0, unprofiled.main - worker - emulation),
    helpers: unprofiled.helpers,
    isolates: isolates
      .map((i) => ({ title: i.title, owner: i.owner, ms: per(i.heldMs) }))
      .filter((i) => i.ms > 0)
      .sort((a, b) => b.ms - a.ms),
    workerSamples: own.reduce((a, i) => a + i.samples, 0),
    profiled: { main: profiledMainMs, runQueue: profiledMain.runQueue, held },
  };
}

/** The pid of the (first) workerd process in process group `pgid`. */
export function workerdPid(pgid: number): number {
  const pid = Number(
    execFileSync('pgrep', ['-g', String(pgid), 'workerd'], { encoding: 'utf8' })
      .trim()
      .split('\n')[0],
  );
  if (!pid) throw new Error(`no workerd process in process group ${pgid}`);
  return pid;
}

/** The markdown table of each tool's {@link CpuSplit} (ms per item), and a line per tool of its isolates. */
export function splitTable(rows: readonly { tool: string; split: CpuSplit }[]): string[] {
  const f = (x: number) => x.toFixed(2);
  return [
    "| tool | workerd, all (unprofiled) | the Worker's isolates | of which its collector | of which workerd inside its RPC to a new object | billed when deployed (isolates − that) | the local runtime's emulation | workerd outside any isolate | V8 helper threads | samples behind the Worker's |",
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      ({ tool, split: s }) =>
        `| ${tool} | ${f(s.whole)} | ${f(s.worker)} | ${f(s.workerGc)} | ${f(s.workerInCall)} | ${f(s.worker - s.workerInCall)} | ${f(s.emulation)} | ${f(s.outside)} | ${f(s.helpers)} | ${s.workerSamples} |`,
    ),
    '',
    ...rows.map(
      ({ tool, split: s }) =>
        `${tool}, profiled pass: main thread ${f(s.profiled.main)} CPU ms / item and ${f(s.profiled.runQueue)} ms waiting for a CPU, isolates held it ${f(s.profiled.held)} ms of its CPU; by isolate (ms / item): ${s.isolates.map((i) => `${i.title}${i.owner === 'worker' ? ' (the Worker)' : ''} ${f(i.ms)}`).join(', ')}`,
    ),
  ];
}
