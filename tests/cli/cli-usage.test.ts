/**
 * Every CLI, as a user runs it: `--help` prints the usage and exits 0; an unknown option prints one line
 * and the usage and exits 2; nothing prints a stack trace for a user's mistake.
 *
 * In-process (tests/support/cli-in-process.ts: each CLI's own entry code runs, its output, exit code and any
 * `process.exit()` captured). Runs also go through a real process (tsx, a child's streams and exit code):
 * one of each kind of entry.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { EXIT_CLOSED_PIPE } from '../../src/cli/args.js';
import { REPO_ROOT } from '../../src/cli/worker-bundle.js';
import { freePort } from '../../src/cli/ports.js';
import type { CliRun } from '../support/cli-in-process.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runProcess, stopLeftovers } from '../support/run-process.js';

// A CLI's first import loads its dependencies: wrangler and miniflare for those that start a runtime
// (bench:peers), several seconds on a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const CLIS = {
  judge: 'src/cli/judge.ts',
  gate: 'src/cli/gate.ts',
  admin: 'src/cli/admin.ts',
  'meta-eval': 'src/cli/meta-eval.ts',
  'mock-llm': 'src/cli/mock-llm.ts',
  start: 'src/cli/start.ts',
  'bench:runtime': 'bench/runtime.ts',
  'bench:engine': 'bench/engine.ts',
  'bench:mock': 'bench/mock-load.ts',
  bench: 'bench/pipeline.ts',
  'bench:tenants': 'bench/tenants.ts',
  'bench:peers': 'bench/peers.ts',
  'bench:prefix': 'bench/prefix.ts',
} as const;

/** Runs the CLI `file` (from the repository's root) in this process with `args` and `env` over process.env. */
const run = (file: string, args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> =>
  runCliInProcess(resolve(REPO_ROOT, file), args, env);

/**
 * The same through a real process: `node --import tsx file args`, run to its end (no kill on a timer: a killed
 * CLI whose pipes had closed exited 0); a signal that ended it reads as code -1.
 */
async function spawned(file: string, args: readonly string[]): Promise<CliRun> {
  const r = await runProcess(process.execPath, ['--import', 'tsx', file, ...args], { cwd: REPO_ROOT });
  return { code: r.code ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const STACK_FRAME = /^\s+at /m;

// A CLI still running when its test timed out.
afterAll(() => stopLeftovers());

describe.each(Object.entries(CLIS))('%s', (_name, file) => {
  it('prints its usage for --help, exit 0', async () => {
    const r = await run(file, ['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: /);
    expect(r.stderr).toBe('');
  });

  it('rejects an unknown option with one line and the usage, exit 2', async () => {
    const r = await run(file, ['--no-such-option']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const [first, blank, usage] = r.stderr.split('\n');
    expect(first).toBe('unknown option --no-such-option');
    expect(blank).toBe('');
    expect(usage).toMatch(/^usage: /);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });
});

describe('as a process', () => {
  // One CLI of each entry kind: runCli behind isMain (exit code set, streams drained) and a bench's
  // top-level parseCliOrExit (process.exit()). Of each kind the one that loads least before it parses its
  // arguments: a process loads the CLI's whole module graph first (judge 2.0 CPU-s, gate 0.7; bench:engine
  // 2.1, bench:mock 1.4), and the entry code under test is the same.
  it.concurrent('gate --no-such-option: one line and the usage on stderr, exit 2', async () => {
    const r = await spawned(CLIS.gate, ['--no-such-option']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('unknown option --no-such-option');
    expect(r.stderr).toContain('\n\nusage: ');
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  // `npm run admin -- … | head -1`: the reader closes its end; the CLI stops quietly and says so by its code,
  // 141 as a Unix tool ended by SIGPIPE, never 0 (a finished run).
  it.concurrent.each([
    ['gate', CLIS.gate],
    ['bench:mock', CLIS['bench:mock']],
  ])('%s --help into a closed pipe: exit 141, nothing on stderr', async (_name, file) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, '--help'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    const stderr: string[] = [];
    child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
    const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
    expect({ code, signal, stderr: stderr.join('') }).toEqual({ code: EXIT_CLOSED_PIPE, signal: null, stderr: '' });
    expect(EXIT_CLOSED_PIPE).toBe(141);
  });

  it.concurrent('bench:mock --help: the usage on stdout, exit 0', async () => {
    const r = await spawned(CLIS['bench:mock'], ['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: npm run bench:mock/);
    expect(r.stderr).toBe('');
  });
});

describe('a user mistake never prints a stack trace', () => {
  it('bench:peers without the peers installed says how to install them, exit 2', async () => {
    const r = await run(CLIS['bench:peers'], ['--peers-dir', '/nonexistent/peers']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('npm --prefix /nonexistent/peers ci');
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it('judge: a task file that does not exist', async () => {
    const r = await run(CLIS.judge, ['--preset', 'fastchat-pair', '--task', '/nonexistent/task.json']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('--task: cannot read /nonexistent/task.json: ENOENT');
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it('judge: an unknown preset, listing the known ones', async () => {
    const r = await run(CLIS.judge, ['--preset', 'nope', '--task', 'datasets/examples/task.json']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^unknown preset "nope" \(presets: .*fastchat-pair/);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it('meta-eval: a dataset file that does not exist, before anything starts', async () => {
    const r = await run(CLIS['meta-eval'], ['--dataset', './my-labels.jsonl', '--preset', 'fastchat-pair']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^--dataset \.\/my-labels\.jsonl: ENOENT/);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it('meta-eval: a target that does not answer', async () => {
    const target = `http://127.0.0.1:${await freePort()}`;
    const r = await run(CLIS['meta-eval'], [
      '--dataset',
      'datasets/examples/my-labels.jsonl',
      '--preset',
      'fastchat-pair',
      '--target',
      target,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: cannot reach --target ${target}: fetch failed: .*ECONNREFUSED`));
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it('start: API_KEYS holding a token instead of its digest is refused', async () => {
    const r = await run(CLIS.start, [], { API_KEYS: 'my-secret-token' });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^API_KEYS must be comma-separated sha-256 hex digests of tokens, not the tokens/,
    );
    expect(r.stderr).not.toContain('my-secret-token');
  });

  it('mock-llm: a port out of range', async () => {
    const r = await run(CLIS['mock-llm'], ['--port', '70000']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('--port must be a whole number from 0 to 65535, got "70000"');
  });
});
