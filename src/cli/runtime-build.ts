/**
 * @module
 * The local runtime's child process (./miniflare-runtime.ts) as one plain ES module, so Node runs it
 * without tsx: tsx's loader costs about 0.3 CPU-s on every start (a start is ~1.3 CPU-s), and the e2e
 * tests start about 18 stacks. Packages stay imports, found through a `node_modules` link beside the
 * module to this checkout's. Node only.
 */
import { realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The child's source. */
const SOURCE = fileURLToPath(new URL('./miniflare-runtime.ts', import.meta.url));
/** This checkout's packages. */
const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));

/**
 * Bundles the runtime child into `outDir` (esbuild, a few tens of ms) and links `outDir/node_modules`
 * to this checkout's; resolves to the module's real path (the child's `isMain` check compares it with
 * `process.argv[1]`).
 */
export async function buildRuntime(outDir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(outDir, 'miniflare-runtime.mjs');
  await build({
    entryPoints: [SOURCE],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  symlinkSync(NODE_MODULES, join(outDir, 'node_modules'), 'dir');
  return realpathSync(outfile);
}
