/**
 * @module
 * The bindings `npm start --runtime wrangler` hands `wrangler dev`, decided as the default (Miniflare) runtime
 * decides them (./worker-options.ts): a developer's `.dev.vars`, or else `.env` and `.env.local` (./dev-vars.ts,
 * wrangler dev's own rules), then the wrangler.toml `[vars]` the environment sets, then npm start's own. An
 * explicit `--env-file` makes wrangler dev skip `.dev.vars` and `.env` alike, so npm start reads them itself and
 * writes what they set into the one env file it passes, with its secrets (never on a command line); the banner
 * names only what they set to a non-empty value (the Worker reads an empty variable as unset). Node only.
 */
import { devVarsOf } from './dev-vars.js';

/** What {@link wranglerVarsOf} decides from. */
export interface WranglerVarsInput {
  /** The folder of wrangler.toml, `.dev.vars` and `.env`. */
  dir: string;
  /** wrangler.toml's `[vars]`. */
  declared: Readonly<Record<string, unknown>>;
  /** npm start's own bindings; they win over everything else. */
  bindings: Readonly<Record<string, string>>;
  /** Which of `bindings` are secrets: they go into the env file, not on the command line. */
  secrets: ReadonlySet<string>;
  /** Whether `.dev.vars` / `.env` apply at all. */
  devVars: boolean;
  /** Whether a `[vars]` name set in `env` overrides wrangler.toml. */
  varsFromEnv: boolean;
  /** The process environment (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** What `wrangler dev` is given: `--var` arguments, the env file's text, and where the banner says values came from. */
export interface WranglerVars {
  /** `--var KEY:value` pairs, flattened (plain vars only). */
  args: string[];
  /** The text of the one env file passed with `--env-file`: the dev vars and the secrets. */
  envFile: string;
  /** The wrangler.toml `[vars]` names the process environment sets (passed as `--var`; empty unless `varsFromEnv`). */
  fromEnv: string[];
  /** The keys `.dev.vars` / `.env` set to a non-empty value. */
  fromDevVars: string[];
}

/**
 * `KEY='value'` as wrangler's env-file reader (dotenv, then dotenv-expand) reads back exactly `value`: every `$`
 * escaped (dotenv-expand turns `\$` into `$`), quoted with a quote the value lacks. A line break needs double
 * quotes, which turn a `\n` or `\r` written in the value into a line break. A backslash just before the closing
 * quote reads as an escaped quote (the value would run on into the next lines), so a value ending in `\` is
 * written unquoted, as is a one-line value that has every quote: unquoted, a value has no `#` (a comment), no
 * space at either end (trimmed) and no quote first. A value with no form that reads back exactly is refused.
 * @throws Error naming `key` when no line reads back as `value`.
 */
export function envFileLine(key: string, value: string): string {
  const escaped = value.replace(/\$/g, '\\$');
  const oneLine = !/[\r\n]/.test(value);
  if (!value.endsWith('\\')) {
    if (oneLine)
      for (const quote of ["'", '`']) if (!value.includes(quote)) return `${key}=${quote}${escaped}${quote}\n`;
    if (!value.includes('"') && !/\\[nr]/.test(value))
      return `${key}="${escaped.replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"\n`;
  }
  if (oneLine && value !== '' && value === value.trim() && !value.includes('#') && !/^['"`]/.test(value))
    return `${key}=${escaped}\n`;
  const why = oneLine
    ? 'no quote it lacks can close it (it ends in `\\`, or has \', ` and " or a written `\\n`), and unquoted it ' +
      'would lose its `#`, a space at an end or a quote first'
    : 'it has a line break and a double quote, a written `\\n` / `\\r` or a `\\` at its end';
  throw new Error(`${key} cannot be handed to wrangler dev: no env-file line reads back as its value (${why})`);
}

/** The bindings wrangler dev gets for `input` (see the module note). */
export function wranglerVarsOf(input: WranglerVarsInput): WranglerVars {
  const env = input.env ?? process.env;
  const devVars = input.devVars ? devVarsOf(input.dir, env) : {};
  const fromEnv = input.varsFromEnv
    ? Object.keys(input.declared).filter((k) => env[k] !== undefined && !(k in input.bindings))
    : [];
  const own = Object.entries(input.bindings);
  const plain: Record<string, string> = {
    ...Object.fromEntries(fromEnv.map((k) => [k, env[k] ?? ''])),
    ...Object.fromEntries(own.filter(([k]) => !input.secrets.has(k))),
  };
  // `--var` wins over the env file's values in wrangler dev; a dev var that a plain var overrides is still left out
  // of the file, so the file holds only what applies.
  const inFile: Record<string, string> = {
    ...Object.fromEntries(Object.entries(devVars).filter(([k]) => !(k in plain))),
    ...Object.fromEntries(own.filter(([k]) => input.secrets.has(k))),
  };
  return {
    args: Object.entries(plain).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
    envFile: Object.entries(inFile)
      .map(([k, v]) => envFileLine(k, v))
      .join(''),
    fromEnv,
    fromDevVars: Object.keys(devVars).filter((k) => (devVars[k] ?? '').trim() !== ''),
  };
}
