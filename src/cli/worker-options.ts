/**
 * @module
 * The local runtime's Miniflare options: wrangler.toml as wrangler's own translation gives it
 * ({@link WorkerSetup}, read by ./wrangler-config.ts), so D1, Queues, Durable Objects, vars and
 * compatibility settings are configured once, in wrangler.toml, with the stack's bindings over them and a
 * developer's `.dev.vars` / `.env` left out unless asked for. Plain data in, options out: the runtime child
 * that uses this never imports wrangler (1.3 CPU-s a start). Node only.
 */
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type * as MiniflareModule from 'miniflare';
import { installQueueBrokerFix } from './miniflare-queue-broker.js';

/**
 * Miniflare options, loosely typed: miniflare's declarations are written against zod 3 and this project
 * resolves zod 4, so its option types do not resolve here. Miniflare validates them at runtime.
 */
export type MiniflareOptions = Record<string, unknown>;

// Required, not imported: miniflare is CommonJS, and Node's ESM loader would first scan its 3 MB file for
// the names it exports, about 0.3 CPU-s on every runtime start.
const miniflareApi = createRequire(import.meta.url)('miniflare') as typeof MiniflareModule;
// Before any Miniflare starts: its local queue broker otherwise stops handing over batches for good after
// one throw inside a flush (./miniflare-queue-broker.ts).
installQueueBrokerFix();

/** The Miniflare instance methods used here. */
export interface MiniflareInstance {
  readonly ready: Promise<URL>;
  setOptions(options: MiniflareOptions): Promise<void>;
  dispose(): Promise<void>;
  /** The URL of a Worker's own socket (`unsafeDirectSockets`). */
  unsafeGetDirectURL(workerName: string): Promise<URL>;
}
export const Miniflare = miniflareApi.Miniflare as unknown as new (options: MiniflareOptions) => MiniflareInstance;

/** One D1 database's migrations, as wrangler.toml declares them. */
export interface D1Migrations {
  /** The binding, e.g. `DB`. */
  binding: string;
  /** The table recording applied migrations (wrangler.toml `migrations_table`; default `d1_migrations`). */
  table: string;
  /** Every `.sql` file of the migrations folder, in wrangler's order, split as wrangler splits it with its recording row appended. */
  migrations: { name: string; statements: string[] }[];
}

/**
 * wrangler.toml as the local runtime needs it, read once through wrangler (./wrangler-config.ts) and
 * handed over as plain data (JSON over IPC, or `inject()` in the e2e tests).
 */
export interface WorkerSetup {
  /** The Worker's name (wrangler.toml `name`; default `worker`). */
  name: string;
  /** wrangler's translation into Miniflare worker options (script excluded); its bindings include `.dev.vars`'. */
  workerOptions: MiniflareOptions & {
    bindings?: Record<string, unknown>;
    modulesRules?: Record<string, unknown>[];
    queueConsumers?: Record<string, Record<string, unknown>>;
  };
  /** wrangler.toml `[vars]`, as declared. */
  vars: Record<string, unknown>;
  /** wrangler.toml `[triggers] crons`. */
  crons: string[];
  /** The keys wrangler took from `.dev.vars` / `.env` next to wrangler.toml. */
  devVarKeys: string[];
  /** Each D1 database's migrations, in order, split into statements. */
  d1: D1Migrations[];
}

/** What the local stack asks the runtime for. */
export interface RuntimeConfig {
  /** wrangler.toml. */
  configPath: string;
  /** wrangler.toml as read through wrangler (./wrangler-config.ts `readWorkerSetup`). */
  worker: WorkerSetup;
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
  /**
   * True: no consumer in this runtime, so the queue's messages wait in memory however long the run takes
   * (a crash test's "accepted, never started", which a batch timeout, at most 60 s, made a race on a busy
   * machine). Default false.
   */
  held?: boolean;
}

/**
 * The entry module the local runtime runs in front of the bundle (`entry` is the bundle's file name): the
 * Worker's own handlers and classes, except that an answer sent before the request body was read (a 404
 * for an unknown trigger, a 401, a 413 on Content-Length) is returned only once the body is drained.
 * Behind Miniflare's entry worker, workerd otherwise drops the connection after such an answer without
 * `Connection: close` (a `Connection` header the Worker sets is removed), and the client's next request
 * on that keep-alive connection fails (node's keep-alive agent, Python's http.client). Deployed,
 * Cloudflare's edge owns the client's connection, so the Worker itself does not need this.
 *
 * An answer without a `Content-Encoding` leaves marked `identity`, so Miniflare's entry worker sends it as is
 * instead of gzipping it for a client that accepts gzip (its emulation of the edge's compression). Deployed,
 * the edge compresses outside the Worker; locally the gzip stream's turns wait on the runtime's one thread
 * behind the Worker's and its objects' work: bench:peers' waited verdicts at C = 16 got their body 8-13 ms
 * (p50) after their headers, against 1-2 ms unmarked, while the forwarding floor's idle thread paid ~2 ms.
 * An answer the Worker encoded itself (an OTLP reply in gzip) and a WebSocket upgrade keep theirs.
 */
export function localEntryModule(entry: string): string {
  const from = JSON.stringify(`./${entry}`);
  return `import worker from ${from};
export * from ${from};
async function drain(body) {
  const reader = body.getReader();
  for (;;) if ((await reader.read()).done) return;
}
function sentAsIs(response) {
  if (response.status === 101 || response.headers.has('content-encoding')) return response;
  try {
    response.headers.set('content-encoding', 'identity');
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set('content-encoding', 'identity');
    return copy;
  }
}
export default {
  ...worker,
  async fetch(request, env, ctx) {
    const response = await worker.fetch(request, env, ctx);
    if (request.body !== null && !request.bodyUsed) await drain(request.body).catch(() => undefined);
    return sentAsIs(response);
  },
};
`;
}

/** File name of {@link localEntryModule}, beside the bundle (it is never written: Miniflare gets its text). */
const LOCAL_ENTRY = '__local-entry.mjs';

/**
 * The Worker's modules, listed: the local entry and the bundle, which is one ES module (wrangler's output
 * for this Worker: nothing it imports is a non-JS module). Listed rather than found by Miniflare, which
 * would parse the 4 MB bundle with acorn to find its imports: about 0.9 CPU-s on every start and reload.
 */
function modulesOf(scriptPath: string): MiniflareOptions {
  const root = dirname(scriptPath);
  return {
    modules: [
      { type: 'ESModule', path: join(root, LOCAL_ENTRY), contents: localEntryModule(basename(scriptPath)) },
      { type: 'ESModule', path: scriptPath },
    ],
    modulesRoot: root,
  };
}

/**
 * The Miniflare options for `config`, the wrangler.toml crons, and where bindings came from: `fromDevVars` names
 * the keys `.dev.vars` / `.env` set to a non-empty value (none unless `config.devVars`).
 */
export function miniflareOptionsOf(config: RuntimeConfig): {
  options: MiniflareOptions;
  crons: string[];
  fromEnv: string[];
  fromDevVars: string[];
} {
  const { workerOptions, vars: declared, devVarKeys: fromDevVars } = config.worker;
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
  const declaredConsumers = workerOptions.queueConsumers ?? {};
  for (const queue of Object.keys(config.queueConsumers ?? {}))
    if (!(queue in declaredConsumers)) throw new Error(`wrangler.toml has no consumer for queue ${queue}`);
  const queueConsumers = Object.fromEntries(
    Object.entries(declaredConsumers).flatMap(([queue, declared]) => {
      const { held, ...settings } = config.queueConsumers?.[queue] ?? {};
      return held ? [] : [[queue, { ...declared, ...settings }]];
    }),
  );
  // The rules for finding modules do not apply to modules listed.
  const { modulesRules: _rules, ...declaredOptions } = workerOptions;
  const options: MiniflareOptions = {
    ...declaredOptions,
    queueConsumers,
    name: config.worker.name,
    ...modulesOf(config.scriptPath),
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
  // A key `.dev.vars` leaves empty is unset to the Worker (src/config/vars.ts), so it is not named as set there:
  // npm start's banner would otherwise say `API_KEYS=` makes /v1 require a key while it is open.
  const setFromDevVars = fromDevVars.filter((key) => {
    const value = workerOptions.bindings?.[key];
    return typeof value !== 'string' || value.trim() !== '';
  });
  return { options, crons: config.worker.crons, fromEnv, fromDevVars: config.devVars ? setFromDevVars : [] };
}
