/**
 * @module
 * Bundling bench/metered-entry.ts (the production Worker with its bindings counted) as `wrangler deploy
 * --dry-run` bundles the Worker, for the benches that read `GET /_bench/meter` (bench:platform, bench:capacity).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildRuntime } from '../src/cli/runtime-build.js';
import type { PreparedWorker } from '../src/cli/local-stack.js';
import { readWorkerSetup } from '../src/cli/wrangler-config.js';
import type { Meter } from './meter.js';

const ROOT = new URL('..', import.meta.url).pathname;

/** Bundles the metered entry into `outDir`; resolves to the bundle's entry module. */
export async function buildMetered(outDir: string): Promise<string> {
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

/** The counters of the metered Worker at `url` so far (tried twice: an idle kept-alive socket may have been closed). */
export async function readMeter(url: string): Promise<Meter> {
  try {
    return (await (await fetch(`${url}/_bench/meter`)).json()) as Meter;
  } catch {
    return (await (await fetch(`${url}/_bench/meter`)).json()) as Meter;
  }
}
