/**
 * @module
 * The projects' config files the root config (vitest.config.ts) lists: every one, or only those that a
 * `--project` filter on vitest's command line can select. Vitest loads every listed config before it applies
 * the filter, and the worker configs load @cloudflare/vitest-pool-workers and with it wrangler and Miniflare
 * (about 3.5 CPU-s at load 25): `npm test`'s second process (`--project e2e`, tests/support/run-suite.ts) paid
 * that for projects it never runs.
 */

/** Each project's name and its config file (relative to the repository root). */
export const PROJECT_CONFIGS: Readonly<Record<string, string>> = {
  node: 'tests/vitest.node.config.ts',
  worker: 'tests/vitest.worker.config.ts',
  e2e: 'tests/vitest.e2e.config.ts',
};

/** The `--project` patterns of a command line (`--project x` and `--project=x`), in order. */
export function projectFilters(argv: readonly string[]): string[] {
  const filters: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === '--project' && argv[i + 1] !== undefined) filters.push(argv[i + 1]!);
    else if (arg.startsWith('--project=')) filters.push(arg.slice('--project='.length));
  });
  return filters;
}

/** Vitest's matching of a project filter: `*` is a wildcard, a leading `!` negates, case ignored. */
function matches(pattern: string, name: string): boolean {
  const negated = pattern.startsWith('!');
  const body = (negated ? pattern.slice(1) : pattern)
    .split('*')
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${negated ? `(?!${body}$)` : `${body}$`}`, 'i').test(name);
}

/**
 * The config files to list for the command line `argv`: those whose project a `--project` filter selects,
 * or all of them when there is no filter or it selects none of ours (vitest then reports the filter itself).
 */
export function projectConfigs(argv: readonly string[] = process.argv): string[] {
  const filters = projectFilters(argv);
  const all = Object.values(PROJECT_CONFIGS);
  if (filters.length === 0) return all;
  const chosen = Object.entries(PROJECT_CONFIGS)
    .filter(([name]) => filters.some((f) => matches(f, name)))
    .map(([, file]) => file);
  return chosen.length > 0 ? chosen : all;
}
