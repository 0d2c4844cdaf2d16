/**
 * @module
 * Bundling bench/metered-entry.ts (the production Worker with its bindings counted) as `wrangler deploy
 * --dry-run` bundles the Worker, for the benches that read `GET /_bench/meter` (bench:platform, bench:capacity).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { buildRuntime } from '../src/cli/runtime-build.js';
import type { PreparedWorker } from '../src/cli/worker-bundle.js';
import { readWorkerSetup } from '../src/cli/wrangler-config.js';
import type { Meter } from './meter.js';

const ROOT = new URL('..', import.meta.url).pathname;

/** Bundles the metered entry into `outDir`; resolves to the bundle's entry module. */
async function buildMetered(outDir: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn('npx', ['wrangler', 'deploy', 'bench/metered-entry.ts', '--dry-run', '--outdir', outDir], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`bundling bench/metered-entry.ts: wrangler exited ${String(code)}`));
    });
  });
  const entry = readdirSync(outDir).find((f) => f.endsWith('.js'));
  if (entry === undefined) throw new Error(`no bundle in ${outDir}`);
  return join(outDir, entry);
}

/** The metered Worker, bundled once under `dir`, for `startLocalStack({ worker })` (one or several stacks). */
export async function preparedMeteredWorker(dir: string): Promise<PreparedWorker> {
  return {
    entry: await buildMetered(join(dir, 'dist')),
    setup: readWorkerSetup(join(ROOT, 'wrangler.toml')),
    runtime: await buildRuntime(dir),
  };
}

/**
 * One HTTP request on a connection of its own (no keep-alive): a bench that pauses between requests (to read
 * the state's files) would otherwise reuse a socket the local runtime closed meanwhile ("other side closed").
 */
export function httpJson(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: text });
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The counters of the metered Worker at `url` so far. */
export async function readMeter(url: string): Promise<Meter> {
  return (await httpJson(`${url}/_bench/meter`)).body as Meter;
}
