/**
 * @module
 * Starts the whole pipeline locally on embedded workerd with local D1, Queues and Durable Objects, the
 * bundled mock LLM when no API key is configured, and the wrangler.toml crons (the sweeper) fired on
 * their schedule. Used by `npm start`, the meta-evaluation runner, the benches and the e2e tests.
 *
 * Two runtimes (./local-runtimes.ts): `miniflare` (default) runs the deployed bundle (`wrangler deploy
 * --dry-run`, or one built beforehand and shared by several stacks: `prepareWorker`, ./worker-bundle.ts)
 * on Miniflare's API in a child process, which applies the D1 migrations first (src/cli/miniflare-runtime.ts);
 * wrangler.toml is read through wrangler and handed to it as plain data. `wrangler` runs `wrangler dev` after
 * `wrangler d1 migrations apply` (kept for comparison: `npm run bench:runtime`). Either owns a process group,
 * so stopping the stack stops workerd too and frees its port. Node only.
 */

import { join } from 'node:path';

import { startMockServer } from '../mock-llm/node.js';
import type { MockServer } from '../mock-llm/node.js';
import { makeBundleDir, removeStaleBundleDirs } from './bundle-dir.js';

import type { Described, EndedRef } from './ended.js';
import { startCronTimer } from './cron.js';

import type { RuntimeConfig } from './worker-options.js';
import { assertPortFree, freePort, PortInUseError, waitForPortFree } from './ports.js';
import { exited, signalGroup, stopGroup } from './process-group.js';

import { PREPARED_WORKER_ENV, preparedWorkerFrom } from './prepared-worker.js';
import { buildRuntime } from './runtime-build.js';
import type { Runtime } from './local-runtimes.js';
import { answersAsTribunal, startMiniflare, startWrangler } from './local-runtimes.js';
import type { PreparedWorker } from './worker-bundle.js';
import { bundleAndSetup, CONFIG_PATH, REPO_ROOT, wranglerMigrations } from './worker-bundle.js';
import { lockState } from './state-lock.js';

/**
 * `OBJECT_READ_PACE` on a local runtime (1,000 evaluation objects per 12 s per isolate; a deployment leaves it 0):
 * workerd runs every object in one process whose SQLite heap (512 MiB) holds only ~3,000 resident ones, so an
 * unpaced results page of a large batch ended in SQLITE_NOMEM (src/evaluations/read-pace.ts).
 */
export const LOCAL_OBJECT_READ_PACE = '1000';

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
   * A Worker `prepareWorker` (./worker-bundle.ts) bundled and read beforehand (miniflare runtime): served instead of
   * bundling and reading wrangler.toml again, and its bundle left in place when the stack stops (the e2e
   * tests share one). Default: the one `TRIBUNAL_PREPARED_WORKER` names (./prepared-worker.ts, a test and
   * CI hook), else bundle and read now.
   */
  worker?: PreparedWorker;
  /**
   * Keep the runtime child's Node process (Miniflare loaded) when the stack stops, for this process's next
   * stack with the same output (none, or inherited) and environment, vitest's per-file variables aside
   * (miniflare runtime): ~0.9-1.1 CPU-s less a start taking it; at most two are kept idle. `kill()` never keeps it. Default false: `npm start` and the
   * runner end with their stack.
   */
  reuseRuntime?: boolean;
}

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
  /**
   * Swaps a bundle in, state kept (miniflare runtime): rebuilt now (npm start's file watcher), or `worker`'s,
   * bundled beforehand by `prepareWorker` (no wrangler run: the e2e tests swap the run's own bundle in).
   */
  reload(worker?: PreparedWorker): Promise<void>;
  /** Reads an ended evaluation or batch from the local D1 (miniflare runtime; null otherwise, or when unreadable). */
  describe(ref: EndedRef): Promise<Described | null>;
  /**
   * Stops the crons, the runtime's whole process group (SIGTERM, then SIGKILL; with `reuseRuntime`, its workerd
   * alone) and the mock; resolves once the API port is free. After a stop or kill, the runtime is not touched again.
   */
  stop(): Promise<void>;
  /**
   * SIGKILLs the runtime's process group, as a crash would (the mock keeps running); resolves once the API port is
   * free. Nothing after a stop.
   */
  kill(): Promise<void>;
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
      // Every object shares this one process's SQLite heap: readers of many objects go at a pace.
      OBJECT_READ_PACE: LOCAL_OBJECT_READ_PACE,
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
            ? startMiniflare(config, worker.runtime, Promise.resolve(worker), options, outDir, options.reuseRuntime)
            : buildRuntime(outDir).then((module) =>
                // A module built into this stack's own folder goes with it: its child is never kept.
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
  /** The runtime's end (the first stop or kill) and the mock's close, each once. */
  let ending: Promise<void> | undefined;
  let mockClosed: Promise<void> | undefined;
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
    reload: (swapped) => runtime.reload(swapped),
    describe: (ref) => runtime.describe(ref),
    // The first of stop and kill ends the runtime; a later call waits for it. A runtime child a stop handed back
    // may serve another stack by then: a second stop must not dispose it, nor a kill signal its group. The mock
    // outlives a kill (the test restarts on it) and goes with the first stop.
    stop: async () => {
      try {
        await (ending ??= (async () => {
          cronTimer?.stop();
          if (!(await runtime.release())) await stopGroup(child);
          removeBundle();
          unlock();
          await portFreed();
        })());
      } finally {
        await (mockClosed ??= mock?.close() ?? Promise.resolve());
      }
    },
    kill: () =>
      (ending ??= (async () => {
        cronTimer?.stop();
        signalGroup(child, 'SIGKILL');
        await exited(child, 10_000);
        removeBundle();
        unlock();
        await portFreed();
      })()),
  };
}
