/**
 * A batch of verdict cache hits beside a batch that calls the LLM, under `npm start`: a guard for the stall that
 * froze npm start's API for 21-53 s (a verdict cache hit ends without a socket, so a window of hits kept
 * workerd's one event loop busy and no socket was read; src/batches/pump.ts `yieldToIo` now waits one timer turn
 * before the next item of an ending that made no call). Runs `npm start` (state on tmpfs, its bundled mock),
 *   1. batch W: N `fastchat-pair` items (calibration off: one call each), to its end (it fills the cache);
 *   2. batch A: N new items (LLM calls); `--lead` seconds later batch B: W's items again, all cache hits;
 *   3. every second, `GET /v1/batches/{A}` then `{B}`, until both ended.
 * Prints the API's longest unanswered gap (between two answered rounds: how long workerd left the API waiting)
 * while B ran, A's items ended while B ran, both batches' times and workerd's CPU meanwhile. A regression shows
 * as a gap of tens of seconds and A ending almost nothing while B runs (without `yieldToIo`: 17-53 s, +48-96
 * items; with it: 3-6 s, +470-610 items, at load 8-14 in BENCHMARKS.md).
 *
 * ```
 * npm run bench:stall -- [--items 1000] [--lead 5] [--port P] [--deadline 1800]
 * ```
 * Past `--deadline` seconds in all it exits 1, naming what it still waited for (a runtime that stopped answering
 * would otherwise keep it polling).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { intOption, runCli } from '../src/cli/args.js';
import type { CliValues } from '../src/cli/args.js';
import { freePort } from '../src/cli/ports.js';
import { REPO_ROOT } from '../src/cli/worker-bundle.js';
import { TICKS_PER_SECOND } from './proc-cpu.js';
import { liveProcesses } from '../tests/support/proc-stat.js';
import { benchStateDir, benchStateRoot } from './state-dir.js';

const CLI = {
  usage: `usage: npm run bench:stall -- [options]

A batch of verdict cache hits beside a batch that calls the LLM, under npm start: the API's longest gap.

  --items N        items in each batch (default 1000)
  --lead S         seconds between batch A (LLM calls) and batch B (cache hits) (default 5)
  --port P         the API's port, P + 1 the mock's (default: free ports)
  --deadline S     exit 1 naming what it waits for when the whole run takes longer (default 1800)
  -h, --help       this text`,
  options: {
    items: { type: 'string', default: '1000' },
    lead: { type: 'string', default: '5' },
    port: { type: 'string' },
    deadline: { type: 'string', default: '1800' },
  },
} as const;

interface BatchView {
  completedAt: string | null;
  counts: { succeeded: number; failed: number; cancelled: number };
  cache: { hits: number } | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ended = (v: BatchView) => v.counts.succeeded + v.counts.failed + v.counts.cancelled;
const HEADER = { preset: 'fastchat-pair', config: { calibration: { enabled: false } } };

/** `n` pairwise items, distinct by `tag` and index. */
function items(tag: string, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    task: { kind: 'pairwise', question: `(${tag} ${i}) 2 + 2?`, answerA: 'Four, since 2 + 2 = 4.', answerB: 'Five.' },
  }));
}

async function post(url: string, body: unknown): Promise<string> {
  const r = await fetch(`${url}/v1/batches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (r.status !== 202) throw new Error(`POST /v1/batches: HTTP ${r.status}: ${(await r.text()).slice(0, 200)}`);
  const accepted = (await r.json()) as { id?: string };
  if (!accepted.id) throw new Error('POST /v1/batches: HTTP 202 without an id');
  return accepted.id;
}

async function view(url: string, id: string): Promise<BatchView> {
  return (await (await fetch(`${url}/v1/batches/${id}`)).json()) as BatchView;
}

/** Starts `npm start` on fresh state; resolves once its banner is out, with how to stop it. */
async function startStack(port: number, mockPort: number): Promise<{ pgid: number; stop: () => void }> {
  const persist = join(benchStateDir('tribunal-bench-stall-'), 'state');
  const args = ['start', '--', '--port', String(port), '--mock-port', String(mockPort), '--persist-to', persist];
  const child = spawn('npm', [...args, '--no-watch'], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: '' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('npm start did not start');
  const pgid = child.pid;
  // SIGKILL: a stalled runtime may not finish a graceful stop; npm start's child groups end with it (their guards).
  const stop = () => {
    child.stdout.destroy();
    child.stderr.destroy();
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  process.on('exit', stop);
  let out = '';
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Press Ctrl+C to stop.')) resolve();
    });
    child.once('exit', () => {
      reject(new Error(`npm start exited:\n${out}`));
    });
  });
  return { pgid, stop };
}

/** The CPU ms (user + system) of every live `workerd` descended from process `root` (npm start's runtime's). */
function workerdMs(root: number): number {
  const procs = liveProcesses().map((p) => ({ ...p, ...statOf(p.pid) }));
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const under = (pid: number): boolean => {
    for (let p = byPid.get(pid); p; p = byPid.get(p.ppid)) if (p.ppid === root || p.pid === root) return true;
    return false;
  };
  return procs.filter((p) => p.command === 'workerd' && under(p.pid)).reduce((sum, p) => sum + p.cpuMs, 0);
}

/** A process's command name and CPU ms so far (0 when it ended meanwhile). */
function statOf(pid: number): { command: string; cpuMs: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { command: stat.slice(stat.indexOf('(') + 1, close), cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
  } catch {
    return { command: '', cpuMs: 0 };
  }
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const n = intOption(values.items, 'items', 1, 10_000) ?? 1000;
  const leadMs = (intOption(values.lead, 'lead', 0, 600) ?? 5) * 1000;
  const given = intOption(values.port, 'port', 1, 65_534);
  const [port, mockPort] = given !== undefined ? [given, given + 1] : [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  const deadlineS = intOption(values.deadline, 'deadline', 1, 86_400) ?? 1800;
  let waitingFor = "npm start's banner";
  // The exit handler startStack set stops the stack.
  setTimeout(() => {
    process.stderr.write(`bench:stall: past its ${deadlineS} s deadline, still waiting for ${waitingFor}\n`);
    process.exit(1);
  }, deadlineS * 1000).unref();
  const { pgid, stop } = await startStack(port, mockPort);
  const warm = items('w', n);
  const w0 = Date.now();
  waitingFor = `batch W (${n} items, fills the cache) to end`;
  const w = await post(url, { ...HEADER, items: warm });
  while ((await view(url, w)).completedAt === null) await sleep(1000);
  process.stderr.write(`W (${n} items, fills the cache): ${((Date.now() - w0) / 1000).toFixed(1)} s\n`);
  const t0 = Date.now();
  waitingFor = "batch A's POST";
  const a = await post(url, { ...HEADER, items: items('a', n) });
  await sleep(leadMs);
  waitingFor = `batch A ${a}'s progress, then batch B's POST`;
  // A's progress when B is posted: what A ends from here on, it ends beside B's hits.
  const aAtB = ended(await view(url, a));
  const b = await post(url, { ...HEADER, items: warm });
  const bPosted = Date.now();
  const cpu0 = workerdMs(pgid);
  let last = Date.now();
  let longestGap = 0;
  let aWhenBEnded = -1;
  let bEndedAt: number | null = null;
  let aEndedAt: number | null = null;
  let hits = 0;
  let cpu1: number | null = null;
  while (aEndedAt === null || bEndedAt === null) {
    waitingFor = [aEndedAt === null ? `batch A ${a}` : '', bEndedAt === null ? `batch B ${b}` : '']
      .filter(Boolean)
      .join(' and ')
      .concat(' to end');
    await sleep(1000);
    let va: BatchView;
    let vb: BatchView;
    try {
      [va, vb] = [await view(url, a), await view(url, b)];
    } catch (e) {
      // A request the stalled runtime dropped ("other side closed"): unanswered, like one still waiting.
      process.stderr.write(`  poll failed: ${e instanceof Error ? e.message : String(e)}\n`);
      continue;
    }
    const now = Date.now();
    if (bEndedAt === null) longestGap = Math.max(longestGap, now - last);
    last = now;
    if (aEndedAt === null && va.completedAt !== null) aEndedAt = Date.parse(va.completedAt);
    if (bEndedAt === null && vb.completedAt !== null) {
      bEndedAt = Date.parse(vb.completedAt);
      aWhenBEnded = ended(va);
      hits = vb.cache?.hits ?? 0;
      cpu1 = workerdMs(pgid);
    }
    process.stderr.write(`  ${((now - t0) / 1000).toFixed(0)} s: A ${ended(va)}/${n}, B ${ended(vb)}/${n}\n`);
  }
  const s = (ms: number) => (ms / 1000).toFixed(1);
  console.log(
    [
      `npm start, ${n} × fastchat-pair (calibration off) per batch on its bundled mock, state on ${benchStateRoot().why}; B posted ${s(leadMs)} s after A`,
      '',
      '| B cache hits | longest gap between answered polls while B ran (s) | A items ended while B ran | B: POST → completedAt (s) | A: POST → completedAt (s) | workerd CPU-s while B ran |',
      '|---|---|---|---|---|---|',
      `| ${hits} of ${n} | ${s(longestGap)} | +${aWhenBEnded - aAtB} (${aAtB}→${aWhenBEnded}) | ${s(bEndedAt - bPosted)} | ${s(aEndedAt - t0)} | ${cpu1 !== null ? s(cpu1 - cpu0) : '-'} |`,
    ].join('\n'),
  );
  stop();
  return 0;
}

await runCli(CLI, main);
