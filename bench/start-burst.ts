/**
 * `npm start` under a burst: runs `npm start` itself (its terminal output read as a terminal would, at
 * full speed) in one output mode, POSTs one batch of N `fastchat-pair` items against its bundled mock, and
 * waits for the batch to complete while `/health` keeps answering. Prints, per mode, the time to 202, the
 * wall time from the POST to the batch's `completedAt`, the slowest `/health` answer seen while it ran and
 * the lines the terminal got. A runtime that stops answering (no `/health` for `--stall` seconds) is
 * reported as hung, and the run goes on to the next mode.
 *
 * ```
 * npm run bench:start -- [--items 10000] [--modes quiet,verbose,debug,info,warn,error] [--stall 60]
 * ```
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { intOption, runCli, UsageError } from '../src/cli/args.js';
import type { CliValues } from '../src/cli/args.js';
import { freePort } from '../src/cli/ports.js';
import { REPO_ROOT } from '../src/cli/worker-bundle.js';
import { benchStateDir, benchStateRoot } from './state-dir.js';

const MODES = ['quiet', 'verbose', 'debug', 'info', 'warn', 'error'] as const;
type Mode = (typeof MODES)[number];

const CLI = {
  usage: `usage: npm run bench:start -- [options]

One batch through \`npm start\` in each output mode (quiet = no flag, verbose = --verbose, or a LOG_LEVEL).

  --items N        items in each batch (default 10000)
  --modes LIST     comma-separated, from ${MODES.join(', ')} (default all)
  --stall S        seconds without a /health answer after which a run counts as hung (default 60)
  --port P         the API's port, P + 1 the mock's (default: free ports)
  -h, --help       this text`,
  options: {
    items: { type: 'string', default: '10000' },
    modes: { type: 'string', default: MODES.join(',') },
    stall: { type: 'string', default: '60' },
    port: { type: 'string' },
  },
} as const;

interface Outcome {
  mode: Mode;
  acceptS: number | null;
  wallS: number | null;
  slowestHealthMs: number;
  lines: number;
  result: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One `npm start` in `mode`, one batch of `n` items, stopped afterwards. */
async function runMode(mode: Mode, n: number, stallMs: number, given: number | undefined): Promise<Outcome> {
  const [port, mockPort] = given !== undefined ? [given, given + 1] : [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  const persist = join(benchStateDir(`tribunal-bench-start-${mode}-`), 'state');
  const args = ['start', '--', '--port', String(port), '--mock-port', String(mockPort), '--persist-to', persist];
  const child = spawn('npm', [...args, '--no-watch', ...(mode === 'verbose' ? ['--verbose'] : [])], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: mode === 'quiet' || mode === 'verbose' ? '' : mode },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let lines = 0;
  const seen = { banner: false };
  const count = (chunk: Buffer) => {
    const text = chunk.toString();
    lines += text.split('\n').length - 1;
    if (text.includes('Press Ctrl+C to stop.')) seen.banner = true;
  };
  child.stdout.on('data', count);
  child.stderr.on('data', count);
  const outcome: Outcome = { mode, acceptS: null, wallS: null, slowestHealthMs: 0, lines: 0, result: '' };
  try {
    for (const deadline = Date.now() + 180_000; !seen.banner; await sleep(100))
      if (child.exitCode !== null || Date.now() > deadline) throw new Error('npm start did not come up');
    const header = { preset: 'fastchat-pair', config: { calibration: { enabled: false } } };
    const items = Array.from({ length: n }, (_, i) => ({
      task: { kind: 'pairwise', question: `(${i}) 2 + 2?`, answerA: 'Four, since 2 + 2 = 4.', answerB: 'Five.' },
    }));
    const t0 = Date.now();
    const r = await fetch(`${url}/v1/batches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...header, items }),
    });
    const accepted = (await r.json()) as { id?: string };
    if (r.status !== 202 || !accepted.id) throw new Error(`POST /v1/batches: HTTP ${r.status}`);
    outcome.acceptS = (Date.now() - t0) / 1000;
    let lastAnswer = Date.now();
    for (;;) {
      const h0 = Date.now();
      try {
        const view = (await (
          await fetch(`${url}/v1/batches/${accepted.id}`, { signal: AbortSignal.timeout(stallMs) })
        ).json()) as { completedAt: string | null; counts: { succeeded: number; failed: number } };
        await (await fetch(`${url}/health`, { signal: AbortSignal.timeout(stallMs) })).arrayBuffer();
        outcome.slowestHealthMs = Math.max(outcome.slowestHealthMs, Date.now() - h0);
        lastAnswer = Date.now();
        if (view.completedAt !== null) {
          outcome.wallS = (Date.parse(view.completedAt) - t0) / 1000;
          outcome.result = `${view.counts.succeeded} succeeded, ${view.counts.failed} failed`;
          return outcome;
        }
      } catch {
        if (Date.now() - lastAnswer >= stallMs) {
          outcome.result = `HUNG: no answer for ${stallMs / 1000} s`;
          return outcome;
        }
      }
      await sleep(1000);
    }
  } catch (e) {
    outcome.result = `error: ${e instanceof Error ? e.message : String(e)}`;
    return outcome;
  } finally {
    outcome.lines = lines;
    if (child.pid !== undefined) {
      try {
        // SIGTERM: npm start stops its runtime's own process group (SIGKILL after a grace), even a hung one.
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      for (let i = 0; i < 200 && child.exitCode === null && child.signalCode === null; i++) await sleep(100);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const n = intOption(values.items, 'items', 1, 10_000) ?? 10_000;
  const stallMs = (intOption(values.stall, 'stall', 5) ?? 60) * 1000;
  const port = intOption(values.port, 'port', 1, 65_534);
  const modes = values.modes.split(',').map((m) => m.trim());
  const bad = modes.filter((m) => !(MODES as readonly string[]).includes(m));
  if (bad.length > 0) throw new UsageError(`--modes: ${bad.join(', ')} is not one of ${MODES.join(', ')}`);
  const rows: string[] = [];
  for (const mode of modes as Mode[]) {
    const o = await runMode(mode, n, stallMs, port);
    const row = `| ${o.mode} | ${n} | ${o.acceptS?.toFixed(2) ?? '-'} | ${o.wallS?.toFixed(1) ?? '-'} | ${o.slowestHealthMs} | ${o.lines} | ${o.result} |`;
    process.stderr.write(`${row}\n`);
    rows.push(row);
  }
  console.log(
    [
      `npm start, one batch of ${n} × fastchat-pair (calibration off: 1 call per item) on its bundled mock, state on ${benchStateRoot().why}`,
      '',
      '| mode | items | time to 202 (s) | POST → completedAt (s) | slowest poll (ms) | terminal lines | result |',
      '|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
  return rows.every((r) => r.includes('succeeded')) ? 0 : 1;
}

await runCli(CLI, main);
