/**
 * @module
 * wrangler.toml read through wrangler's own API (`unstable_readConfig`,
 * `unstable_getMiniflareWorkerOptions`, `unstable_getVarsForDev`, `unstable_splitSqlQuery`), so nothing is
 * configured twice: into {@link WorkerSetup}, the plain data the local runtime starts from, and into the
 * bindings that undo a developer's `.dev.vars` for the vitest pool. Importing wrangler costs about 1.3
 * CPU-s, so this is read once per process that starts stacks (or once for all the e2e tests), never in
 * the runtime child. Node only.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type * as WranglerModule from 'wrangler';
import type { D1Migrations, WorkerSetup } from './worker-options.js';

/** The signals whose handlers wrangler's library adds to the process that loads it. */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs `fn` (a call into wrangler's library), then removes the SIGINT / SIGTERM / SIGHUP listeners it added.
 * Why: wrangler (and Miniflare under it) add handlers that `process.exit()` at once, with code 0, in the
 * process that loads them; npm start and the other CLIs decide themselves how a signal ends them (npm start
 * stops what it started, then ends on the signal), and a Ctrl+C must not read as a success.
 */
function withoutSignalHandlers<T>(fn: () => T): T {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  try {
    return fn();
  } finally {
    for (const s of SIGNALS)
      for (const listener of process.listeners(s))
        if (!before.get(s)?.has(listener)) process.removeListener(s, listener);
  }
}

// Required, not imported: wrangler is CommonJS, and Node's ESM loader would first scan its 12 MB file for the
// names it exports, about 1 CPU-s more than the require itself in every process that reads wrangler.toml.
const wranglerApi = withoutSignalHandlers(() => createRequire(import.meta.url)('wrangler') as typeof WranglerModule);

/** The part of wrangler's config read here (its own type names a package wrangler bundles, so it does not resolve). */
export interface WranglerConfigView {
  name?: string;
  compatibility_date?: string;
  vars: Record<string, unknown>;
  triggers: { crons?: string[] };
  queues: { consumers?: { queue: string }[] };
  d1_databases: { binding: string; migrations_dir?: string; migrations_table?: string }[];
}

/** wrangler's config reader, typed as used here. */
export const readWranglerConfig = (args: { config: string }): WranglerConfigView =>
  withoutSignalHandlers(() =>
    (wranglerApi.unstable_readConfig as unknown as (a: typeof args) => WranglerConfigView)(args),
  );

/** wrangler's translation of wrangler.toml into Miniflare worker options (script excluded). */
const workerOptionsOf = (configPath: string): { workerOptions: WorkerSetup['workerOptions'] } =>
  withoutSignalHandlers(() =>
    (
      wranglerApi.unstable_getMiniflareWorkerOptions as unknown as (path: string) => {
        workerOptions: WorkerSetup['workerOptions'];
      }
    )(configPath),
  );

/** The keys wrangler would add from `.dev.vars` / `.env` next to `configPath` (values unused). */
const devVarsOf = (configPath: string): Record<string, unknown> =>
  withoutSignalHandlers(() =>
    (
      wranglerApi.unstable_getVarsForDev as unknown as (
        configPath: string,
        envFiles: undefined,
        vars: Record<string, never>,
        env: undefined,
        silent: boolean,
      ) => Record<string, unknown>
    )(configPath, undefined, {}, undefined, true),
  );

/** The `.sql` files of a migrations folder, in wrangler's order (by number, then name); none without the folder. */
function migrationFiles(dir: string): string[] {
  const numberOf = (name: string) => parseInt(name.split('_')[0] ?? '', 10);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .sort((a, b) => numberOf(a) - numberOf(b));
}

/**
 * One migration file's statements as `wrangler d1 migrations apply` runs them: wrangler appends the row that
 * records it to the file's text and then splits the whole, so a file whose last statement lacks its `;` fails
 * the same way under both.
 */
export function migrationStatements(table: string, name: string, sql: string): string[] {
  return wranglerApi.unstable_splitSqlQuery(`${sql}
								INSERT INTO ${table} (name)
								values ('${name}');
						`);
}

/** Each D1 database of `config` (read from `configPath`) with its migrations, split as wrangler splits them. */
function d1MigrationsOf(configPath: string, config: WranglerConfigView): D1Migrations[] {
  return config.d1_databases.map((d) => {
    const dir = resolve(dirname(configPath), d.migrations_dir ?? 'migrations');
    const table = d.migrations_table ?? 'd1_migrations';
    return {
      binding: d.binding,
      table,
      migrations: migrationFiles(dir).map((name) => ({
        name,
        statements: migrationStatements(table, name, readFileSync(join(dir, name), 'utf8')),
      })),
    };
  });
}

/** wrangler.toml at `configPath` (and the `.dev.vars` / `.env` beside it) as the local runtime starts from it. */
export function readWorkerSetup(configPath: string): WorkerSetup {
  const config = readWranglerConfig({ config: configPath });
  return {
    name: config.name ?? 'worker',
    workerOptions: workerOptionsOf(configPath).workerOptions,
    vars: config.vars,
    crons: config.triggers.crons ?? [],
    // Silently: wrangler would otherwise print which file it read.
    devVarKeys: Object.keys(devVarsOf(configPath)),
    d1: d1MigrationsOf(configPath, config),
  };
}

/**
 * Bindings that undo a developer's `.dev.vars` / `.env` next to `configPath`: each key found there set
 * back to its wrangler.toml value, or to '' when wrangler.toml does not declare it (a secret). For the
 * vitest pool, which reads `.dev.vars` through wrangler and merges its own bindings over them.
 */
export function bindingsOverDevVars(configPath: string): Record<string, unknown> {
  const declared = readWranglerConfig({ config: configPath }).vars;
  return Object.fromEntries(
    Object.keys(devVarsOf(configPath)).map((key) => [key, key in declared ? declared[key] : '']),
  );
}
