/**
 * A Vite plugin for the worker project: remembers what each `(specifier, importer)` pair resolved to, per Vite
 * environment and kind of import, for the run. The test runtimes ask this process to resolve the top-level
 * imports of every file (the test file and the three setup files, again for each file: vitest's `resolve`
 * RPC), and every ask ran Vite's whole resolver (rolldown's, with its file-system probes): ~7 CPU-s of this
 * process in a worker run, most of it for pairs already resolved (8 files: 3,086 of 5,434 asks). Resolution
 * does not change during a `vitest run` (nothing is watched), so the first answer serves every later ask; a
 * pair that did not resolve is asked again, and an ask with other plugins' custom options is never remembered.
 */
import type { Plugin, Rollup } from 'vite';

/** The plugin (`enforce: 'pre'`: it answers before any other resolver runs, and asks them on a miss). */
export function resolveCache(): Plugin {
  const resolved = new Map<string, Rollup.ResolvedId>();
  return {
    name: 'tribunal:resolve-cache',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const custom = options.custom !== undefined && Object.keys(options.custom).length > 0;
      const key = custom
        ? undefined
        : [this.environment.name, options.ssr === true, options.isEntry, options.kind, importer ?? '', source].join(
            '\0',
          );
      const known = key === undefined ? undefined : resolved.get(key);
      if (known !== undefined) return known;
      const result = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (key !== undefined && result !== null) resolved.set(key, result);
      return result;
    },
  };
}
