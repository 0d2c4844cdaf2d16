/**
 * @module
 * A developer's `.dev.vars` (or `.env`) as npm start's own decisions read it: whether to start the mock LLM or
 * call a provider, who may call `/v1`, the log level. The runtime applies the same files as bindings (through
 * wrangler, ./wrangler-config.ts); npm start reads them too, so a value set there is never overridden by one of
 * npm start's defaults (the mock, `ALLOW_ANONYMOUS=true`, `OBJECT_READ_PACE=1000`, `LOG_LEVEL=info`). Node only; no wrangler import.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/** The settings npm start decides by that a developer's `.dev.vars` may set (README's quick start names them). */
export const DEV_VARS_SETTINGS: readonly string[] = [
  'LLM_API_KEY',
  'LLM_BASE_URL',
  'LLM_MODEL',
  'API_KEYS',
  'ADMIN_TOKEN',
  'ALLOW_ANONYMOUS',
  'WEBHOOK_ALLOW_LOOPBACK',
  'OBJECT_READ_PACE',
  'LOG_LEVEL',
];

/**
 * `$NAME`, `${NAME}`, `${NAME:-default}` / `${NAME-default}` and `${NAME:+alt}` / `${NAME+alt}` in a `.env` value, as
 * wrangler dev expands them (dotenv-expand): from the values read before it, and from the process environment
 * only with `CLOUDFLARE_INCLUDE_PROCESS_ENV=true`; an unknown name is empty, `\$` a literal `$`.
 */
function expand(value: string, known: Readonly<Record<string, string>>): string {
  const replaced = value.replace(
    /(?<!\\)\$\{([^{}]+)\}|(?<!\\)\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (_match, braced?: string, bare?: string) => {
      const expression = braced ?? bare ?? '';
      const op = /(:\+|\+|:-|-)/.exec(expression)?.[0];
      const [name = '', ...rest] = op ? expression.split(op) : [expression];
      const alt = rest.join(op ?? '');
      const found = known[name];
      if (op === ':+' || op === '+') return found ? alt : '';
      return found ? found : alt;
    },
  );
  return replaced.replace(/\\\$/g, '$');
}

/**
 * The variables wrangler dev adds from `dir` (no environment name): `.dev.vars` as written when it exists;
 * otherwise `.env` then `.env.local` (the later wins), expanded as {@link expand} says, unless
 * `CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV` is `false`. Empty values are left out: the Worker reads an empty
 * variable as unset. `{}` when there is no file.
 */
export function readDevVars(dir: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(Object.entries(devVarsOf(dir, env)).filter(([, value]) => value.trim() !== ''));
}

/**
 * The variables wrangler dev binds from `dir`, read as {@link readDevVars} says, empty values included (an empty
 * one still replaces a wrangler.toml value), in the files' order.
 */
export function devVarsOf(dir: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const devVars = join(dir, '.dev.vars');
  const dotEnv = !existsSync(devVars);
  const files = !dotEnv
    ? [devVars]
    : env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV?.toLowerCase() === 'false'
      ? []
      : [join(dir, '.env'), join(dir, '.env.local')].filter((f) => existsSync(f));
  const read = new Map<string, string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const parsed = parseEnv(text);
    // In the file's order (parseEnv's object is not): an expansion sees only the values above it, as dotenv's.
    const keys = [...text.matchAll(/^\s*(?:export\s+)?([\w.-]+)\s*[=:]/gm)].map((m) => m[1] ?? '');
    for (const key of new Set([...keys.filter((k) => k in parsed), ...Object.keys(parsed)]))
      read.set(key, parsed[key] ?? '');
  }
  if (dotEnv) {
    const fromProcess = env.CLOUDFLARE_INCLUDE_PROCESS_ENV?.toLowerCase() === 'true' ? env : {};
    const known: Record<string, string> = {};
    for (const [key, value] of read) {
      const own = fromProcess[key];
      const expanded = own !== undefined && own !== value ? own : expand(value, { ...known, ...clean(fromProcess) });
      known[key] = expanded;
      read.set(key, expanded);
    }
  }
  return Object.fromEntries(read);
}

function clean(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/**
 * What npm start reads its settings from: the process environment over the {@link DEV_VARS_SETTINGS} the
 * developer's `.dev.vars` sets (the environment wins, as it does for wrangler.toml vars; nothing else there, so a
 * `.env` shared with other tools, say `PORT=3000`, moves no port). An empty variable in the environment is unset.
 */
export function settingsOf(env: NodeJS.ProcessEnv, devVars: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const set = Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== '');
  const fromDevVars = Object.entries(devVars).filter(([key]) => DEV_VARS_SETTINGS.includes(key));
  return { ...Object.fromEntries(fromDevVars), ...Object.fromEntries(set) };
}

/** Where a setting came from: `env` (the process environment), `.dev.vars`, or null when neither sets it. */
export function sourceOf(
  name: string,
  env: NodeJS.ProcessEnv,
  devVars: Readonly<Record<string, string>>,
): 'env' | '.dev.vars' | null {
  if ((env[name]?.trim() ?? '') !== '') return 'env';
  return name in devVars && DEV_VARS_SETTINGS.includes(name) ? '.dev.vars' : null;
}
