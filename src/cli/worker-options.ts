/**
 * @module
 * wrangler.toml as Miniflare options, through wrangler's own translation
 * (`unstable_getMiniflareWorkerOptions`), so D1, Queues, Durable Objects, vars and compatibility settings
 * are configured once, in wrangler.toml. Also: which bindings a developer's `.dev.vars` / `.env` would
 * add, so the local stack and the tests can leave them out. Node only.
 */
import { basename, dirname, join } from 'node:path';
import * as miniflareApi from 'miniflare';
import * as wranglerApi from 'wrangler';

/** The part of wrangler's config read here (its own type names a package wrangler bundles, so it does not resolve). */
export interface WranglerConfigView {
  name?: string;
  compatibility_date?: string;
  vars: Record<string, unknown>;
  triggers: { crons?: string[] };
}

/** wrangler's config reader, typed as used here. */
export const readWranglerConfig = wranglerApi.unstable_readConfig as unknown as (args: {
  config: string;
}) => WranglerConfigView;

/**
 * Miniflare options, loosely typed: miniflare's declarations are written against zod 3 and this project
 * resolves zod 4, so its option types do not resolve here. Miniflare validates them at runtime.
 */
export type MiniflareOptions = Record<string, unknown>;

/** The Miniflare instance methods used here. */
export interface MiniflareInstance {
  readonly ready: Promise<URL>;
  setOptions(options: MiniflareOptions): Promise<void>;
  dispose(): Promise<void>;
  /** A D1 binding of the entry Worker, usable from Node. */
  getD1Database(bindingName: string): Promise<unknown>;
  /** The entry Worker (not the asset router in front of it) as a service binding. */
  getWorker(): Promise<{ scheduled(options: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }> }>;
}
export const Miniflare = miniflareApi.Miniflare as unknown as new (options: MiniflareOptions) => MiniflareInstance;

/** wrangler's translation of wrangler.toml into Miniflare worker options (script excluded). */
const workerOptionsOf = wranglerApi.unstable_getMiniflareWorkerOptions as unknown as (configPath: string) => {
  workerOptions: MiniflareOptions & {
    bindings?: Record<string, unknown>;
    modulesRules?: Record<string, unknown>[];
    queueConsumers?: Record<string, Record<string, unknown>>;
  };
};

/** The keys wrangler would add from `.dev.vars` / `.env` next to `configPath` (values unused). */
const devVarsOf = wranglerApi.unstable_getVarsForDev as unknown as (
  configPath: string,
  envFiles: undefined,
  vars: Record<string, never>,
  env: undefined,
  silent: boolean,
) => Record<string, unknown>;

/** What the local stack asks the runtime for. */
export interface RuntimeConfig {
  /** wrangler.toml. */
  configPath: string;
  /** The bundled Worker (ES module) to run. */
  scriptPath: string;
  /** State directory, as `wrangler dev --persist-to` takes it (D1 and DO state under `v3/`). */
  persistTo: string;
  host: string;
  port: number;
  /** Bindings over wrangler.toml's (vars and secrets alike); never on a command line. */
  bindings: Record<string, string>;
  /** Apply `.dev.vars` / `.env` as `wrangler dev` does (npm start), or ignore them (tests, runner, bench). */
  devVars: boolean;
  /** wrangler.toml `[vars]` set in this process's environment override the file (npm start). */
  varsFromEnv: boolean;
  /** One log line per request, as wrangler dev prints. */
  logRequests: boolean;
  /** Port of workerd's V8 inspector (DevTools protocol, one target per Worker and service). Default none. */
  inspectorPort?: number;
  /** Settings over wrangler.toml's per consumed queue, e.g. `{ 'tribunal-jobs': { maxBatchTimeout: 60 } }`. */
  queueConsumers?: Record<string, QueueConsumerOverrides>;
}

/** Queue consumer settings a local run may change (Miniflare's names; seconds). */
export interface QueueConsumerOverrides {
  maxBatchSize?: number;
  maxBatchTimeout?: number;
}

/**
 * The entry module the local runtime runs in front of the bundle (`entry` is the bundle's file name): the
 * Worker's own handlers and classes, except that an answer sent before the request body was read (a 404
 * for an unknown trigger, a 401, a 413 on Content-Length) is returned only once the body is drained.
 * Behind Miniflare's entry worker, workerd otherwise drops the connection after such an answer without
 * `Connection: close` (a `Connection` header the Worker sets is removed), and the client's next request
 * on that keep-alive connection fails (node's keep-alive agent, Python's http.client). Deployed,
 * Cloudflare's edge owns the client's connection, so the Worker itself does not need this.
 */
export function localEntryModule(entry: string): string {
  const from = JSON.stringify(`./${entry}`);
  return `import worker from ${from};
export * from ${from};
async function drain(body) {
  const reader = body.getReader();
  for (;;) if ((await reader.read()).done) return;
}
export default {
  ...worker,
  async fetch(request, env, ctx) {
    const response = await worker.fetch(request, env, ctx);
    if (request.body !== null && !request.bodyUsed) await drain(request.body).catch(() => undefined);
    return response;
  },
};
`;
}

/** File name of {@link localEntryModule}, beside the bundle (it is never written: Miniflare gets its text). */
const LOCAL_ENTRY = '__local-entry.mjs';

/** The Miniflare options for `config`, the wrangler.toml crons, and where bindings came from. */
export function miniflareOptionsOf(config: RuntimeConfig): {
  options: MiniflareOptions;
  crons: string[];
  fromEnv: string[];
  fromDevVars: string[];
} {
  const wrangler = readWranglerConfig({ config: config.configPath });
  const { workerOptions } = workerOptionsOf(config.configPath);
  const declared = wrangler.vars;
  // The keys wrangler took from .dev.vars / .env (silently read again to know which they were).
  const fromDevVars = Object.keys(devVarsOf(config.configPath, undefined, {}, undefined, true));
  const ignored = new Set(config.devVars ? [] : fromDevVars.filter((key) => !(key in declared)));
  const bindings: Record<string, unknown> = Object.fromEntries(
    Object.entries(workerOptions.bindings ?? {}).filter(([key]) => !ignored.has(key)),
  );
  if (!config.devVars) for (const key of fromDevVars) if (key in declared) bindings[key] = declared[key];
  const fromEnv: string[] = [];
  if (config.varsFromEnv) {
    for (const key of Object.keys(declared)) {
      const value = process.env[key];
      if (value !== undefined && !(key in config.bindings)) {
        bindings[key] = value;
        fromEnv.push(key);
      }
    }
  }
  Object.assign(bindings, config.bindings);
  const queueConsumers = { ...workerOptions.queueConsumers };
  for (const [queue, overrides] of Object.entries(config.queueConsumers ?? {})) {
    const declaredConsumer = queueConsumers[queue];
    if (!declaredConsumer) throw new Error(`wrangler.toml has no consumer for queue ${queue}`);
    queueConsumers[queue] = { ...declaredConsumer, ...overrides };
  }
  const options: MiniflareOptions = {
    ...workerOptions,
    queueConsumers,
    name: wrangler.name ?? 'worker',
    modules: true,
    script: localEntryModule(basename(config.scriptPath)),
    scriptPath: join(dirname(config.scriptPath), LOCAL_ENTRY),
    modulesRoot: dirname(config.scriptPath),
    // The bundle is an ES module (wrangler's output), imported by the local entry.
    modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }, ...(workerOptions.modulesRules ?? [])],
    bindings,
    host: config.host,
    port: config.port,
    defaultPersistRoot: join(config.persistTo, 'v3'),
    // request.cf comes from a placeholder instead of a download from workers.cloudflare.com (offline).
    cf: false,
    logRequests: config.logRequests,
    // /cdn-cgi/handler/scheduled: how the local stack fires the crons.
    unsafeTriggerHandlers: true,
    // Miniflare's own info lines (one per queue batch) are noise next to the Worker's logs, but its request
    // lines are info lines too: with `logRequests` (npm start --log-requests) they must get through.
    log: new miniflareApi.Log(config.logRequests ? miniflareApi.LogLevel.INFO : miniflareApi.LogLevel.WARN),
    ...(config.inspectorPort !== undefined ? { inspectorPort: config.inspectorPort } : {}),
  };
  return { options, crons: wrangler.triggers.crons ?? [], fromEnv, fromDevVars: config.devVars ? fromDevVars : [] };
}

/**
 * Bindings that undo a developer's `.dev.vars` / `.env` next to `configPath`: each key found there set
 * back to its wrangler.toml value, or to '' when wrangler.toml does not declare it (a secret). For the
 * vitest pool, which reads `.dev.vars` through wrangler and merges its own bindings over them.
 */
export function bindingsOverDevVars(configPath: string): Record<string, unknown> {
  const declared = readWranglerConfig({ config: configPath }).vars;
  return Object.fromEntries(
    Object.keys(devVarsOf(configPath, undefined, {}, undefined, true)).map((key) => [
      key,
      key in declared ? declared[key] : '',
    ]),
  );
}
