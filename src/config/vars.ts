/**
 * @module
 * The deployment's configuration, in one table: every `[vars]` value of wrangler.toml and every secret,
 * with its default, its unit and what it does. {@link configOf} parses an environment object once (cached
 * per object: bindings do not change while an isolate lives) into typed values; an unset or empty variable
 * takes its default. An invalid value is the operator's fault, not the caller's: it is named in one
 * operator log line (`config.invalid`), and {@link ConfigError} gives callers a generic message with the
 * stable code `config_invalid` (503). tests/architecture/config.test.ts checks that wrangler.toml, this
 * table and the README's table agree.
 *
 * Two variables hold JSON whose structure their owner checks (the LLM layer: `LLM_PROVIDERS`, `LLM_PRICES`,
 * with its own 503 `llm_not_configured`); here they are text.
 */
import { z } from 'zod';
import { LOG_LEVELS, log, setLogLevel } from '../log/log.js';
import type { LogLevel } from '../log/log.js';
import { MAX_ATTEMPTS_PER_INVOCATION } from './platform-limits.js';
import type { SecretSpec, VarSpec } from './var-schemas.js';
import { atLeast, boolean, integer, logLevel, number, spec, text } from './var-schemas.js';

/** Every `[vars]` value, in wrangler.toml's order. */
export const VARS = {
  LLM_BASE_URL: spec(
    text,
    '',
    'URL',
    'OpenAI-compatible endpoint of the default provider; empty fails every evaluation with llm_not_configured.',
  ),
  LLM_MODEL: spec(text, 'gpt-4o-mini', 'model', 'Default model for agents that do not name one.'),
  LLM_TIMEOUT_MS: spec(integer(1), '60000', 'ms', 'Per-attempt timeout of an LLM call.'),
  LLM_MAX_ATTEMPTS: spec(integer(1, 20), '5', 'attempts', 'Attempts per LLM call, first try included (1-20).'),
  LLM_RETRY_BASE_MS: spec(integer(0), '500', 'ms', 'Backoff base of LLM retries (full jitter, doubling).'),
  LLM_RETRY_MAX_MS: spec(integer(0), '20000', 'ms', 'Longest backoff wait between LLM retries.'),
  LLM_RETRY_AFTER_MAX_MS: spec(
    integer(0),
    '60000',
    'ms',
    'Longest provider Retry-After honoured; longer ends the call as rate_limited.',
  ),
  LLM_SUPPORTS_N: spec(boolean, 'false', 'true/false', "Whether the default provider honours OpenAI's `n`."),
  LLM_SUPPORTS_FLEX: spec(
    boolean,
    'false',
    'true/false',
    'Whether the default provider offers flex processing (service_tier "flex": half price, slower).',
  ),
  LLM_SUPPORTS_BATCH: spec(
    boolean,
    'false',
    'true/false',
    "Whether the default provider offers OpenAI's Batch API (/files + /batches: half price within 24 h).",
  ),
  LLM_SUPPORTS_PROMPT_CACHE_KEY: spec(
    boolean,
    'false',
    'true/false',
    'Whether the default provider accepts prompt_cache_key.',
  ),
  LLM_SUPPORTS_RESPONSES: spec(
    boolean,
    'false',
    'true/false',
    "Whether the default provider speaks OpenAI's Responses API (/responses): an Evals run's responses data source samples through it.",
  ),
  LLM_FLEX_TIMEOUT_MS: spec(integer(1), '900000', 'ms', 'Per-attempt timeout of a flex call.'),
  LLM_DEFAULT_TIER: spec(
    z.enum(['standard', 'flex', 'batch'], { error: 'must be "standard", "flex" or "batch"' }),
    'standard',
    'tier',
    "The default provider's tier for requests that name none and whose tenant has no default.",
  ),
  LLM_BATCH_TURNAROUND_SECONDS: spec(
    number(0),
    '3600',
    's',
    "The default provider's typical Batch API turnaround (estimates: one wave's typical time).",
  ),
  LLM_PROVIDERS: spec(text, '', 'JSON', 'Extra providers by id: baseUrl, apiKeySecret, supportsN, …'),
  LLM_PRICES: spec(text, '', 'JSON', 'Price overrides by model, USD per 1M tokens.'),
  ALLOW_ANONYMOUS: spec(
    boolean,
    'false',
    'true/false',
    'With neither ADMIN_TOKEN nor API_KEYS set: true opens /v1 (not /v1/admin) to anyone as tenant "default" (local development); false answers 503 auth_not_configured.',
  ),
  ALLOW_BYOK: spec(boolean, 'false', 'true/false', 'Whether a caller may send its own provider key (X-LLM-Api-Key).'),
  STALL_SECONDS: spec(number(0), '120', 's', 'No progress for this long and the sweeper re-kicks an evaluation.'),
  D1_SHARDS: spec(
    integer(0, 100),
    '4',
    'databases',
    "Tenants' D1 databases, bound as DB_00 … in wrangler.toml (a tenant's hash picks one); 0 = DB holds everything. Fixed once tenants have data; a one-database state is carried over into the shards (docs/scale.md).",
  ),
  STEP_BUDGET_MS: spec(
    atLeast(0),
    '30000',
    'ms',
    'How long one alarm invocation keeps launching newly ready LLM calls; 0 = one round per alarm.',
  ),
  CALL_DEADLINE_MS: spec(
    integer(1000),
    '840000',
    'ms',
    "The longest one object invocation waits on an LLM call before it hands the call to the next invocation (the alarm's 15-minute wall clock less a minute to store the result).",
  ),
  FAST_START: spec(
    boolean,
    'true',
    'true/false',
    "The API starts the evaluation's object itself, with the first step in that call; the queue is the fallback.",
  ),
  MAX_BODY_BYTES: spec(integer(1), '1048576', 'bytes', 'Request body limit.'),
  RATE_LIMIT_REQUESTS: spec(integer(1), '600', 'requests', 'Per-key request rate of tenants without their own.'),
  RATE_LIMIT_WINDOW_SECONDS: spec(integer(1), '60', 's', 'The window of RATE_LIMIT_REQUESTS.'),
  TENANT_MAX_RUNNING: spec(
    integer(1),
    '100',
    'evaluations',
    'Evaluations a tenant may have running at once unless its own cap says otherwise (tier batch ones not counted).',
  ),
  PROVIDER_CONCURRENCY_START: spec(
    integer(0),
    '32',
    'attempts',
    'LLM attempts in flight at first per gate shard of a provider and model (AIMD; a shard per 64 of the max).',
  ),
  PROVIDER_CONCURRENCY_MAX: spec(
    integer(0),
    '256',
    'attempts',
    'Most LLM attempts in flight per provider and model; 0 turns the gate off.',
  ),
  MAX_BATCH_BODY_BYTES: spec(integer(1), '16777216', 'bytes', 'Body limit of POST /v1/batches.'),
  OTLP_MAX_BODY_BYTES: spec(
    integer(1),
    '16777216',
    'bytes',
    'Body limit of POST /v1/traces (OTLP), before and after gzip; past it 413.',
  ),
  OTLP_MAX_SPANS: spec(integer(1, 100_000), '5000', 'spans', 'Spans one POST /v1/traces may carry; past it 413.'),
  TRACE_QUIET_MS: spec(
    integer(0),
    '5000',
    'ms',
    "A trace counts as complete this long after its root span ended and its last span arrived (monitors judge it then); 5 s is an OpenTelemetry SDK's default export interval.",
  ),
  BATCH_CONCURRENCY: spec(integer(1, 1000), '16', 'items', 'Items of one batch in flight at once (1-1000).'),
  VERDICT_CACHE_TTL_DAYS: spec(
    number(0),
    '30',
    'days',
    'How long a cached verdict serves identical requests (cache "use"); older entries miss and are written anew.',
  ),
  FLEX_WAIT_MAX_SECONDS: spec(
    integer(1),
    '86400',
    's',
    'Flex with flexFallback "wait": how long a refused call keeps being retried before it fails.',
  ),
  BATCH_WAVE_QUIET_MS: spec(
    integer(0),
    '2000',
    'ms',
    'Batch tier: a wave closes this long after its last new call (or at once when every item of its group has reported).',
  ),
  BATCH_WAVE_MAX_WAIT_MS: spec(
    integer(0),
    '30000',
    'ms',
    'Batch tier: a wave closes at the latest this long after its first call.',
  ),
  BATCH_POLL_MIN_MS: spec(
    integer(1),
    '30000',
    'ms',
    "Batch tier: the first poll of a provider batch's status after its submission; the wait doubles from here, and is back to this once the batch is finalizing or every line has run.",
  ),
  BATCH_POLL_MAX_MS: spec(integer(1), '600000', 'ms', 'Batch tier: the longest wait between two polls of a batch.'),
  OPENAI_WAIT_SECONDS: spec(
    integer(1, 600),
    '120',
    's',
    'How long POST /v1/chat/completions waits for the verdict (1-600).',
  ),
  RUBRIC_STEPS_WAIT_SECONDS: spec(
    integer(1, 120),
    '20',
    's',
    "How long a request judged by a stored rubric waits for the version's auto-CoT steps before 503 rubric_steps_pending (1-120).",
  ),
  WEBHOOK_TIMEOUT_MS: spec(integer(1), '10000', 'ms', 'Per-attempt timeout of an outbound webhook.'),
  WEBHOOK_ALLOW_LOOPBACK: spec(
    boolean,
    'false',
    'true/false',
    'Allow plain-http webhook URLs to loopback (local development only).',
  ),
  RETENTION_DAYS: spec(
    integer(0, 36_500),
    '30',
    'days',
    "How long an ended evaluation's content (task, transcript, verdict, object storage) is kept (a batch's items: counted from their batch's completion), unless its tenant sets retentionDays; usage rows stay. 0 = kept until deleted.",
  ),
  WEBHOOK_RETENTION_DAYS: spec(
    integer(0, 36_500),
    '30',
    'days',
    'How long webhook events, their deliveries and attempts are kept (pending ones stay). 0 = kept.',
  ),
  RETENTION_PAGE: spec(
    integer(1, 1000),
    '25',
    'evaluations',
    "Evaluations erased per tenant per run of a shard (every minute), 20 tenants' pages and 500 evaluations at most per shard a run (1-1000).",
  ),
  ARCHIVE_AFTER_DAYS: spec(
    integer(0, 36_500),
    '7',
    'days',
    'How long an ended evaluation stays in D1 before the sweeper moves it to the archive (R2): GET still reads it, the listing shows only what D1 holds. 0 = never moved.',
  ),
  WEBHOOK_CONCURRENCY: spec(
    integer(1, MAX_ATTEMPTS_PER_INVOCATION),
    String(MAX_ATTEMPTS_PER_INVOCATION),
    'deliveries',
    "Deliveries in flight at once per lane of a receiver (an endpoint, or a tenant's one-off URLs to one origin) (1-6: a lane sends them from one invocation, which Workers allow 6 open connections).",
  ),
  WEBHOOK_LANES: spec(
    integer(1, 256),
    '32',
    'lanes',
    "Lanes per receiver: its deliveries are spread over this many lanes by a hash of their evaluation (or event), so a receiver gets up to WEBHOOK_LANES × WEBHOOK_CONCURRENCY at once (1-256; default 32: the scale model's busiest receiver under 50% of what its lanes send).",
  ),
  OBJECT_READ_PACE: spec(
    integer(0),
    '0',
    'objects',
    "Most evaluation objects an isolate's readers of many evaluations (a batch's results, an annotation queue's items, the archive's moves) open per 12 s; 0 = unpaced. Deployed each object has its own process, so leave it 0; the local runtime sets 1000 because workerd there runs every object in one process whose SQLite heap (512 MiB) holds only ~3,000 resident objects.",
  ),
  LOG_LEVEL: spec(
    logLevel,
    'info',
    'level',
    "The Worker's lowest log level written (debug, info, warn, error); lines below it cost nothing. info: one line per evaluation that went well (`evaluation.finalized`: its method, status, calls and time), debug adds its start, each call and its end; failures warn.",
  ),
} as const;

/** Every secret the Worker reads besides provider keys named by `LLM_PROVIDERS` (`apiKeySecret`). */
export const SECRETS = {
  LLM_API_KEY: { description: 'Key of the default provider (LLM_BASE_URL); unset: no Authorization header.' },
  ADMIN_TOKEN: { description: "The operator's token for /v1/admin; set, it turns managed keys on." },
  API_KEYS: { description: 'Comma-separated sha-256 hex digests of accepted bearer tokens (the older mode).' },
} as const satisfies Record<string, SecretSpec>;

/** The name of a `[vars]` value. */
export type VarName = keyof typeof VARS;

/** The deployment's configuration, typed. */
export type Config = { readonly [K in VarName]: z.output<(typeof VARS)[K]['schema']> } & {
  /** `LLM_API_KEY`, trimmed; undefined when unset or empty. */
  readonly LLM_API_KEY: string | undefined;
  /** `ADMIN_TOKEN`, trimmed; undefined when unset or empty. */
  readonly ADMIN_TOKEN: string | undefined;
  /** `API_KEYS` as lower-case digests, empty ones dropped. */
  readonly API_KEYS: readonly string[];
};

/** The caller-facing message of an invalid configuration: it names no variable or value. */
export const CONFIG_INVALID_MESSAGE =
  "this deployment's configuration is invalid (the operator's logs name the variable)";

/** The deployment's configuration is invalid: `code` and `message` are for callers, `problems` for the operator. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** Stable caller-facing code. */
  readonly code = 'config_invalid';
  constructor(
    /** Each invalid variable with its value and what is wrong (operator-facing). */
    readonly problems: readonly string[],
  ) {
    super(CONFIG_INVALID_MESSAGE);
  }
}

/** Parsed configurations, or why they are invalid, per environment object. */
const parsed = new WeakMap<object, Config | ConfigError>();

/**
 * The same, per content ({@link contentKey}): workerd hands every Durable Object instance its own environment
 * object, so per object alone every evaluation parsed the whole table again (~1-2% of the Worker's CPU per
 * verdict, `npm run bench:profile`). A few entries at most (tests vary the bindings); cleared when full.
 */
const byContent = new Map<string, Config | ConfigError>();
const BY_CONTENT_MAX = 32;

/** Every value {@link parse} reads, as one string (values may hold anything but NUL). */
function contentKey(env: object): string {
  const e = env as Record<string, unknown>;
  let key = '';
  for (const name of READ_NAMES) {
    const v = e[name];
    key += typeof v === 'string' ? `${v}\0` : '\u0001\0';
  }
  return key;
}

/** The text of a variable, trimmed; undefined when unset, empty or not text. */
function textOf(env: object, name: string): string | undefined {
  const v = (env as Record<string, unknown>)[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The variables {@link parse} reads. */
const READ_NAMES: readonly string[] = [...Object.keys(VARS), 'API_KEYS', 'LLM_API_KEY', 'ADMIN_TOKEN'];

function parse(env: object): Config | ConfigError {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, v] of Object.entries(VARS) as [VarName, VarSpec<unknown>][]) {
    const raw = textOf(env, name) ?? v.default;
    const r = v.schema.safeParse(raw);
    if (r.success) values[name] = r.data;
    else problems.push(`${name}=${JSON.stringify(raw)}: ${r.error.issues.map((i) => i.message).join('; ')}`);
  }
  if (problems.length > 0) return new ConfigError(problems);
  const keys = (textOf(env, 'API_KEYS') ?? '')
    .split(',')
    .map((k) => k.trim().toLowerCase())
    .filter((k) => k.length > 0);
  return {
    ...(values as { [K in VarName]: z.output<(typeof VARS)[K]['schema']> }),
    LLM_API_KEY: textOf(env, 'LLM_API_KEY'),
    ADMIN_TOKEN: textOf(env, 'ADMIN_TOKEN'),
    API_KEYS: keys,
  };
}

/**
 * The configuration of an environment object (the Worker's bindings, or `process.env` in Node), parsed once
 * per object. The first time it finds invalid values, it logs them in one operator line (`config.invalid`).
 * @throws ConfigError when a variable holds an invalid value.
 */
export function configOf(env: object): Config {
  let c = parsed.get(env);
  if (c === undefined) {
    const key = contentKey(env);
    c = byContent.get(key);
    if (c === undefined) {
      c = parse(env);
      if (byContent.size >= BY_CONTENT_MAX) byContent.clear();
      byContent.set(key, c);
      if (c instanceof ConfigError) log('error', 'config.invalid', { invalid: c.problems.join(' | ') });
    }
    parsed.set(env, c);
  }
  if (c instanceof ConfigError) throw c;
  return c;
}

/**
 * What `/v1` asks of a caller: `key` (`ADMIN_TOKEN` or `API_KEYS` set: a bearer token), `open` (neither, and
 * `ALLOW_ANONYMOUS` true: nothing, tenant `default`), `closed` (neither: 503 `auth_not_configured`).
 */
export type AuthMode = 'key' | 'open' | 'closed';

/** The deployment's {@link AuthMode}, from its parsed configuration. */
export function authModeOf(config: Config): AuthMode {
  if (config.ADMIN_TOKEN !== undefined || config.API_KEYS.length > 0) return 'key';
  return config.ALLOW_ANONYMOUS ? 'open' : 'closed';
}

/** The `LOG_LEVEL` text last applied by {@link applyLogLevel}. */
let appliedLevel: string | undefined;

/**
 * Sets this isolate's log level from `env.LOG_LEVEL` (src/log/log.ts `setLogLevel`): each entry (fetch,
 * queue, cron, every Durable Object's constructor) calls it, since an isolate may start at any of them. A
 * string comparison when the text is the one applied. Unset or empty: the default (`info`); an invalid value
 * keeps the level (`debug` before any entry applied one, so nothing is lost), and {@link configOf} names it.
 */
export function applyLogLevel(env: object): void {
  const raw = (env as Record<string, unknown>).LOG_LEVEL;
  const text = typeof raw === 'string' ? raw : '';
  if (text === appliedLevel) return;
  appliedLevel = text;
  const level = text.trim() === '' ? VARS.LOG_LEVEL.default : text.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) setLogLevel(level as LogLevel);
}
