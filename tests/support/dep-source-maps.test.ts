/**
 * The worker project's runtimes get node_modules' modules without a source map and ours with one
 * (tests/worker/dep-source-maps.ts): through Vite's own SSR transform, the one the pool serves modules with, so a
 * Vite that generated a map anyway (or dropped ours) shows here.
 */
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noDependencySourceMaps } from '../worker/dep-source-maps.js';

const ROOT = new URL('../../', import.meta.url).pathname;
let server: ViteDevServer;

beforeAll(async () => {
  server = await createServer({
    root: ROOT,
    configFile: false,
    logLevel: 'silent',
    appType: 'custom',
    server: { middlewareMode: true, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    plugins: [noDependencySourceMaps()],
  });
});
afterAll(() => server.close());

/** The map the SSR transform leaves for `url` (as the module runner fetches it). */
async function ssrMapOf(url: string): Promise<unknown> {
  const result = await server.environments.ssr.transformRequest(url);
  expect(result?.code.length).toBeGreaterThan(0);
  return result?.map;
}

describe('source maps of the modules the worker runtimes fetch', () => {
  it('none for a dependency the SSR transform rewrites, and none for one it leaves as loaded', async () => {
    // hono's module has imports (rewritten); zod's version file has none.
    expect(await ssrMapOf('/node_modules/hono/dist/hono.js')).toEqual({ mappings: '' });
    expect(await ssrMapOf('/node_modules/zod/v4/core/versions.js')).toEqual({ mappings: '' });
  });

  it('a full map, with its TypeScript source, for a module of ours', async () => {
    const map = (await ssrMapOf('/tests/worker/dep-source-maps.ts')) as { version?: number; mappings?: string };
    expect(map.version).toBe(3);
    expect(map.mappings?.length).toBeGreaterThan(0);
  });
});
