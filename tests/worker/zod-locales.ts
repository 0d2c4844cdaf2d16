/**
 * A Vite plugin for the worker project: zod's locales module (`z.locales`, 63 languages' error messages) reaches
 * the runtimes as English alone. zod imports that index for the namespace only; its English default comes from
 * `locales/en.js`, which zod's schemas import themselves, so every message stays as deployed. Nothing of ours
 * names `z.locales`; the other 62 modules (333 KB) were ~10% of the modules each runtime loads at its start, one pool
 * round trip each (BENCHMARKS.md, session 21, wkr21).
 */
import type { Plugin } from 'vite';

/** zod's index of its locales, as Vite resolves it (`zod/v4/locales/index.js` under node_modules). */
const isZodLocalesIndex = (id: string): boolean => /\/node_modules\/zod\/v4\/locales\/index\.js$/.test(id);

/** The plugin (`enforce: 'pre'`: it loads the index before any other plugin reads the file). */
export function zodLocalesEnglishOnly(): Plugin {
  return {
    name: 'tribunal:zod-locales-english-only',
    enforce: 'pre',
    load(id) {
      return isZodLocalesIndex(id)
        ? { code: "export { default as en } from './en.js';\n", map: { mappings: '' } }
        : null;
    },
  };
}
