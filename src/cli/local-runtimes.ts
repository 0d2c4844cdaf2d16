/**
 * @module
 * The two runtimes a local stack (./local-stack.ts) serves the Worker on: Miniflare's API in a child process
 * (./miniflare-runtime.ts), or `wrangler dev`. Each owns a process group, so stopping the stack stops workerd
 * too and frees its port. Node only.
 */
import type { ChildProcess } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import type { CronTimerOptions } from './cron.js';
import type { Described, EndedRef } from './ended.js';
import { httpTrigger, WRANGLER_SCHEDULED_FLAG, wranglerTrigger } from './cron.js';
import type { RuntimeReply, RuntimeRequest } from './miniflare-runtime.js';
import type { RuntimeConfig, WorkerSetup } from './worker-options.js';
import { spawnGroup, stopGroup } from './process-group.js';
import { bundleAndSetup, REPO_ROOT, WRANGLER, WRANGLER_ENV } from './worker-bundle.js';
import { wranglerVarsOf } from './wrangler-vars.js';

/** What of the stack's options says where the runtime's output goes (`LocalStackOptions`). */
export interface StackOutput {
  /** Inherit the runtime's output. */
  verbose?: boolean;
  /** Append the runtime's output to this file (when not verbose). */
  logFile?: string;
  /** Hand the runtime's output over line by line instead. */
  onOutput?: (line: string) => void;
  /** Secrets for the Worker: `wrangler dev` gets them in an env file, never on a command line. */
  secrets?: Record<string, string>;
}

/** True when `/health` answers as Tribunal does (another server on the port does not). */
export async function answersAsTribunal(url: string): Promise<boolean> {
  try {
    // Wide: a first request on a busy machine (CI may share it) has taken over 5 s.
    const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(30_000) });
    const body = (await r.json()) as { service?: unknown };
    return body.service === 'tribunal';
  } catch {
    return false;
  }
}

/** Where the runtime's output goes: handed over line by line, inherited, appended to a file, or dropped. */
export function outputOf(options: StackOutput): 'inherit' | 'ignore' | 'pipe' | ['ignore', number, number] {
  if (options.onOutput) return 'pipe';
  if (options.verbose) return 'inherit';
  if (!options.logFile) return 'ignore';
  const fd = openSync(options.logFile, 'a');
  return ['ignore', fd, fd];
}

/** Hands every line `child` writes (stdout and stderr) to `onOutput`. */
export function forwardLines(child: ChildProcess, onOutput: ((line: string) => void) | undefined): void {
  if (!onOutput) return;
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream, crlfDelay: Infinity }).on('line', onOutput);
  }
}

/** A started runtime, as {@link startMiniflare} and {@link startWrangler} hand it to the stack. */
export interface Runtime {
  child: ChildProcess;
  /** Where the API answers (the port workerd bound, for port 0). */
  url: string;
  crons: string[];
  fromEnv: string[];
  fromDevVars: string[];
  /** Swaps in `worker`'s bundle, or one rebuilt now into the stack's folder; state kept. */
  reload(worker?: { entry: string; setup: WorkerSetup }): Promise<void>;
  describe(ref: EndedRef): Promise<Described | null>;
  /** Fires the Worker's `scheduled` handler (see ./cron.ts). */
  trigger: CronTimerOptions['trigger'];
  /**
   * Stops the Worker and keeps the child for this process's next stack (`reuse`); resolves to false when
   * it was not kept (no reuse, or the child did not answer): the caller stops its group then.
   */
  release(): Promise<boolean>;
}

/**
 * Runtime children whose stack stopped with `reuse` (workerd exited, Miniflare loaded and idle), by the module
 * and environment they were spawned with: this process's next such stack takes one instead of spawning its own.
 */
const idleRuntimes = new Map<string, ChildProcess[]>();

/**
 * The last `describe` request id of this process. One sequence for every stack: a kept child serves the next
 * stack, so a late answer to a stopped stack's request must match no request of the next (ids never restart).
 */
let describeIds = 0;

/** Idle children kept in all, whatever their key: a test process runs at most two stacks at once. */
const IDLE_MAX = 2;

/** Idle children kept now, over every key. */
const idleCount = (): number => [...idleRuntimes.values()].reduce((n, children) => n + children.length, 0);

/**
 * The environment as a kept child's key: without vitest's per-file variables (`VITEST_WORKER_ID` and the like
 * change with every file of a test process, and the child reads none of them), so the next file's stack takes it.
 */
export function reuseEnv(env: NodeJS.ProcessEnv): [string, string | undefined][] {
  return Object.entries(env)
    .filter(([name]) => !name.startsWith('VITEST_'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A live idle child spawned with `key`, held again (it keeps this process alive while in use), or undefined. */
function takeIdle(key: string): ChildProcess | undefined {
  const children = idleRuntimes.get(key) ?? [];
  let child: ChildProcess | undefined;
  while ((child = children.shift()))
    if (child.connected && child.exitCode === null && child.signalCode === null) {
      child.ref();
      child.channel?.ref();
      return child;
    }
  return undefined;
}

/**
 * Keeps `child` (its stack has stopped its Worker) for the next stack spawned with `key`; false when the pool is
 * full.
 */
function keepIdle(key: string, child: ChildProcess): boolean {
  const children = idleRuntimes.get(key) ?? [];
  if (idleCount() >= IDLE_MAX) return false;
  // An idle child holds this process open no more than an ended one would; it ends when this process does
  // (spawnGroup's exit hook, and its own `disconnect` handler).
  child.unref();
  child.channel?.unref();
  children.push(child);
  idleRuntimes.set(key, children);
  return true;
}

/**
 * How long the runtime child may take to answer `start` (Miniflare loaded, D1 migrated, workerd serving): 180 s.
 * A start takes seconds, tens on a loaded machine; a child silent past this is stuck, and the stack's start fails
 * saying so instead of waiting forever.
 */
export const RUNTIME_READY_MS = 180_000;

/**
 * Starts the runtime child (module `runtime`) while `prepared` (the bundle and wrangler.toml) is being made, and
 * sends it the config once made. With `reuse`, a child an earlier stack of this process left (`release`) serves
 * instead of a new one when its output goes nowhere or to this process's own: loading Miniflare is about half
 * a child's CPU on a start (~0.6 of ~1.2 CPU-s). A child that does not answer the start within `readyMs`
 * (default {@link RUNTIME_READY_MS}) is stopped, and the start throws.
 */
export async function startMiniflare(
  config: Omit<RuntimeConfig, 'scriptPath' | 'worker'>,
  runtime: string,
  prepared: Promise<{ entry: string; setup: WorkerSetup }>,
  options: StackOutput,
  outDir: string,
  reuse = false,
  readyMs = RUNTIME_READY_MS,
): Promise<Runtime> {
  const out = outputOf(options);
  const env = { ...process.env, ...WRANGLER_ENV, ...(options.verbose ? {} : { WRANGLER_LOG: 'error' }) };
  // A child keeps the output and environment it was spawned with (`varsFromEnv` reads the latter).
  const key =
    reuse && (out === 'ignore' || out === 'inherit') ? JSON.stringify([runtime, out, reuseEnv(env)]) : undefined;
  const child =
    (key === undefined ? undefined : takeIdle(key)) ??
    spawnGroup(process.execPath, [runtime], {
      cwd: REPO_ROOT,
      stdio: typeof out === 'string' ? ['ignore', out, out, 'ipc'] : [...out, 'ipc'],
      env,
    });
  forwardLines(child, options.onOutput);
  // Answers to `describe`, by request id; every other reply goes to the one request that waits for it.
  const describing = new Map<number, (d: Described | null) => void>();
  const onDescribed = (m: RuntimeReply) => {
    if (m.type !== 'described') return;
    describing.get(m.requestId)?.(m.described);
    describing.delete(m.requestId);
  };
  const onExit = () => {
    for (const done of describing.values()) done(null);
    describing.clear();
  };
  child.on('message', onDescribed);
  child.once('exit', onExit);
  const next = (): Promise<RuntimeReply> =>
    new Promise((resolve) => {
      const onMessage = (m: RuntimeReply) => {
        if (m.type === 'described') return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m);
      };
      const onExit = (code: number | null) => {
        child.off('message', onMessage);
        resolve({ type: 'failed', message: `the runtime exited (code ${code ?? 'signal'}) before answering` });
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = next();
  /** Set once `release` hands the child back: it may serve another stack. */
  let released = false;
  /** The Worker the crons go to (wrangler.toml `name`, as of the last reload). */
  let workerName: string;
  try {
    const { entry, setup } = await prepared;
    workerName = setup.name;
    const request: RuntimeRequest = { type: 'start', config: { ...config, scriptPath: entry, worker: setup } };
    child.send(request);
  } catch (e) {
    await stopGroup(child);
    throw e;
  }
  let timer: NodeJS.Timeout | undefined;
  const reply = await Promise.race([
    ready,
    new Promise<RuntimeReply>((resolve) => {
      timer = setTimeout(() => {
        resolve({ type: 'failed', message: `no answer to its start within ${readyMs / 1000} s` });
      }, readyMs);
    }),
  ]);
  clearTimeout(timer);
  if (reply.type !== 'ready') {
    await stopGroup(child);
    throw new Error(`the local runtime did not start: ${'message' in reply ? reply.message : reply.type}`);
  }
  return {
    child,
    url: reply.url,
    crons: reply.crons,
    fromEnv: reply.fromEnv,
    fromDevVars: reply.fromDevVars,
    reload: async (worker) => {
      if (released) throw new Error('reload failed: the stack has stopped');
      const { entry, setup } = worker ?? (await bundleAndSetup(outDir));
      workerName = setup.name;
      const done = next();
      const request: RuntimeRequest = { type: 'reload', scriptPath: entry, worker: setup };
      child.send(request);
      const r = await done;
      if (r.type !== 'reloaded') throw new Error(`reload failed: ${'message' in r ? r.message : r.type}`);
    },
    trigger: (cron, at) => httpTrigger(reply.url, workerName)(cron, at),
    release: async () => {
      // Handed back already: the child is another stack's now, or idle; this stack has nothing left to stop.
      if (released) return true;
      if (key === undefined || !child.connected) return false;
      // The child may serve another stack next: this one's handle asks it nothing more.
      released = true;
      const done = next();
      const request: RuntimeRequest = { type: 'dispose' };
      child.send(request);
      let timer: NodeJS.Timeout | undefined;
      const r = await Promise.race([
        done,
        new Promise<RuntimeReply>((resolve) => {
          // Wide: workerd's exit is awaited, and a niced child on a loaded machine (CI) can be slow to run.
          timer = setTimeout(() => {
            resolve({ type: 'failed', message: 'no answer to dispose within 30 s' });
          }, 30_000);
        }),
      ]);
      clearTimeout(timer);
      if (r.type !== 'disposed') return false;
      // This stack's listeners go with it; the next stack adds its own.
      child.off('message', onDescribed);
      child.off('exit', onExit);
      onExit();
      return keepIdle(key, child);
    },
    describe: (ref) => {
      if (released || !child.connected) return Promise.resolve(null);
      const requestId = ++describeIds;
      return new Promise((resolve) => {
        describing.set(requestId, resolve);
        const request: RuntimeRequest = { type: 'describe', requestId, ref };
        child.send(request);
      });
    },
  };
}

/**
 * Runs `wrangler dev` (after the migrations, applied by the caller) and waits until it answers as Tribunal at
 * `url`.
 */
export async function startWrangler(
  config: Omit<RuntimeConfig, 'scriptPath' | 'worker'>,
  options: StackOutput,
  url: string,
  outDir: string,
): Promise<Runtime> {
  const { readWranglerConfig } = await import('./wrangler-config.js');
  const wranglerConfig = readWranglerConfig({ config: config.configPath });
  const args = [
    'dev',
    '--port',
    String(config.port),
    '--ip',
    config.host,
    '--persist-to',
    config.persistTo,
    '--show-interactive-dev-session=false',
    // The crons' route (./cron.ts `wranglerTrigger`): the runtime's own answers 500 for a Worker with [assets].
    WRANGLER_SCHEDULED_FLAG,
  ];
  // npm start reads .dev.vars / .env itself, as the default runtime does: an explicit env file (its secrets) makes
  // wrangler dev skip both.
  const {
    args: varArgs,
    envFile,
    fromEnv,
    fromDevVars,
  } = wranglerVarsOf({
    dir: REPO_ROOT,
    declared: wranglerConfig.vars,
    bindings: config.bindings,
    secrets: new Set([...Object.keys(options.secrets ?? {}), 'LLM_API_KEY']),
    devVars: config.devVars,
    varsFromEnv: config.varsFromEnv,
  });
  args.push(...varArgs);
  // In the stack's directory, which goes when it stops.
  const file = join(outDir, 'secrets.env');
  writeFileSync(file, envFile, { mode: 0o600 });
  args.push('--env-file', file);
  const child = spawnGroup(WRANGLER, args, {
    cwd: REPO_ROOT,
    stdio: outputOf(options),
    // The env file is all wrangler dev binds besides the `--var`s: read whatever these say elsewhere, and alone.
    env: {
      ...process.env,
      ...WRANGLER_ENV,
      CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: 'true',
      CLOUDFLARE_INCLUDE_PROCESS_ENV: 'false',
    },
  });
  forwardLines(child, options.onOutput);
  const deadline = Date.now() + 60_000;
  while (!(await answersAsTribunal(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopGroup(child);
      throw new Error(
        child.exitCode !== null
          ? `wrangler dev exited with code ${child.exitCode}`
          : 'wrangler dev did not answer within 60 s',
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const crons = wranglerConfig.triggers.crons ?? [];
  return {
    child,
    url,
    crons,
    fromEnv,
    fromDevVars,
    reload: () => Promise.reject(new Error('wrangler dev reloads by itself')),
    describe: () => Promise.resolve(null),
    release: () => Promise.resolve(false),
    trigger: wranglerTrigger(url),
  };
}
