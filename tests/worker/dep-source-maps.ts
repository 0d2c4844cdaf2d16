/**
 * A Vite plugin for the worker project: the modules of node_modules (zod, hono and the rest the Worker imports) go
 * to the runtimes without a source map. Vitest inlines each module's map into its code as base64 (the original
 * source included) and sends it over the pool's socket to each runtime: per runtime ~17 MB, of it ~6 MB the maps
 * of ~135 dependency modules whose code is 1.4 MB (Vite maps every token boundary of them). Building those maps
 * (magic-string, one per module, combined with a package's own), encoding and carrying them cost CPU in this
 * process and in workerd at each runtime's start, for stack frames inside dependencies only: a frame in zod or
 * hono now names the line of the code the runtime ran (the published file's line, but where Vite rewrote an
 * import). The project's own modules (src/, tests/) keep their maps: every frame of ours names its TypeScript line.
 *
 * How: a map of `{ mappings: '' }` is Rollup's "no map"; Vite's SSR transform keeps it instead of generating one,
 * and vitest inlines nothing for it. The file is loaded here with that map: a module no plugin changes keeps its
 * load's map, and a chain of transforms that starts from "none" ends as "none" (Vite combines no map on top).
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';

/** No map: Rollup's marker, which Vite's SSR transform and vitest's inlining both pass through as it is. */
const NO_MAP = { mappings: '' } as const;

/** A plain file of node_modules (an absolute path with no query and no virtual prefix). */
const isDependencyFile = (id: string): boolean => id.includes('/node_modules/') && !/[?\0]/.test(id);

/** The plugin (`enforce: 'post'`: a plugin that loads a module itself keeps doing so; Vite's own reading is replaced). */
export function noDependencySourceMaps(): Plugin {
  return {
    name: 'tribunal:no-dependency-source-maps',
    enforce: 'post',
    async load(id) {
      return isDependencyFile(id) ? { code: await readFile(id, 'utf8'), map: NO_MAP } : null;
    },
  };
}
