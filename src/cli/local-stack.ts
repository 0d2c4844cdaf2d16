/**
 * @module
 * Starts the whole pipeline locally on embedded workerd with local D1, Queues and Durable Objects, the
 * bundled mock LLM when no API key is configured, and the wrangler.toml crons (the sweeper) fired on
 * their schedule. Used by `npm start`, the meta-evaluation runner, the benches and the e2e tests.
 *
 * Two runtimes: `miniflare` (default) runs the deployed bundle (`wrangler deploy --dry-run`, or one
 * built beforehand and shared by several stacks: {@link prepareWorker}) on Miniflare's API in a child
 * process, which applies the D1 migrations first (src/cli/miniflare-runtime.ts); wrangler.toml is read
 * here, through wrangler, and handed to it as plain data. `wrangler` runs `wrangler dev` after `wrangler
 * d1 migrations apply` (kept for comparison: `npm run bench:runtime`). Either owns a process group, so
 * stopping the stack stops workerd too and frees its port. Node only.
 */
import { execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { startMockServer } from '../mock-llm/node.js';
import type { MockServer } from '../mock-llm/node.js';
import { makeBundleDir, removeStaleBundleDirs } from './bundle-dir.js';
import type { CronTimerOptions } from './cron.js';
import type { Described, EndedRef } from './ended.js';
import { httpTrigger, startCronTimer } from './cron.js';
import type { RuntimeReply, RuntimeRequest } from './miniflare-runtime.js';
import type { RuntimeConfig, WorkerSetup } from './worker-options.js';
import { assertPortFree, freePort, PortInUseError, waitForPortFree } from './ports.js';
import { exited, signalGroup, spawnGroup, stopGroup } from './process-group.js';
import type { PreparedFiles } from './prepared-worker.js';
import { PREPARED_WORKER_ENV, preparedWorkerFrom, writePreparedWorker } from './prepared-worker.js';
import { buildRuntime } from './runtime-build.js';
import { lockState } from './state-lock.js';

/** Repository root (this file is src/cli/local-stack.ts). */
export const REPO_ROOT = new URL('../../', import.meta.url).pathname;

const WRANGLER = join(REPO_ROOT, 'node_modules', '.bin', 'wrangler');
const CONFIG_PATH = join(REPO_ROOT, 'wrangler.toml');

/**
 * Environment of every wrangler process: no telemetry, no `request.cf` download and no update check
 * (each is a network call that prints an `ENOTFOUND` stack trace offline).
 */
export const WRANGLER_ENV: Record<string, string> = {
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  // The banner is where wrangler checks the registry for a newer version.
  WRANGLER_HIDE_BANNER: 'true',
};

/** The local runtime: Miniflare's API on the deployed bundle, or `wrangler dev`. */
export type LocalRuntime = 'miniflare' | 'wrangler';

/** Options of {@link startLocalStack}. */
export interface LocalStackOptions {
  /**
   * Port for the API; 0 = any free port, which workerd binds itself (miniflare runtime; `url` names it), so
   * no other process can take it between a pick and the bind. Default 8787. A taken port fails at once.
   */
  port?: number;
  /** Directory for local D1/DO state; default `.wrangler/state` in the repo (kept across restarts). */
  persistTo?: string;
  /** OpenAI-compatible base URL; default: the bundled mock LLM. */
  llmBaseUrl?: string;
  /** Provider key; default `LLM_API_KEY` from the environment. Without one (and without a base URL) the mock is used. */
  llmApiKey?: string;
  /** Default model; default `mock-judge` with the mock, else wrangler.toml's LLM_MODEL. */
  llmModel?: string;
  /** Port of the mock LLM when it is started; 0 = a free port. Default 8788. A taken port fails at once. */
  mockPort?: number;
  /** Inherit the runtime's output or keep quiet (runner, bench, tests). Default false. */
  verbose?: boolean;
  /** Write the runtime's output to this file (when not verbose). */
  logFile?: string;
  /** Hand the runtime's output (stdout and stderr) over line by line instead (npm start's terminal, ./terminal-log.ts). */
  onOutput?: (line: string) => void;
  /** Vars over wrangler.toml's, e.g. `{ STALL_SECONDS: '1' }`; `ALLOW_ANONYMOUS` is `"true"` unless given here. */
  vars?: Record<string, string>;
  /** Secrets for the Worker, e.g. `{ API_KEYS: '…' }`: passed as bindings, never on a command line. */
  secrets?: Record<string, string>;
  /** Runtime. Default `miniflare`. */
  runtime?: LocalRuntime;
  /** Apply the developer's `.dev.vars` / `.env` (npm start). Default false: bindings come from wrangler.toml and these options only. */
  devVars?: boolean;
  /** wrangler.toml `[vars]` present in the environment override the file (npm start; miniflare runtime). Default false. */
  varsFromEnv?: boolean;
  /**
   * Fire the crons on their schedule (default), every `everyMs` (tests), or not at all (`false`). Unless
   * `false`, the sweep after a restart (`@reboot`, ./cron.ts) fires at once: work an earlier runtime left
   * on this state resumes within seconds.
   */
  crons?: boolean | { everyMs: number };
  /** One log line per request (miniflare runtime; wrangler dev always logs them). Default false. */
  logRequests?: boolean;
  /** Port of workerd's V8 inspector (CPU profiles of the Worker's isolates: `npm run bench:profile`). Default none. */
  inspectorPort?: number;
  /** Told about a cron that is not run locally or not accepted. Default: written to stderr. */
  onProblem?: (message: string) => void;
  /** Queue consumer settings over wrangler.toml's (miniflare runtime), e.g. to hold messages in a local queue in a test. */
  queueConsumers?: RuntimeConfig['queueConsumers'];
  /**
   * A Worker {@link prepareWorker} bundled and read beforehand (miniflare runtime): served instead of
   * bundling and reading wrangler.toml again, and its bundle left in place when the stack stops (the e2e
   * tests share one). Default: the one `TRIBUNAL_PREPARED_WORKER` names (./prepared-worker.ts, a test and
   * CI hook), else bundle and read now.
   */
  worker?: PreparedWorker;
}

/**
 * A Worker bundled and its wrangler.toml read once, for several stacks ({@link prepareWorker}): its entry module
 * ({@link buildWorker}), wrangler.toml as the runtime starts from it, the runtime child's module.
 */
export type PreparedWorker = PreparedFiles;

/** A running local stack. */
export interface LocalStack {
  /** Base URL of the API, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** Base URL of the LLM endpoint in use. */
  llmBaseUrl: string;
  /** True when the bundled mock LLM serves the calls. */
  usingMock: boolean;
  runtime: LocalRuntime;
  /** Process id (and process group id) of the runtime: its CPU is that group's. */
  runtimePid: number;
  /** wrangler.toml vars taken from the environment, and keys taken from `.dev.vars` / `.env` (names only). */
  fromEnv: string[];
  fromDevVars: string[];
  /** Rebuilds the bundle and swaps it in, state kept (miniflare runtime; npm start's file watcher). */
  reload(): Promise<void>;
  /** Reads an ended evaluation or batch from the local D1 (miniflare runtime; null otherwise, or when unreadable). */
  describe(ref: EndedRef): Promise<Described | null>;
  /** Stops the crons, the runtime's whole process group (SIGTERM, then SIGKILL) and the mock; resolves once the API port is free. */
  stop(): Promise<void>;
  /** SIGKILLs the runtime's process group, as a crash would (the mock keeps running); resolves once the API port is free. */
  kill(): Promise<void>;
}

/** Runs a wrangler command quietly; rejects with its output when it fails. */
function wrangler(args: readonly string[], what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // CI: no prompt (migrations ask for confirmation on a terminal).
    execFile(
      WRANGLER,
      args,
      { cwd: REPO_ROOT, env: { ...process.env, ...WRANGLER_ENV, CI: 'true' } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${what} failed:\n${stdout}\n${stderr}`));
        else resolve();
      },
    );
  });
}

/** Applies the numbered migrations to the local D1 in `persistTo` with wrangler (before `wrangler dev`). Rejects with wrangler's output on failure. */
function wranglerMigrations(persistTo: string): Promise<void> {
  return wrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo], 'D1 migrations');
}

/** Bundles the Worker exactly as `wrangler deploy` would (dry run) into `outDir`; resolves to the entry module. */
export async function buildWorker(outDir: string): Promise<string> {
  await wrangler(['deploy', '--dry-run', '--outdir', outDir], 'bundling the Worker (wrangler deploy --dry-run)');
  return join(outDir, 'index.js');
}

/** wrangler.toml as the runtime starts from it (imports wrangler on first use: about 1.3 CPU-s). */
async function readSetup(): Promise<WorkerSetup> {
  const { readWorkerSetup } = await import('./wrangler-config.js');
  return readWorkerSetup(CONFIG_PATH);
}

/** The bundle in `outDir` ({@link buildWorker}) and wrangler.toml as read now. */
async function bundleAndSetup(outDir: string): Promise<{ entry: string; setup: WorkerSetup }> {
  const [entry, setup] = await Promise.all([buildWorker(outDir), readSetup()]);
  return { entry, setup };
}

/**
 * Bundles the Worker and the runtime child into `outDir` and reads wrangler.toml, once for several
 * stacks (`startLocalStack({ worker })`, or `TRIBUNAL_PREPARED_WORKER=<outDir>` for another process's):
 * each then starts without any of them.
 */
export async function prepareWorker(outDir: string): Promise<PreparedWorker> {
  const [built, runtime] = await Promise.all([bundleAndSetup(outDir), buildRuntime(outDir)]);
  const prepared = { ...built, runtime };
  writePreparedWorker(outDir, prepared);
  return prepared;
}

/** True when `/health` answers as Tribunal does (another server on the port does not). */
async function answersAsTribunal(url: string): Promise<boolean> {
  try {
    // Wide: a first request on a busy machine (CI may share it) has taken over 5 s.
    const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(30_000) });
    const body = (await r.json()) as { service?: unknown };
    return body.service === 'tribunal';
  } catch {
    return false;
  }
}

function outputOf(options: LocalStackOptions): 'inherit' | 'ignore' | 'pipe' | ['ignore', number, number] {
  if (options.onOutput) return 'pipe';
  if (options.verbose) return 'inherit';
  if (!options.logFile) return 'ignore';
  const fd = openSync(options.logFile, 'a');
  return ['ignore', fd, fd];
}

/** Hands every line `child` writes (stdout and stderr) to `onOutput`. */
function forwardLines(child: ChildProcess, onOutput: ((line: string) => void) | undefined): void {
  if (!onOutput) return;
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream, crlfDelay: Infinity }).on('line', onOutput);
  }
}

interface Runtime {
  child: ChildProcess;
  /** Where the API answers (the port workerd bound, for port 0). */
  url: string;
  crons: string[];
  fromEnv: string[];
  fromDevVars: string[];
  reload(): Promise<void>;
  describe(ref: EndedRef): Promise<Described | null>;
  /** Fires the Worker's `scheduled` handler (see ./cron.ts). */
  trigger: CronTimerOptions['trigger'];
}

/** Starts the runtime child (module `runtime`) while `prepared` (the bundle and wrangler.toml) is being made, and sends it the config once made. */
async function startMiniflare(
  config: Omit<RuntimeConfig, 'scriptPath' | 'worker'>,
  runtime: string,
  prepared: Promise<{ entry: string; setup: WorkerSetup }>,
  options: LocalStackOptions,
  outDir: string,
): Promise<Runtime> {
  const out = outputOf(options);
  const child = spawnGroup(process.execPath, [runtime], {
    cwd: REPO_ROOT,
    stdio: typeof out === 'string' ? ['ignore', out, out, 'ipc'] : [...out, 'ipc'],
    env: { ...process.env, ...WRANGLER_ENV, ...(options.verbose ? {} : { WRANGLER_LOG: 'error' }) },
  });
  forwardLines(child, options.onOutput);
  // Answers to `describe`, by request id; every other reply goes to the one request that waits for it.
  const describing = new Map<number, (d: Described | null) => void>();
  let requestIds = 0;
  child.on('message', (m: RuntimeReply) => {
    if (m.type !== 'described') return;
    describing.get(m.requestId)?.(m.described);
    describing.delete(m.requestId);
  });
  child.once('exit', () => {
    for (const done of describing.values()) done(null);
    describing.clear();
  });
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
  const reply = await ready;
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
    reload: async () => {
      const { entry, setup } = await bundleAndSetup(outDir);
      workerName = setup.name;
      const done = next();
      const request: RuntimeRequest = { type: 'reload', scriptPath: entry, worker: setup };
      child.send(request);
      const r = await done;
      if (r.type !== 'reloaded') throw new Error(`reload failed: ${'message' in r ? r.message : r.type}`);
    },
    trigger: (cron, at) => httpTrigger(reply.url, workerName)(cron, at),
    describe: (ref) => {
      if (!child.connected) return Promise.resolve(null);
      const requestId = ++requestIds;
      return new Promise((resolve) => {
        describing.set(requestId, resolve);
        const request: RuntimeRequest = { type: 'describe', requestId, ref };
        child.send(request);
      });
    },
  };
}

async function startWrangler(
  config: Omit<RuntimeConfig, 'scriptPath' | 'worker'>,
  options: LocalStackOptions,
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
  ];
  const fromEnv = config.varsFromEnv
    ? Object.keys(wranglerConfig.vars).filter((k) => process.env[k] !== undefined && !(k in config.bindings))
    : [];
  const vars: Record<string, string> = {
    ...Object.fromEntries(fromEnv.map((k) => [k, process.env[k] ?? ''])),
    ...config.bindings,
  };
  const secrets = Object.fromEntries(
    Object.entries(vars).filter(([k]) => k in (options.secrets ?? {}) || k === 'LLM_API_KEY'),
  );
  for (const [k, v] of Object.entries(vars)) if (!(k in secrets)) args.push('--var', `${k}:${v}`);
  // An explicit env file makes wrangler skip .dev.vars; secrets go there, not on the command line (and
  // with the stack's directory, which goes when it stops).
  const file = join(outDir, 'secrets.env');
  writeFileSync(
    file,
    Object.entries(secrets)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}\n`)
      .join(''),
    { mode: 0o600 },
  );
  const devVarsFile = join(REPO_ROOT, '.dev.vars');
  if (config.devVars && existsSync(devVarsFile)) args.push('--env-file', devVarsFile);
  args.push('--env-file', file);
  const child = spawnGroup(WRANGLER, args, {
    cwd: REPO_ROOT,
    stdio: outputOf(options),
    env: { ...process.env, ...WRANGLER_ENV },
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
  const fromDevVars =
    config.devVars && existsSync(devVarsFile) ? Object.keys(parseEnv(readFileSync(devVarsFile, 'utf8'))) : [];
  return {
    child,
    url,
    crons,
    fromEnv,
    fromDevVars,
    reload: () => Promise.reject(new Error('wrangler dev reloads by itself')),
    describe: () => Promise.resolve(null),
    trigger: httpTrigger(url),
  };
}

/** Starts the mock LLM (if needed), migrations, the bundle and the runtime; resolves once `/health` answers as Tribunal. */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const runtimeKind = options.runtime ?? 'miniflare';
  const host = '127.0.0.1';
  const asked = options.port ?? 8787;
  // Port 0: Miniflare has workerd bind any free port and reports it (a port picked here and bound later
  // could be taken in between by another process: "Address already in use" on a busy machine). wrangler
  // dev wants a number, so it gets one picked just before.
  const port = asked === 0 && runtimeKind === 'wrangler' ? await freePort() : asked;
  if (asked !== 0)
    await assertPortFree(port, 'the API', 'stop what runs there or set PORT (npm start) to another port');
  const persistTo = options.persistTo ?? join(REPO_ROOT, '.wrangler', 'state');
  // Two runtimes on one state would each take the other's work for their own: refused, naming the holder.
  const lock = lockState(persistTo, `http://${host}:${port === 0 ? '(a port being bound)' : port}`);
  const unlock = () => {
    lock.release();
  };
  const apiKey = options.llmApiKey ?? process.env.LLM_API_KEY;
  const usingMock = options.llmBaseUrl === undefined && !apiKey;
  let mock: MockServer | undefined;
  if (usingMock) {
    const mockPort = options.mockPort ?? 8788;
    try {
      mock = await startMockServer({ port: mockPort });
    } catch (e) {
      unlock();
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
      throw new PortInUseError(
        mockPort,
        'the mock LLM',
        'stop what runs there or set MOCK_LLM_PORT to another port (0 = any free port)',
      );
    }
  }
  const llmBaseUrl = options.llmBaseUrl ?? (mock ? mock.baseUrl : 'https://api.openai.com/v1');
  const onProblem = options.onProblem ?? ((m: string) => process.stderr.write(`${m}\n`));
  const config: Omit<RuntimeConfig, 'scriptPath' | 'worker'> = {
    configPath: CONFIG_PATH,
    persistTo,
    host,
    port,
    bindings: {
      // A local stack is for development: /v1 open without ADMIN_TOKEN or API_KEYS, unless `vars` says otherwise.
      ALLOW_ANONYMOUS: 'true',
      LLM_BASE_URL: llmBaseUrl,
      ...(options.llmModel ? { LLM_MODEL: options.llmModel } : usingMock ? { LLM_MODEL: 'mock-judge' } : {}),
      // The bundled mock speaks OpenAI's flex processing, Batch API and Responses API, so the cheaper tiers (and an
      // Evals run's `responses` sampler) can be tried locally.
      ...(usingMock ? { LLM_SUPPORTS_FLEX: 'true', LLM_SUPPORTS_BATCH: 'true', LLM_SUPPORTS_RESPONSES: 'true' } : {}),
      // Its batches finish in about a second (not hours): poll them that often, not every 30 s.
      ...(usingMock ? { BATCH_POLL_MIN_MS: '100', BATCH_POLL_MAX_MS: '500', BATCH_WAVE_QUIET_MS: '300' } : {}),
      ...options.vars,
      ...(apiKey ? { LLM_API_KEY: apiKey } : {}),
      ...options.secrets,
    },
    devVars: options.devVars ?? false,
    varsFromEnv: options.varsFromEnv ?? false,
    logRequests: options.logRequests ?? false,
    ...(options.inspectorPort !== undefined ? { inspectorPort: options.inspectorPort } : {}),
    ...(options.queueConsumers ? { queueConsumers: options.queueConsumers } : {}),
  };
  if (runtimeKind === 'wrangler' && options.queueConsumers)
    throw new Error('queueConsumers needs the miniflare runtime');
  if (runtimeKind === 'wrangler' && options.worker) throw new Error('worker needs the miniflare runtime');
  const worker = options.worker ?? preparedWorkerFrom();
  if (runtimeKind === 'wrangler' && worker)
    throw new Error(`${PREPARED_WORKER_ENV} needs the miniflare runtime: unset it for wrangler dev`);
  let runtime: Runtime;
  // Whatever has not ended and was not touched since this instant was left by an earlier runtime.
  const restartedAt = new Date();
  // The stack's own bundle lives as long as the runtime that serves it (a reload rebuilds into the same
  // directory); a prepared Worker's bundle is never built into nor removed. Those of stacks whose process
  // was killed go now.
  removeStaleBundleDirs();
  const { dir: outDir, remove: removeBundle } = makeBundleDir();
  try {
    runtime =
      runtimeKind === 'miniflare'
        ? await (worker
            ? startMiniflare(config, worker.runtime, Promise.resolve(worker), options, outDir)
            : buildRuntime(outDir).then((module) =>
                startMiniflare(config, module, bundleAndSetup(outDir), options, outDir),
              ))
        : await wranglerMigrations(persistTo).then(() =>
            startWrangler(config, options, `http://${host}:${port}`, outDir),
          );
    if (!(await answersAsTribunal(runtime.url))) {
      await stopGroup(runtime.child);
      throw new Error(`${runtime.url}/health does not answer as Tribunal: is another server on its port?`);
    }
  } catch (e) {
    await mock?.close();
    removeBundle();
    unlock();
    throw e;
  }
  const { child, url } = runtime;
  lock.serving(url);
  const boundPort = Number(new URL(url).port);
  const cronTimer =
    options.crons === false
      ? undefined
      : startCronTimer({
          trigger: runtime.trigger,
          crons: runtime.crons,
          onProblem,
          restartedAt,
          ...(typeof options.crons === 'object' ? { everyMs: options.crons.everyMs } : {}),
        });
  const portFreed = async () => {
    if (!(await waitForPortFree(boundPort, 10_000)))
      throw new Error(`port ${boundPort} is still bound after the runtime stopped`);
  };
  return {
    url,
    llmBaseUrl,
    usingMock,
    runtime: runtimeKind,
    runtimePid: child.pid ?? 0,
    fromEnv: runtime.fromEnv,
    fromDevVars: runtime.fromDevVars,
    reload: () => runtime.reload(),
    describe: (ref) => runtime.describe(ref),
    stop: async () => {
      cronTimer?.stop();
      await stopGroup(child);
      await mock?.close();
      removeBundle();
      unlock();
      await portFreed();
    },
    kill: async () => {
      cronTimer?.stop();
      signalGroup(child, 'SIGKILL');
      await exited(child, 10_000);
      removeBundle();
      unlock();
      await portFreed();
    },
  };
}
