/**
 * `npm test`: two `vitest run` processes at once. The first runs the node and worker projects at the run's CPU
 * priority; the second runs e2e `E2E_NICENESS` lower, so it takes the cores the first leaves idle and little
 * else.
 *
 * In one process the e2e files could not fill that idle. Vitest runs a process's groups
 * (`sequence.groupOrder`) one after another, and a group's projects share one queue of files and one
 * `maxWorkers`. A slot keeps its runner only while the queue's next file is of the same project: a slot freed
 * beside the worker files' queue starts another workerd, whatever the order. So every slot of a group holding
 * e2e would end up running worker files, one runtime each. The node and worker files leave about 28% of the two
 * cores idle (mostly waits: the mock's latency, alarms, polls); the e2e files then ran both cores flat out alone.
 *
 * Both sides at one priority were tried twice and dropped (435 s against 310 s, worker files timing out): the
 * e2e files took the worker files' CPU. Niced, the e2e side gets the idle while the first runs, then the
 * machine to itself. Its processes (the e2e files' stacks, Chromium) inherit the priority.
 *
 * The first process's output streams; the second's is held and printed when the first ends, then live, so
 * neither report is cut into the other. Its timeline (`TRIBUNAL_TEST_TIMELINE`) goes to `<file>.e2e`, both in
 * seconds since the run began. The exit code is the first failing process's, else 0. Arguments (`npm test -- <file or name filter>`) go to both, and a
 * side none of whose files match passes; with `--project`, one `vitest run <arguments>` runs as asked.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** How much lower the e2e side's CPU priority is (nice(1)'s increment): 10, about a tenth of a busy core's share. */
export const E2E_NICENESS = 10;

/**
 * The increment from `TRIBUNAL_TEST_E2E_NICE` (an integer 0-19, to measure another; 0 runs both sides at one
 * priority), else {@link E2E_NICENESS}; throws naming the variable on any other value.
 */
export function e2eNiceness(env: Record<string, string | undefined> = process.env): number {
  const given = env.TRIBUNAL_TEST_E2E_NICE;
  if (given === undefined || given === '') return E2E_NICENESS;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 0 || n > 19)
    throw new Error(`TRIBUNAL_TEST_E2E_NICE must be an integer from 0 to 19, not ${JSON.stringify(given)}`);
  return n;
}

/** One vitest process: its label, its arguments, whether it runs niced and whether its output is held. */
export interface VitestRun {
  label: string;
  args: string[];
  niced: boolean;
  held: boolean;
}

/**
 * The vitest processes of `npm test -- <args>`: node and worker, with e2e beside them niced, or
 * one run of `args` as they are when they name a project.
 */
export function plan(args: readonly string[]): VitestRun[] {
  if (args.some((a) => a === '--project' || a.startsWith('--project=')))
    return [{ label: 'vitest', args: ['run', ...args], niced: false, held: false }];
  // A filter that matches files of one side only leaves the other with none: that side passes.
  const filters = args.length > 0 ? ['--passWithNoTests', ...args] : [];
  const run = (label: string, projects: string[], niced: boolean): VitestRun => ({
    label,
    args: ['run', ...projects.flatMap((p) => ['--project', p]), ...filters],
    niced,
    held: niced,
  });
  return [run('node, worker', ['node', 'worker'], false), run('e2e', ['e2e'], true)];
}

const ROOT = new URL('../..', import.meta.url).pathname;
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

/**
 * Resolves to a child's exit code (1 when a signal ended it, or when it could not start: the error printed) and
 * when it ended (performance.now(), ms).
 */
const exitOf = (child: ChildProcess): Promise<{ code: number; at: number }> =>
  new Promise((resolve) => {
    child.once('close', (code) => {
      resolve({ code: code ?? 1, at: performance.now() });
    });
    child.once('error', (e) => {
      process.stderr.write(`npm test: ${e.message}\n`);
      resolve({ code: 1, at: performance.now() });
    });
  });

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** When the run began (epoch ms): both processes' timelines count from it, not each from its own config load. */
const TIMELINE_ORIGIN =
  process.env.TRIBUNAL_TEST_TIMELINE_ORIGIN ?? String(Math.round(performance.timeOrigin + performance.now()));

/** Starts `run`; a niced run starts under nice(1) so every thread and child has the priority from its first instant. */
function start(
  run: VitestRun,
  increment: number,
): { child: ChildProcess; ended: ReturnType<typeof exitOf>; release: () => void } {
  const command = [process.execPath, VITEST, ...run.args];
  const niceness = run.niced && process.platform !== 'win32' ? increment : 0;
  const niced = niceness > 0;
  const timeline = process.env.TRIBUNAL_TEST_TIMELINE;
  const child = spawn(niced ? 'nice' : command[0]!, niced ? ['-n', String(niceness), ...command] : command.slice(1), {
    cwd: ROOT,
    stdio: ['ignore', run.held ? 'pipe' : 'inherit', run.held ? 'pipe' : 'inherit'],
    env: {
      ...process.env,
      // Held output is piped: keep vitest's colours when ours is a terminal.
      ...(run.held && process.stdout.isTTY && process.env.NO_COLOR === undefined ? { FORCE_COLOR: '1' } : {}),
      ...(timeline ? { TRIBUNAL_TEST_TIMELINE_ORIGIN: TIMELINE_ORIGIN } : {}),
      ...(run.held && timeline ? { TRIBUNAL_TEST_TIMELINE: `${timeline}.e2e` } : {}),
    },
  });
  const held: [NodeJS.WriteStream, Buffer][] = [];
  let live = !run.held;
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const)
    from?.on('data', (chunk: Buffer) => (live ? to.write(chunk) : held.push([to, chunk])));
  const release = () => {
    for (const [to, chunk] of held.splice(0)) to.write(chunk);
    live = true;
  };
  return { child, ended: exitOf(child), release };
}

async function main(args: readonly string[]): Promise<number> {
  const began = performance.now();
  // Read before anything starts: a bad value fails the run with nothing left running.
  const increment = e2eNiceness();
  const runs = plan(args).map((run) => ({ run, ...start(run, increment) }));
  // The terminal's Ctrl-C reaches the children itself; a SIGTERM to npm reaches only this process.
  process.on('SIGTERM', () => {
    for (const { child } of runs) child.kill('SIGTERM');
  });
  const ends: string[] = [];
  let code = 0;
  for (const { run, ended, release } of runs) {
    if (run.held)
      process.stdout.write(
        `\n ${'='.repeat(16)} ${run.label} (run beside the above, nice +${String(increment)}) ${'='.repeat(16)}\n`,
      );
    release();
    const exit = await ended;
    ends.push(`${run.label} exited ${String(exit.code)} after ${seconds(exit.at - began)}`);
    if (code === 0) code = exit.code;
  }
  if (runs.length > 1) process.stdout.write(`\n npm test: ${ends.join('; ')}\n`);
  return code;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) process.exitCode = await main(process.argv.slice(2));
