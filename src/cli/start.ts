/**
 * @module
 * `npm start`: the whole service on local workerd (the deployed bundle on Miniflare) with local D1,
 * Queues, Durable Objects and the cron sweeper; the bundled mock LLM serves the calls when no
 * LLM_API_KEY / LLM_BASE_URL is set. Rebuilds and reloads on source changes. Ctrl+C or SIGTERM stops
 * the runtime's whole process group and the mock, and leaves both ports free.
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { CliOptions, CliSpec, CliValues } from './args.js';
import { choiceOption, describeError, intOption, isMain, runCli, UsageError } from './args.js';
import type { LocalStack } from './local-stack.js';
import { LOCAL_OBJECT_READ_PACE, startLocalStack } from './local-stack.js';
import { REPO_ROOT } from './worker-bundle.js';
import { PREPARED_WORKER_ENV } from './prepared-worker.js';
import { stopLiveGroups, whenOrphaned } from './process-group.js';
import { outputModeOf, terminalLog } from './terminal-log.js';
import { readDevVars, settingsOf, sourceOf } from './dev-vars.js';

/** Command line of `npm start`. */
export const START_CLI = {
  usage: `usage: npm start [-- options]

Runs Tribunal locally: the API on http://127.0.0.1:8787 (docs at /docs), local D1, Queues, Durable
Objects and the cron sweeper, state in .wrangler/state; the bundled mock LLM when no LLM key is set.

  --port N            API port (default PORT, else 8787; 0 = any free port, named in the banner)
  --mock-port N       mock LLM port (default MOCK_LLM_PORT, else 8788; 0 = any free port)
  --persist-to DIR    local state directory (default .wrangler/state)
  --runtime R         miniflare (default) or wrangler (wrangler dev)
  --log-requests      one log line per request
  --verbose           the Worker's JSON log lines, every level (default: one readable line per ended
                      evaluation, batch or Evals run, and the warnings and errors)
  --no-watch          do not rebuild and reload on source changes
  -h, --help          this text

One runtime per state directory: a second npm start on the same state is refused (give it --persist-to).

Environment: LOG_LEVEL (debug, info, warn, error: the JSON log lines from that level up), LLM_API_KEY, LLM_BASE_URL, LLM_MODEL (the LLM; else the mock), ADMIN_TOKEN (managed API
keys: the admin API accepts it, npm run admin creates tenants and keys, /v1 then requires a key), API_KEYS
(comma-separated sha-256 hex digests of accepted bearer tokens: /v1 then requires one), keys named by LLM_PROVIDERS,
and any wrangler.toml [vars] name (e.g. STALL_SECONDS) to override it. .dev.vars applies as with wrangler dev, and
the LLM, key, ALLOW_ANONYMOUS, WEBHOOK_ALLOW_LOOPBACK, OBJECT_READ_PACE (default 1000 here) and LOG_LEVEL
settings are read from it too (the environment wins).`,
  options: {
    port: { type: 'string' },
    'mock-port': { type: 'string' },
    'persist-to': { type: 'string' },
    runtime: { type: 'string' },
    'log-requests': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    'no-watch': { type: 'boolean', default: false },
  },
} as const satisfies CliSpec<CliOptions>;

/** `API_KEYS` as the Worker reads it (sha-256 hex digests); anything else is refused, never passed on silently. */
export function apiKeysOf(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const keys = value
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
  const bad = keys.filter((k) => !/^[0-9a-fA-F]{64}$/.test(k));
  if (bad.length > 0) {
    throw new UsageError(
      `API_KEYS must be comma-separated sha-256 hex digests of tokens, not the tokens (${bad.length} entr${bad.length === 1 ? 'y is' : 'ies are'} not 64 hex characters); ` +
        `e.g. API_KEYS=$(printf %s "$TOKEN" | sha256sum | cut -d' ' -f1)`,
    );
  }
  return keys.join(',');
}

/** Secrets LLM_PROVIDERS names (`apiKeySecret`) that are set in `env`. */
function providerSecretsOf(env: NodeJS.ProcessEnv): Record<string, string> {
  let providers: unknown;
  try {
    providers = env.LLM_PROVIDERS ? JSON.parse(env.LLM_PROVIDERS) : {};
  } catch (e) {
    throw new UsageError(`LLM_PROVIDERS is not valid JSON (${describeError(e)})`);
  }
  const out: Record<string, string> = {};
  for (const p of Object.values(providers as Record<string, { apiKeySecret?: unknown }>)) {
    const name = p.apiKeySecret;
    if (typeof name === 'string' && env[name] !== undefined) out[name] = env[name];
  }
  return out;
}

/** Rebuilds and reloads on changes under the Worker's sources (debounced); one reload at a time. */
function watchSources(stack: LocalStack): FSWatcher[] {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const onChange = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(async () => {
        const t0 = Date.now();
        try {
          await stack.reload();
          console.log(`[tribunal] sources changed: reloaded in ${Date.now() - t0} ms`);
        } catch (e) {
          console.error(`[tribunal] reload failed, still serving the previous build: ${describeError(e)}`);
        }
      });
    }, 300);
  };
  // The assets' build output (dist/web, written by the bundle's own [build] step) is outside these folders.
  const sources = () => {
    onChange();
  };
  return ['src', 'queues', 'durable-objects', 'migrations', 'wrangler.toml'].map((p) =>
    watch(join(REPO_ROOT, p), { recursive: true }, sources),
  );
}

/**
 * The banner's line on who may call `/v1`: `apiKeys` is how many API_KEYS came from the environment, or
 * `.dev.vars` when they came from there; `managed` whether ADMIN_TOKEN is set; `allowAnonymous` the
 * environment's ALLOW_ANONYMOUS (npm start sets `"true"` when unset, and says so).
 */
export function authLine(o: {
  apiKeys: number | '.dev.vars';
  managed: boolean;
  allowAnonymous: string | undefined;
}): string {
  if (o.apiKeys === '.dev.vars') return 'API_KEYS from .dev.vars: /v1 requires "Authorization: Bearer <token>".';
  if (o.apiKeys > 0)
    return `API_KEYS from the environment (${String(o.apiKeys)}): /v1 requires "Authorization: Bearer <token>".`;
  if (o.managed) return '/v1 requires "Authorization: Bearer <key>".';
  if (o.allowAnonymous === undefined)
    return 'No ADMIN_TOKEN or API_KEYS: npm start sets ALLOW_ANONYMOUS=true, so /v1 is open to anyone as tenant "default" (local development; a deployment without either answers 503 auth_not_configured).';
  if (o.allowAnonymous.trim() === 'true')
    return 'No ADMIN_TOKEN or API_KEYS, and ALLOW_ANONYMOUS=true: /v1 is open to anyone as tenant "default" (local development).';
  return 'No ADMIN_TOKEN or API_KEYS, and ALLOW_ANONYMOUS is not true: /v1 answers 503 auth_not_configured (closed, as deployed).';
}

/**
 * The `[vars]` npm start sets unless the environment or `.dev.vars` (`env`, ./dev-vars.ts `settingsOf`) does:
 * local development's, never a deployment's defaults.
 * @param logLevel the Worker's log level: the terminal's quiet mode reads the info line of every ended evaluation
 */
export function startVars(env: NodeJS.ProcessEnv, logLevel: string): Record<string, string> {
  return {
    // Webhook callbacks may go to plain-http receivers on loopback (a deployment never allows it).
    WEBHOOK_ALLOW_LOOPBACK: env.WEBHOOK_ALLOW_LOOPBACK ?? 'true',
    // /v1 is open without ADMIN_TOKEN or API_KEYS (a deployment is closed by default).
    ALLOW_ANONYMOUS: env.ALLOW_ANONYMOUS ?? 'true',
    // Every object shares one workerd process's SQLite heap: readers of many objects go at a pace (deployed: unpaced).
    OBJECT_READ_PACE: env.OBJECT_READ_PACE ?? LOCAL_OBJECT_READ_PACE,
    LOG_LEVEL: logLevel,
  };
}

/** How long a child started before the banner gets to end on SIGTERM when npm start is interrupted or fails (ms). */
const INTERRUPT_GRACE_MS = 2_000;

async function main(values: CliValues<typeof START_CLI.options>): Promise<undefined> {
  // The developer's .dev.vars sets what the environment does not: npm start's defaults (the mock, an open /v1, the
  // terminal's log level) never override a value set there.
  const devVars = readDevVars(REPO_ROOT);
  const env = settingsOf(process.env, devVars);
  const port =
    intOption(values.port ?? env.PORT, values.port !== undefined ? 'port' : 'port (PORT)', 0, 65_535) ?? 8787;
  const mockPort =
    intOption(
      values['mock-port'] ?? env.MOCK_LLM_PORT,
      values['mock-port'] !== undefined ? 'mock-port' : 'mock-port (MOCK_LLM_PORT)',
      0,
      65_535,
    ) ?? 8788;
  const runtime = choiceOption(values.runtime, 'runtime', ['miniflare', 'wrangler'] as const) ?? 'miniflare';
  const apiKeys = apiKeysOf(env.API_KEYS);
  // Managed API keys (src/tenants/): the operator's token for /v1/admin (npm run admin).
  const adminToken = env.ADMIN_TOKEN?.trim() ?? '';
  const mode = outputModeOf(values.verbose, env.LOG_LEVEL);
  // The runtime's lines go through the terminal's filter, which asks the stack about what ended.
  const started: { stack?: LocalStack } = {};
  const onOutput = terminalLog({
    mode,
    describe: (ref) => started.stack?.describe(ref) ?? Promise.resolve(null),
    write: (line) => {
      process.stdout.write(`${line}\n`);
    },
  });
  // Output held until the banner is out is written if the start fails or is interrupted instead (it may say why).
  // An interrupt stops every child started so far (wrangler bundling or migrating, the runtime: each a process
  // group of its own, which a signal to this process alone never reaches), then ends the process as it would have
  // without this handler; a second one does not wait for them.
  let interrupting = false;
  const interrupted = (signal: NodeJS.Signals) => {
    onOutput.ready();
    const end = () => {
      process.removeListener('SIGINT', interrupted);
      process.removeListener('SIGTERM', interrupted);
      process.kill(process.pid, signal);
    };
    if (interrupting) {
      void stopLiveGroups(0).finally(end);
      return;
    }
    interrupting = true;
    void stopLiveGroups(INTERRUPT_GRACE_MS).finally(end);
  };
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  const stack = await startLocalStack({
    port,
    mockPort,
    runtime,
    ...(values['persist-to'] ? { persistTo: values['persist-to'] } : {}),
    ...(env.LLM_BASE_URL ? { llmBaseUrl: env.LLM_BASE_URL } : {}),
    ...(env.LLM_API_KEY ? { llmApiKey: env.LLM_API_KEY } : {}),
    ...(env.LLM_MODEL ? { llmModel: env.LLM_MODEL } : {}),
    secrets: {
      ...providerSecretsOf(env),
      ...(apiKeys ? { API_KEYS: apiKeys } : {}),
      ...(adminToken ? { ADMIN_TOKEN: adminToken } : {}),
    },
    vars: startVars(env, mode.kind === 'json' ? mode.level : 'info'),
    devVars: true,
    varsFromEnv: true,
    logRequests: values['log-requests'],
    onOutput,
  })
    .catch(async (e: unknown) => {
      onOutput.ready();
      // Interrupted: the step failed because the interrupt stopped its child. The interrupt ends the process by its
      // signal once every child is stopped; exiting 1 here first would race it (seen under load).
      if (interrupting) return await new Promise<never>(() => undefined);
      // A step that failed may leave another running (the bundle beside wrangler.toml's read).
      await stopLiveGroups(INTERRUPT_GRACE_MS);
      throw e;
    })
    .finally(() => {
      process.removeListener('SIGINT', interrupted);
      process.removeListener('SIGTERM', interrupted);
    });
  started.stack = stack;
  // The test and CI hook (./prepared-worker.ts): said, so a bundle made before a change is never a surprise.
  const prepared = env[PREPARED_WORKER_ENV];
  const watchers = values['no-watch'] || runtime === 'wrangler' ? [] : watchSources(stack);
  const adminFrom = !adminToken
    ? null
    : sourceOf('ADMIN_TOKEN', process.env, devVars) === 'env'
      ? 'the environment'
      : '.dev.vars';
  const managed = adminFrom
    ? `ADMIN_TOKEN from ${adminFrom}: managed API keys are on; create tenants and keys with \`TRIBUNAL_ADMIN_TOKEN=… npm run admin\`.`
    : null;
  const auth = authLine({
    apiKeys: !apiKeys
      ? 0
      : sourceOf('API_KEYS', process.env, devVars) === 'env'
        ? apiKeys.split(',').length
        : '.dev.vars',
    managed: managed !== null,
    allowAnonymous: env.ALLOW_ANONYMOUS,
  });
  console.log(
    [
      '',
      `Tribunal is running at ${stack.url}  (live viewer: ${stack.url}/, docs: ${stack.url}/docs, OpenAPI: ${stack.url}/openapi.json)`,
      stack.usingMock
        ? `No LLM_API_KEY set: using the bundled mock LLM at ${stack.llmBaseUrl} (deterministic judge replies).`
        : `LLM endpoint: ${stack.llmBaseUrl}`,
      ...(managed ? [managed] : []),
      auth,
      ...(stack.fromEnv.length > 0 ? [`From the environment: ${stack.fromEnv.join(', ')}.`] : []),
      ...(stack.fromDevVars.length > 0 ? [`From .dev.vars / .env: ${stack.fromDevVars.join(', ')}.`] : []),
      `Runtime: ${runtime === 'miniflare' ? `Miniflare (the deployed bundle${prepared ? ` in ${prepared}, from ${PREPARED_WORKER_ENV}` : ''})` : 'wrangler dev'}, state in ${values['persist-to'] ?? '.wrangler/state'}; crons (the sweeper) run on schedule, and once now.`,
      mode.kind === 'quiet'
        ? 'Output: one line per ended evaluation, batch or Evals run, and warnings and errors (--verbose or LOG_LEVEL=info: the JSON logs).'
        : `Output: the Worker's JSON log lines from level ${mode.level} up.`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  onOutput.ready();
  let stopping = false;
  const shutdown = (reason: string) => {
    if (stopping) {
      // A second Ctrl+C: do not wait for a graceful stop.
      void stack.kill().finally(() => process.exit(130));
      return;
    }
    stopping = true;
    for (const w of watchers) w.close();
    console.log(`\n${reason}: stopping…`);
    stack.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(`error while stopping: ${describeError(e)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // npm passes SIGTERM to the shell it runs us in, which dies without passing it on.
  whenOrphaned(() => {
    shutdown('npm exited');
  });
  return undefined;
}

if (isMain(import.meta.url)) await runCli(START_CLI, main);
