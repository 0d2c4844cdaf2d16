/**
 * `npm start` as a developer runs it from a terminal, for the e2e tests: its own process group, its
 * output (stdout and stderr) collected and read as fast as it comes.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A running `npm start`. */
export interface NpmStart {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  /** Its exit code (null for a signal). */
  exit: Promise<number | null>;
}

const started: ChildProcess[] = [];

/** `npm start -- args` with `env` over this process's environment. */
export function npmStart(args: readonly string[], env: NodeJS.ProcessEnv): NpmStart {
  return spawned('npm', ['start', '--', ...args], env);
}

/** The repository's root, where `npm start` runs its script. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What `npm start` runs (package.json's `start`). */
const START_SCRIPT = ['--import', 'tsx', 'src/cli/start.ts'];

/**
 * The program `npm start -- args` runs, without npm: for a test that claims nothing of npm's own part (its
 * banner, SIGTERM through its shell), npm's ~0.5 CPU-s of starting is spared. The program's own output, exit and handle; not npm's `> tribunal start`
 * header lines nor its `npm_*` variables, which nothing under src/cli reads.
 */
export function startProgram(args: readonly string[], env: NodeJS.ProcessEnv): NpmStart {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start?: string } };
  if (pkg.scripts.start !== ['node', ...START_SCRIPT].join(' '))
    throw new Error(`npm start runs "${pkg.scripts.start ?? ''}" now: make START_SCRIPT the same`);
  return spawned(process.execPath, [...START_SCRIPT, ...args], env);
}

function spawned(file: string, args: readonly string[], env: NodeJS.ProcessEnv): NpmStart {
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      resolve(code);
    }),
  );
  return { child, output: () => output, exit };
}

/** Where a running `npm start` serves, as its banner says (so a test can start it on `--port 0 --mock-port 0`). */
export interface Serving {
  /** The API's origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  /** The bundled mock LLM's port (null when an LLM endpoint was given). */
  mockPort: number | null;
}

/**
 * Resolves once `run` printed its banner, to the addresses it names; throws with its output when it
 * exits or 120 s pass first.
 */
export async function untilRunning(run: NpmStart): Promise<Serving> {
  const deadline = Date.now() + 120_000;
  while (!run.output().includes('Press Ctrl+C to stop.')) {
    if (run.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`npm start did not come up:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const url = /Tribunal is running at (http:\/\/\S+)/.exec(run.output())?.[1];
  if (!url) throw new Error(`npm start's banner names no URL:\n${run.output()}`);
  const mock = /mock LLM at http:\/\/[^:\s]+:(\d+)\//.exec(run.output())?.[1];
  return { url, port: Number(new URL(url).port), mockPort: mock ? Number(mock) : null };
}

/** SIGKILLs the process group of every `npm start` this file started that is still running. */
export function killAll(): void {
  for (const c of started.splice(0)) if (c.exitCode === null && c.pid) process.kill(-c.pid, 'SIGKILL');
}
