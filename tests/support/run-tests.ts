/**
 * @module
 * `npm test`: the three vitest projects in two vitest processes at once, the `e2e` project beside the `node`
 * and `worker` projects, so the suite's wall time is the longer of the two, not their sum.
 *
 * Why two processes: one vitest run runs its projects' groups one after another (`sequence.groupOrder`),
 * and projects of one group share one pool of runners, each runner ending when the next file in the queue
 * belongs to another project (a new workerd per switch). The e2e files spend most of their time waiting
 * (a stack starting, a browser loading, the mock LLM's latency), the worker files too (alarms, polls): side by
 * side they fill the two cores that one after another left half idle.
 *
 * Both processes get the same arguments (a file or name filter runs in whichever project has it; the other
 * passes with no tests). With `--project` in the arguments, vitest runs once, as asked. Each child's output
 * goes to the terminal line by line (whole lines, so the two never mix inside one), colored as a terminal's
 * would be; the run exits non-zero when either does. Usage: `node --import tsx tests/support/run-tests.ts
 * [vitest args]`. Node only.
 */
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

/** One vitest process: its label (prefixed to nothing; used in the closing line) and its arguments. */
export interface VitestRun {
  label: string;
  args: string[];
}

/**
 * The vitest processes `npm test -- args` starts: `node`+`worker` and `e2e` side by side, or one run of
 * `args` as they are when they name a project.
 */
export function runsFor(args: readonly string[]): VitestRun[] {
  if (args.some((a) => a === '--project' || a.startsWith('--project=')))
    return [{ label: 'vitest', args: ['run', ...args] }];
  // A filter that matches files of one side only leaves the other with none: that side passes.
  return [
    {
      label: 'node+worker',
      args: [
        'run',
        '--project',
        'node',
        '--project',
        'worker',
        '--project',
        'worker-shards',
        '--passWithNoTests',
        ...args,
      ],
    },
    { label: 'e2e', args: ['run', '--project', 'e2e', '--passWithNoTests', ...args] },
  ];
}

/** Copies `from` to `to` line by line: a line is written whole, never interleaved with another process's. */
function forwardLines(from: NodeJS.ReadableStream, to: Writable): Promise<void> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: from, crlfDelay: Infinity });
    lines.on('line', (line) => to.write(`${line}\n`));
    lines.once('close', resolve);
  });
}

/** Runs vitest with `run.args`; resolves with its exit code (1 for a signal). */
function start(run: VitestRun, color: boolean): Promise<number> {
  const child = spawn(process.execPath, [VITEST, ...run.args], {
    cwd: ROOT,
    // Piped, so vitest writes plain lines (no redrawn status area); colors as the terminal would have them.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...(color && process.env.NO_COLOR === undefined ? { FORCE_COLOR: '1' } : {}) },
  });
  const copied = Promise.all([forwardLines(child.stdout, process.stdout), forwardLines(child.stderr, process.stderr)]);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      void copied.then(() => {
        resolve(code ?? 1);
      });
    });
  });
}

async function main(): Promise<void> {
  const started = performance.now();
  const runs = runsFor(process.argv.slice(2));
  const codes = await Promise.all(runs.map((r) => start(r, process.stdout.isTTY)));
  if (runs.length > 1) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const outcome = runs.map((r, i) => `${r.label} ${codes[i] === 0 ? 'passed' : `failed (exit ${String(codes[i])})`}`);
    process.stdout.write(`\n npm test: ${outcome.join(', ')}; ${seconds} s in all, side by side\n`);
  }
  process.exitCode = codes.every((c) => c === 0) ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) await main();
