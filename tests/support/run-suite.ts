/**
 * `npm test`: the whole suite in two vitest processes side by side, the e2e project in one and the node,
 * worker and worker-shards projects (`npm run test:fast`'s) in the other. Vitest runs a process's groups
 * one after another and a group's projects from one queue (tests/support/groups.ts), so in one process the
 * e2e files could only start after the worker files, while both leave a core idle much of their time: the
 * e2e files wait on their stacks, browsers and CLIs, the worker files on the mock's latency, alarms and polls.
 *
 * The other projects' output streams as it comes; the e2e process's is held and printed when they end (then
 * live), so neither report is cut into the other. The exit code is the first failing process's, else 0.
 * Arguments (`npm test -- <file or name filter>`) go to both processes, and a process none of whose files
 * match passes; with `--project`, one `vitest run <arguments>` runs instead.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const vitest = join(root, 'node_modules', '.bin', 'vitest');

/** The projects of the process that streams its output: every project but e2e. */
const BESIDE_E2E = ['node', 'worker', 'worker-shards'];

/** Resolves to a child's exit code (1 when a signal ended it). */
const exitOf = (child: ChildProcess): Promise<number> =>
  new Promise((resolve) => {
    child.once('exit', (code) => {
      resolve(code ?? 1);
    });
  });

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function main(args: readonly string[]): Promise<number> {
  if (args.some((a) => a.startsWith('--project')))
    return exitOf(spawn(vitest, ['run', ...args], { cwd: root, stdio: 'inherit' }));
  const filters = args.length > 0 ? [...args, '--passWithNoTests'] : [];
  const start = performance.now();
  // A pipe is not a terminal: keep vitest's colours when ours is one.
  const colour = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};
  const e2e = spawn(vitest, ['run', '--project', 'e2e', ...filters], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...colour },
  });
  const held: [NodeJS.WriteStream, Buffer][] = [];
  let live = false;
  for (const [from, to] of [
    [e2e.stdout, process.stdout],
    [e2e.stderr, process.stderr],
  ] as const)
    from.on('data', (chunk: Buffer) => (live ? to.write(chunk) : held.push([to, chunk])));
  const e2eEnd = exitOf(e2e).then((code) => ({ code, ms: performance.now() - start }));
  const others = spawn(vitest, ['run', ...BESIDE_E2E.flatMap((p) => ['--project', p]), ...filters], {
    cwd: root,
    stdio: 'inherit',
  });
  // The terminal's Ctrl-C reaches both children itself; a SIGTERM to npm reaches only this process.
  process.on('SIGTERM', () => {
    e2e.kill('SIGTERM');
    others.kill('SIGTERM');
  });
  const othersCode = await exitOf(others);
  const othersMs = performance.now() - start;
  process.stdout.write(`\n ${'='.repeat(20)} e2e (run beside the projects above) ${'='.repeat(20)}\n`);
  for (const [to, chunk] of held.splice(0)) to.write(chunk);
  live = true;
  const ended = await e2eEnd;
  process.stdout.write(
    `\n npm test: ${BESIDE_E2E.join(', ')} exited ${String(othersCode)} after ${seconds(othersMs)}; ` +
      `e2e beside them exited ${String(ended.code)} after ${seconds(ended.ms)}; ${seconds(performance.now() - start)} in all\n`,
  );
  return othersCode !== 0 ? othersCode : ended.code;
}

process.exitCode = await main(process.argv.slice(2));
