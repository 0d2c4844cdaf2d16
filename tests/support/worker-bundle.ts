/**
 * Global setup of the e2e project: bundles the Worker once (`wrangler deploy --dry-run`, as every local
 * stack would) and reads wrangler.toml once (through wrangler, as every stack would), for every stack the
 * e2e files start (`startLocalStack({ worker: preparedWorker() })`, ./worker-ready.ts) instead of each making
 * its own. The processes the files start, `npm start` and the runner's own stack run as a developer runs them
 * (tests/cli/e2e/start.test.ts, meta-eval.test.ts), serve it too: each e2e test process's environment names it
 * (`TRIBUNAL_PREPARED_WORKER`, src/cli/prepared-worker.ts), and its children inherit that. A bundle costs
 * about 7 CPU-s (wrangler, esbuild and the assets' build), a start without one a runtime's boot only. It also
 * migrates one empty state, which the files copy for their stacks' fresh state folders (./seed-state.ts): a
 * fresh start then applies no migration.
 *
 * Vitest runs every project's global setup before the run's first file, so this one made `npm test`'s node
 * files wait for it (about 20 s at load 10). It now returns at once and makes both in the background, beside
 * the node and worker projects' files; the e2e files wait for them (./worker-ready.ts, on the loopback
 * endpoint provided as `inject('workerReady')`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ARENA_HOOK_SOURCE } from './miniflare-arena.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-e2e-bundle-'));
  // Every Node process of the run (test files, the stacks' runtime children, npm start) loads Miniflare with
  // its config serialization made linear (./miniflare-arena.ts): inherited through NODE_OPTIONS.
  const hook = join(dir, 'miniflare-arena.cjs');
  writeFileSync(hook, ARENA_HOOK_SOURCE);
  const nodeOptions = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = [nodeOptions, '--require', hook].filter(Boolean).join(' ');
  // The seed state's folder, named before its module (with Miniflare's) is imported in the background below.
  const seed = join(dir, 'seed-state');
  // Imported here, not at the top: loading them took seconds, every one before the run's first file.
  const preparing = (async () => {
    const { prepareWorker, REPO_ROOT } = await import('../../src/cli/local-stack.js');
    const built = prepareWorker(dir);
    // The seed needs wrangler.toml's reading only, not the bundle: it is made while wrangler bundles.
    const [{ readWorkerSetup }, { migrateState, seedStateIn }] = await Promise.all([
      import('../../src/cli/wrangler-config.js'),
      import('./seed-state.js'),
    ]);
    if (seedStateIn(dir) !== seed) throw new Error(`the seed state is at ${seedStateIn(dir)}, not ${seed}`);
    const [worker] = await Promise.all([built, migrateState(readWorkerSetup(join(REPO_ROOT, 'wrangler.toml')), seed)]);
    return worker;
  })();
  // A failure is answered to every e2e file that asks (each fails naming it), not thrown here.
  preparing.catch(() => undefined);
  const server = createServer((_req, res) => {
    preparing.then(
      (worker) => res.end(JSON.stringify({ dir, worker })),
      (e: unknown) => res.writeHead(500).end(e instanceof Error ? e.message : String(e)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('workerReady', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  project.provide('seedState', seed);
  return async () => {
    server.close();
    // A run ended before the bundle was made (no e2e file ran, or it was cancelled) removes it once made.
    await preparing.catch(() => undefined);
    if (nodeOptions === undefined) Reflect.deleteProperty(process.env, 'NODE_OPTIONS');
    else process.env.NODE_OPTIONS = nodeOptions;
    rmSync(dir, { recursive: true, force: true });
  };
}
