/**
 * A developer's `.dev.vars` does not reach the worker tests' bindings. The vitest pool reads it through
 * wrangler (no option turns that off) and merges the worker config's `miniflare.bindings` over what wrangler
 * gave; the config puts {@link bindingsOverDevVars} there, which sets each key found back. Proven here with
 * the pool's own option parser (the one a test run starts its runtime from), stopped before it starts
 * Miniflare: in a copy of wrangler.toml beside a hostile `.dev.vars`, and on the worker config itself.
 * This replaced a nested `vitest run` of a worker test in a copy of the project (~16 CPU-s, its own workerd):
 * the pool's parsing is where that run's bindings came from; the worker test only read them.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cloudflarePool } from '@cloudflare/vitest-pool-workers';
import type { Plugin } from 'vite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bindingsOverDevVars } from '../../src/cli/wrangler-config.js';
import { TEST_MS } from '../support/patience.js';

// The worker config, imported below, starts a mock LLM, a webhook receiver and patches Miniflare's file
// reads at import: none is needed to read its options, and this process is shared with other node files.
// Stand-ins for only what the config calls; their real modules are not loaded.
vi.mock(import('../worker/mock-llm-server.js'), () => ({
  startTestMockServer: vi.fn(() => Promise.resolve({ url: 'http://127.0.0.1:9/mock' }) as never),
}));
vi.mock(import('../support/webhook-receiver.js'), () => ({
  startWebhookReceiver: vi.fn(() => Promise.resolve({ url: 'http://127.0.0.1:9/receiver' }) as never),
}));
vi.mock(import('../../src/cli/miniflare-queue-broker.js'), () => ({
  installQueueBrokerFix: vi.fn(() => 'skipped' as const),
}));
// Called through (the first test uses it as is); the second test watches what the config asks it.
vi.mock(import('../../src/cli/wrangler-config.js'), async (original) => {
  const actual = await original();
  return { ...actual, bindingsOverDevVars: vi.fn(actual.bindingsOverDevVars) };
});

afterEach(() => {
  vi.unstubAllEnvs();
});

const DIGEST = 'ab'.repeat(32);

/** What vitest gets from the pool's plugin: it makes the pool's worker, which parses the options. */
type PoolRunner = ReturnType<typeof cloudflarePool>;
/** What the pool made of its options: the bindings its Miniflare would start with. */
interface Parsed {
  wrangler?: { configPath?: string };
  miniflare: { bindings?: Record<string, unknown> };
}

const STOPPED = new Error('the pool parsed its options; Miniflare is not started here');

/**
 * The pool's options as its worker parses them at the start of a run (wrangler.toml and `.dev.vars` read
 * through wrangler, then merged under `miniflare.bindings`). The pool exports no parser: its worker is
 * started with a project whose vite config throws when read, the first thing after parsing and before
 * Miniflare (if a pool upgrade moved that, this fails rather than passing on nothing).
 */
async function parsedByPool(runner: PoolRunner, root: string): Promise<Parsed> {
  const require = createRequire(import.meta.url);
  const project = {
    vitest: { distPath: join(dirname(require.resolve('vitest/package.json')), 'dist') },
    config: { root },
    getProvidedContext: () => ({}),
    vite: {
      config: {
        get plugins(): never {
          throw STOPPED;
        },
      },
    },
  };
  // Fakes of vitest's types, as far as the pool reads them before starting Miniflare.
  const worker = runner.createPoolWorker({ project } as never) as unknown as {
    start(): Promise<void>;
    parsedPoolOptions?: Parsed;
  };
  // wrangler says which .dev.vars it read; not wanted in the test's output.
  vi.stubEnv('WRANGLER_LOG', 'error');
  await expect(worker.start()).rejects.toBe(STOPPED);
  expect(worker.parsedPoolOptions).toBeDefined();
  return worker.parsedPoolOptions as Parsed;
}

/** A copy of wrangler.toml beside a `.dev.vars` that turns auth on and points the LLM nowhere. */
function projectWithDevVars(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-devvars-pool-'));
  copyFileSync('wrangler.toml', join(dir, 'wrangler.toml'));
  // wrangler checks that the [assets] directory exists.
  mkdirSync(join(dir, 'dist', 'web'), { recursive: true });
  writeFileSync(join(dir, '.dev.vars'), `API_KEYS=${DIGEST}\nLLM_BASE_URL=http://127.0.0.1:9/v1\nLLM_MAX_ATTEMPTS=1\n`);
  return join(dir, 'wrangler.toml');
}

// Loading wrangler, the pool and the worker config (transformed on first use) took over 20 s at load 25.
describe("a developer's .dev.vars and the worker test pool", { timeout: TEST_MS }, () => {
  it("reaches the pool's bindings through wrangler, and bindingsOverDevVars under the config's bindings sets each key back", async () => {
    const configPath = projectWithDevVars();
    const root = dirname(configPath);
    // Without the undo, the pool hands the runtime .dev.vars' values (API_KEYS there made 55 worker tests 401).
    const bare = await parsedByPool(cloudflarePool({ wrangler: { configPath }, miniflare: {} }), root);
    expect(bare.miniflare.bindings).toMatchObject({
      API_KEYS: DIGEST,
      LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      LLM_MAX_ATTEMPTS: '1',
    });
    const undone = await parsedByPool(
      cloudflarePool({ wrangler: { configPath }, miniflare: { bindings: { ...bindingsOverDevVars(configPath) } } }),
      root,
    );
    // wrangler.toml's values, and '' for the secret it does not declare (auth stays off).
    expect(undone.miniflare.bindings).toMatchObject({ API_KEYS: '', LLM_BASE_URL: '', LLM_MAX_ATTEMPTS: '5' });
  });

  it('is undone by the worker config, for the wrangler.toml the pool reads', async () => {
    const probe = { TRIBUNAL_DEV_VARS_PROBE: 'set back' };
    vi.mocked(bindingsOverDevVars).mockClear();
    vi.mocked(bindingsOverDevVars).mockReturnValueOnce(probe);
    // The worker project's config as vitest loads it (its default export calls bindingsOverDevVars once).
    const config = (await import('../vitest.worker.config.js')).default;
    const plugin = [config.plugins ?? []]
      .flat(3)
      .find(
        (p): p is Plugin =>
          typeof p === 'object' && p !== null && 'name' in p && p.name === '@cloudflare/vitest-pool-workers',
      );
    // The plugin hands vitest the pool, holding the config's options.
    const context = { project: { config: {} as { poolRunner?: PoolRunner } } };
    (plugin?.configureVitest as ((c: typeof context) => void) | undefined)?.(context);
    expect(context.project.config.poolRunner).toBeDefined();
    const parsed = await parsedByPool(context.project.config.poolRunner as PoolRunner, config.test?.root ?? '');
    expect(vi.mocked(bindingsOverDevVars)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(bindingsOverDevVars)).toHaveBeenCalledWith(parsed.wrangler?.configPath);
    expect(parsed.miniflare.bindings).toMatchObject(probe);
  });
});
