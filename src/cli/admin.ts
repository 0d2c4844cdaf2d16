/**
 * @module
 * `npm run admin -- <command> [options]`: tenants, API keys and usage of a Tribunal deployment, local
 * (`ADMIN_TOKEN=… npm start`) or deployed, through its admin API (`/v1/admin`, src/admin/routes.ts).
 * The operator token comes from `TRIBUNAL_ADMIN_TOKEN`, never from the command line (it would land in
 * the shell history and the process list). Prints the API's JSON answer (usage: CSV with `--csv`); a
 * new key is printed once, with a reminder on stderr that it cannot be shown again.
 */
import type { CliIo, CliOptions, CliSpec, CliValues } from './args.js';
import { choiceOption, describeError, intOption, isMain, runCli, UsageError } from './args.js';
import { didYouMean } from '../engine/suggest.js';

const COMMANDS = [
  'tenants:create',
  'tenants:list',
  'tenants:get',
  'tenants:update',
  'keys:create',
  'keys:list',
  'keys:get',
  'keys:revoke',
  'usage',
  'shards:carry-over',
] as const;
type Command = (typeof COMMANDS)[number];

/** Command line of `npm run admin`. */
export const ADMIN_CLI = {
  usage: `usage: npm run admin -- <command> [options]

Tenants, API keys and usage of a Tribunal deployment, through its admin API (/v1/admin).
The operator token is read from TRIBUNAL_ADMIN_TOKEN (the deployment's ADMIN_TOKEN secret).

Commands:
  tenants:create --name N [--id ID] [limits]      a new tenant (--id: adopt an API_KEYS tenant's 12-hex id)
  tenants:list [--limit N] [--after ID]           tenants, a page at a time
  tenants:get --tenant ID                         a tenant with this month's use and what runs now
  tenants:update --tenant ID [--name N] [limits]  rename, or change limits ("default" = the deployment's)
  keys:create --tenant ID [--label L] [--scopes S] [--expires WHEN]
                                                  a new key, printed once (scopes: evaluations:write,read,admin;
                                                  default evaluations:write,read; WHEN: ISO 8601 or 30d / 12h)
  keys:list [--tenant ID] [--limit N] [--after ID]
  keys:get --key KEY_ID
  keys:revoke --key KEY_ID                        refused from its next request on
  usage --tenant ID [--from D] [--to D] [--group-by day|model|preset|key] [--csv]
  shards:carry-over [--limit N]                   after D1_SHARDS was raised from 0: move each tenant's rows
                                                  from DB into its shard, N records a call (default 500),
                                                  calling again until done (safe to repeat or resume)

Limits (tenants:create, tenants:update; "default" clears one):
  --rate N/S             requests per S seconds per key, e.g. 600/60
  --max-running N        evaluations running at once (more wait in the queue)
  --spend-cap USD        monthly LLM spend cap (429 quota_exceeded past it)
  --evaluation-cap N     monthly evaluation cap
  --retention-days N     days an ended evaluation's content is kept (0 = until deleted; default RETENTION_DAYS)
  --store-content B      true / false: false keeps no task text or transcript past the verdict
  --spread K             D1 shards its new evaluations and batches spread over: 1, 2, 4, … 64 (docs/scale.md)

  --target URL           the service (default TRIBUNAL_URL, else http://127.0.0.1:8787)
  -h, --help             this text`,
  options: {
    target: { type: 'string' },
    name: { type: 'string' },
    id: { type: 'string' },
    tenant: { type: 'string' },
    key: { type: 'string' },
    label: { type: 'string' },
    scopes: { type: 'string' },
    expires: { type: 'string' },
    limit: { type: 'string' },
    after: { type: 'string' },
    rate: { type: 'string' },
    'max-running': { type: 'string' },
    'spend-cap': { type: 'string' },
    'evaluation-cap': { type: 'string' },
    'retention-days': { type: 'string' },
    'store-content': { type: 'string' },
    spread: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    'group-by': { type: 'string' },
    csv: { type: 'boolean', default: false },
  },
} as const satisfies CliSpec<CliOptions>;

type Values = CliValues<typeof ADMIN_CLI.options>;

/** One request to the admin API. */
interface AdminRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: unknown;
  accept?: string;
}

function need(v: Values, name: 'name' | 'tenant' | 'key', command: Command): string {
  const value = v[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`${command} needs --${name}`);
  return value;
}

/** `default` → null (back to the deployment default), else the parsed value; undefined when not given. */
function limitOption<T>(value: string | undefined, parse: (v: string) => T): T | null | undefined {
  if (value === undefined) return undefined;
  return value === 'default' ? null : parse(value);
}

function number(value: string, name: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new UsageError(`--${name} must be a number ≥ 0 or "default", got ${JSON.stringify(value)}`);
  return n;
}

/** The limits given on the command line, as the API's `limits` object (only those given). */
function limitsOf(v: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {
    rateLimit: limitOption(v.rate, (r) => {
      const m = /^(\d+)\/(\d+)$/.exec(r);
      if (!m)
        throw new UsageError(
          `--rate must be N/S (requests per S seconds), e.g. 600/60, or "default"; got ${JSON.stringify(r)}`,
        );
      return { requests: Number(m[1]), windowSeconds: Number(m[2]) };
    }),
    maxRunning: limitOption(v['max-running'], (x) => intOption(x, 'max-running', 1)),
    monthlySpendCapUsd: limitOption(v['spend-cap'], (x) => number(x, 'spend-cap')),
    monthlyEvaluationCap: limitOption(v['evaluation-cap'], (x) => intOption(x, 'evaluation-cap', 0)),
    retentionDays: limitOption(v['retention-days'], (x) => intOption(x, 'retention-days', 0, 36_500)),
    storeContent: limitOption(v['store-content'], (x) => {
      if (x !== 'true' && x !== 'false')
        throw new UsageError(`--store-content must be true, false or "default"; got ${JSON.stringify(x)}`);
      return x === 'true';
    }),
    // The service refuses a spread that is not a power of two (400 naming limits.spread).
    spread: limitOption(v.spread, (x) => intOption(x, 'spread', 1, 64)),
  };
  return Object.fromEntries(Object.entries(out).filter(([, x]) => x !== undefined));
}

/** `--expires`: an ISO 8601 time, or a duration from now (`30d`, `12h`, `90m`). */
export function expiresAt(value: string, now = Date.now()): string {
  const m = /^(\d+)([dhm])$/.exec(value);
  if (m)
    return new Date(
      now + Number(m[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'],
    ).toISOString();
  if (Number.isNaN(Date.parse(value)))
    throw new UsageError(
      `--expires must be an ISO 8601 time or a duration like 30d, 12h, 90m; got ${JSON.stringify(value)}`,
    );
  return new Date(value).toISOString();
}

function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The admin API request of a command. */
export function requestOf(command: Command, v: Values): AdminRequest {
  const page = { limit: v.limit, after: v.after };
  switch (command) {
    case 'tenants:create':
      return {
        method: 'POST',
        path: '/v1/admin/tenants',
        body: { name: need(v, 'name', command), ...(v.id ? { id: v.id } : {}), limits: limitsOf(v) },
      };
    case 'tenants:list':
      return { method: 'GET', path: `/v1/admin/tenants${query(page)}` };
    case 'tenants:get':
      return { method: 'GET', path: `/v1/admin/tenants/${encodeURIComponent(need(v, 'tenant', command))}` };
    case 'tenants:update': {
      const limits = limitsOf(v);
      const body = { ...(v.name ? { name: v.name } : {}), ...(Object.keys(limits).length > 0 ? { limits } : {}) };
      if (Object.keys(body).length === 0) throw new UsageError('tenants:update needs --name or a limit to change');
      return { method: 'PATCH', path: `/v1/admin/tenants/${encodeURIComponent(need(v, 'tenant', command))}`, body };
    }
    case 'keys:create':
      return {
        method: 'POST',
        path: '/v1/admin/keys',
        body: {
          tenantId: need(v, 'tenant', command),
          ...(v.label !== undefined ? { label: v.label } : {}),
          ...(v.scopes !== undefined
            ? {
                scopes: v.scopes
                  .split(',')
                  .map((s) => s.trim())
                  .filter((s) => s !== ''),
              }
            : {}),
          ...(v.expires !== undefined ? { expiresAt: expiresAt(v.expires) } : {}),
        },
      };
    case 'keys:list':
      return { method: 'GET', path: `/v1/admin/keys${query({ ...page, tenantId: v.tenant })}` };
    case 'keys:get':
      return { method: 'GET', path: `/v1/admin/keys/${encodeURIComponent(need(v, 'key', command))}` };
    case 'keys:revoke':
      return { method: 'POST', path: `/v1/admin/keys/${encodeURIComponent(need(v, 'key', command))}/revoke` };
    case 'shards:carry-over':
      return { method: 'POST', path: `/v1/admin/shards/carry-over${query({ maxRows: v.limit })}` };
    case 'usage': {
      const groupBy = choiceOption(v['group-by'], 'group-by', ['day', 'model', 'preset', 'key'] as const);
      return {
        method: 'GET',
        path: `/v1/admin/tenants/${encodeURIComponent(need(v, 'tenant', command))}/usage${query({ from: v.from, to: v.to, groupBy, format: v.csv ? 'csv' : undefined })}`,
        ...(v.csv ? { accept: 'text/csv' } : {}),
      };
    }
  }
}

/** What the CLI needs from its surroundings; tests pass their own. */
export interface AdminDeps {
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Default: stdout, stderr and the process's exit code. */
  io?: CliIo;
}

/**
 * Runs one admin command. Exit codes: 0 done; 1 the API refused (its code and message are printed) or
 * could not be reached; 2 a mistake on the command line (or TRIBUNAL_ADMIN_TOKEN unset).
 */
export async function runAdmin(argv: readonly string[], deps: AdminDeps = {}): Promise<void> {
  const env = deps.env ?? process.env;
  const out = deps.io?.out ?? ((t: string) => process.stdout.write(t));
  const err = deps.io?.err ?? ((t: string) => process.stderr.write(t));
  const [first, ...rest] = argv;
  const command = COMMANDS.find((c) => c === first);
  await runCli(
    ADMIN_CLI,
    async (v) => {
      if (!command)
        throw new UsageError(
          first === undefined || first.startsWith('-')
            ? 'name a command'
            : `unknown command ${JSON.stringify(first)}${didYouMean(first, COMMANDS)}`,
        );
      const token = env.TRIBUNAL_ADMIN_TOKEN?.trim();
      if (!token) throw new UsageError("set TRIBUNAL_ADMIN_TOKEN to the deployment's ADMIN_TOKEN");
      const target = (v.target ?? env.TRIBUNAL_URL ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
      const req = requestOf(command, v);
      // The carry-over moves a bounded share a call: it is called until it says it is done.
      for (;;) {
        const answer = await send(target, token, req);
        if ('exit' in answer) return answer.exit;
        if (command !== 'shards:carry-over' || (answer.json as { done?: unknown }).done !== false) return 0;
      }
    },
    // The command word is not an option: parse what follows it (parseCli refuses stray arguments). Without
    // a command, options are still checked first, as in every CLI (`--help`, an unknown option).
    command ? rest : first?.startsWith('-') ? argv : argv.filter((a) => a === '--help' || a === '-h'),
    deps.io,
  );

  /** Sends `req` and prints its answer: the exit code on failure or CSV, else the parsed JSON. */
  async function send(target: string, token: string, req: AdminRequest): Promise<{ exit: number } | { json: unknown }> {
    let res: Response;
    try {
      res = await (deps.fetch ?? fetch)(`${target}${req.path}`, {
        method: req.method,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: req.accept ?? 'application/json',
          ...(req.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      });
    } catch (e) {
      err(`error: cannot reach ${target}: ${describeError(e)}\n`);
      return { exit: 1 };
    }
    const text = await res.text();
    if (!res.ok) {
      let detail = text.slice(0, 500);
      try {
        const e = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
        if (e?.code) detail = `${e.code}: ${e.message ?? ''}`;
      } catch {
        // Not our JSON (a proxy's page): the start of the body says more than nothing.
      }
      err(`error: ${req.method} ${req.path} answered ${res.status}: ${detail}\n`);
      return { exit: 1 };
    }
    if (req.accept === 'text/csv') {
      out(text);
      return { exit: 0 };
    }
    const json: unknown = JSON.parse(text);
    out(`${JSON.stringify(json, null, 2)}\n`);
    if (command === 'keys:create')
      err('Store the key ("key") now: Tribunal keeps only its hash and cannot show it again.\n');
    return { json };
  }
}

if (isMain(import.meta.url)) await runAdmin(process.argv.slice(2));
