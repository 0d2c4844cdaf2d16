/**
 * Every CLI, as a user runs it: `--help` prints the usage and exits 0; an unknown option prints one line
 * and the usage and exits 2; nothing prints a stack trace for a user's mistake.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { freePort } from '../../src/cli/ports.js';

// Each test spawns a CLI through tsx (1-3 s alone, several times that on a loaded 2-core machine).
vi.setConfig({ testTimeout: 60_000 });

const CLIS = {
  judge: 'src/cli/judge.ts',
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

function run(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', file, ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

const STACK_FRAME = /^\s+at /m;

describe.concurrent.each(Object.entries(CLIS))('%s', (_name, file) => {
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

describe.concurrent('a user mistake never prints a stack trace', () => {
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
