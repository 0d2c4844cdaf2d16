/**
 * @module
 * A developer's `.dev.vars` (or `.env`) as npm start's own decisions read it: whether to start the mock LLM or
 * call a provider, who may call `/v1`, the log level. The runtime applies the same files as bindings (through
 * wrangler, ./wrangler-config.ts); npm start reads them too, so a value set there is never overridden by one of
 * npm start's defaults (the mock, `ALLOW_ANONYMOUS=true`, `LOG_LEVEL=info`). Node only; no wrangler import.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * The variables wrangler dev adds from `dir` (no environment name): `.dev.vars` when it exists; otherwise `.env`
 * then `.env.local` (the later wins), unless `CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV` is `false`. Empty values are
 * left out: the Worker reads an empty variable as unset. `{}` when there is no file.
 */
export function readDevVars(dir: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const devVars = join(dir, '.dev.vars');
  const files = existsSync(devVars)
    ? [devVars]
    : env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV === 'false'
      ? []
      : [join(dir, '.env'), join(dir, '.env.local')].filter((f) => existsSync(f));
  const read = new Map<string, string>();
  for (const file of files)
    for (const [key, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) read.set(key, value ?? '');
  return Object.fromEntries([...read].filter(([, value]) => value.trim() !== ''));
}

/**
 * What npm start reads its settings from: the process environment over the developer's `.dev.vars` (the
 * environment wins, as it does for wrangler.toml vars). An empty variable in the environment counts as unset.
 */
export function settingsOf(env: NodeJS.ProcessEnv, devVars: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const set = Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== '');
  return { ...devVars, ...Object.fromEntries(set) };
}

/** Where a setting came from: `env` (the process environment), `.dev.vars`, or null when neither sets it. */
export function sourceOf(
  name: string,
  env: NodeJS.ProcessEnv,
  devVars: Readonly<Record<string, string>>,
): 'env' | '.dev.vars' | null {
  if ((env[name]?.trim() ?? '') !== '') return 'env';
  return name in devVars ? '.dev.vars' : null;
}
