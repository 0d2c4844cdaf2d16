import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { bindingsOverDevVars } from '../src/cli/wrangler-config.js';
import { installQueueBrokerFix } from '../src/cli/miniflare-queue-broker.js';
import { GROUP_BEFORE_E2E, WORKERS_BEFORE_E2E } from './support/groups.js';
import { TEST_MS, WAIT_MS } from './support/patience.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';
import { noDependencySourceMaps } from './worker/dep-source-maps.js';
import { startTestMockServer } from './worker/mock-llm-server.js';
import { zodLocalesEnglishOnly } from './worker/zod-locales.js';
import { keepPoolSocketsUncompressed } from './worker/pool-socket-deflate.js';
import { resolveCache } from './worker/resolve-cache.js';

// Before the pool's Miniflare starts in this process: a lost log call of its queue broker stopped a queue's
// deliveries for good under load (src/cli/miniflare-queue-broker.ts).
installQueueBrokerFix();
// Before the pool opens its sockets to the runtimes: no deflate on them (tests/worker/pool-socket-deflate.ts).
keepPoolSocketsUncompressed();

const root = new URL('..', import.meta.url).pathname;
const configPath = `${root}wrangler.toml`;
const migrations = await readD1Migrations(`${root}migrations`);
// The mock LLM runs in this (Node) process; Worker code reaches it over real HTTP through LLM_BASE_URL.
const mock = await startTestMockServer();
// Webhook receiver for tests/worker/webhooks-*.test.ts: verifies deliveries with the standardwebhooks package.
const receiver = await startWebhookReceiver();

/**
 * The worker project: the Worker, its queue consumers and Durable Objects in workerd, with `D1_SHARDS` 0; the files
 * of tests/worker-shards/ turn the shards on for themselves (tests/worker/d1-shards-override.ts).
 */
export default defineConfig({
  plugins: [
    // Before the pool's plugin: the runtimes' repeated resolutions answered from memory (./worker/resolve-cache.ts).
    resolveCache(),
    // The runtimes get node_modules' code without source maps: ~6 MB less per runtime (./worker/dep-source-maps.ts).
    noDependencySourceMaps(),
    // zod's 63 locale modules reach the runtimes as English alone, the one zod uses (./worker/zod-locales.ts).
    zodLocalesEnglishOnly(),
    cloudflareTest({
      wrangler: { configPath },
      // The production Worker plus test-only classes; EVALUATION runs the test subclass (its hooks replace casts into privates).
      main: `${root}tests/worker/test-entry.ts`,
      miniflare: {
        durableObjects: {
          EVALUATION: { className: 'TestEvaluationDO', useSQLite: true },
          WAVES: { className: 'TestWaveCoordinatorDO', useSQLite: true },
        },
        bindings: {
          // The pool reads a developer's .dev.vars / .env through wrangler (no option turns that off):
          // every key found there is set back to wrangler.toml's value (or '' for a secret), so tests
          // run on their own bindings (API_KEYS there made 55 tests fail with 401).
          ...bindingsOverDevVars(configPath),
          TEST_MIGRATIONS: migrations,
          LLM_BASE_URL: mock.url,
          TEST_MOCK_URL: mock.url,
          // Short timeouts so fault tests finish quickly; retries stay as deployed (their number), with a
          // short backoff: a retried 500 waited up to 0.5 s, then 1 s, for nothing a test looks at (the
          // backoff's own law is tested in the node project, tests/llm/).
          LLM_TIMEOUT_MS: '5000',
          LLM_RETRY_BASE_MS: '20',
          // The mock offers flex and the Batch API as OpenAI documents them (tests/worker/tiers-*.test.ts).
          LLM_SUPPORTS_FLEX: 'true',
          LLM_SUPPORTS_BATCH: 'true',
          // Waves close and batches are polled on the mock's compressed clock (its turnaround: 100 ms).
          BATCH_WAVE_QUIET_MS: '500',
          BATCH_WAVE_MAX_WAIT_MS: '2000',
          BATCH_POLL_MIN_MS: '50',
          BATCH_POLL_MAX_MS: '100',
          // Batches (meta-evaluations too) run wider than deployed, so suites with many items stay quick;
          // the window itself is tested with its own width (tests/worker/batches-*.test.ts).
          BATCH_CONCURRENCY: '64',
          // A deployment key of no known shape: the mock can echo it, and only literal redaction removes it.
          LLM_API_KEY: 'tribunal-test-deployment-key-4c1f9e27',
          TEST_RECEIVER_URL: receiver.url,
          // The mock speaks `prompt_cache_key` as OpenAI does (a cache route per key): each evaluation sends its own.
          LLM_SUPPORTS_PROMPT_CACHE_KEY: 'true',
          // The mock speaks OpenAI's Responses API: a run's `responses` data source samples through it.
          LLM_SUPPORTS_RESPONSES: 'true',
          // One lane per receiver: the lanes' tests count one lane's slots; the spread over WEBHOOK_LANES has
          // its own test, which hands deliveries over with its own count (tests/worker/webhooks-lanes-spread.test.ts).
          WEBHOOK_LANES: '1',
          // The receiver listens on 127.0.0.1 over plain http, as a local stack's receivers do.
          WEBHOOK_ALLOW_LOOPBACK: 'true',
          // Most suites call /v1 without a key, as a local stack does; the closed default has its own
          // tests (tests/worker/tenants-keys.test.ts, "closed by default": ALLOW_ANONYMOUS "false" as deployed).
          ALLOW_ANONYMOUS: 'true',
          // The suites here test features, not the D1 layout: DB holds everything, so a test reads a tenant's
          // rows at env.DB. The layout has its own file (tests/worker/d1-shards.test.ts), which sets D1_SHARDS
          // back on the bindings it hands the app and migrates the shards itself (fresh-storage.ts migrates DB only).
          // tests/worker-shards/ runs the whole pipeline with 4, each file for its own duration: the test entry
          // hands the API, the queue consumers and the objects the bindings with that file's override.
          D1_SHARDS: '0',
        },
      },
    }),
  ],
  test: {
    name: 'worker',
    root,
    include: ['tests/worker/**/*.test.ts', 'tests/worker-shards/**/*.test.ts'],
    // Two workerds for all the files (the pool starts one per file by default, ~1.5 s each): with isolation
    // off, vitest hands files to its two runners one after another, and each runner keeps its runtime. Files
    // share their runtime's module cache and bindings; each starts on empty D1 and with no Durable Object
    // (fresh-storage.ts). The mock LLM and the webhook receiver above are one per run, shared by both
    // runtimes: every test counts by a seed, namespace or sink of its own (newTestId adds a per-runtime tag).
    // Two, not one: much of a file's time is waiting (mock latency, alarms, polls), which the other runtime
    // fills. On the 2-core machine shared with four other engineers, back to back: 277 s with one runtime
    // (CPU 78 s), 146-172 s with two (CPU 78-103 s) at load 8-12; 199 s (CPU 75 s) and 139 s (CPU 92 s) at
    // load 5-7.
    isolate: false,
    maxWorkers: WORKERS_BEFORE_E2E,
    // In node's group, after node's files (tests/support/groups.ts).
    sequence: { groupOrder: GROUP_BEFORE_E2E },
    setupFiles: ['tests/worker/quiet-console.ts', 'tests/worker/pool-proxy-fix.ts', 'tests/worker/fresh-storage.ts'],
    // Wide: tests wait on events, and CI may share a busy machine (tests/support/patience.ts).
    testTimeout: TEST_MS,
    hookTimeout: TEST_MS,
    // `expect.poll` waits on an event like any other wait: vitest's 1 s default failed at load 30 (an erasure
    // that lands in 2 s). Polls stay every 50 ms, so a quiet run is as fast as before.
    expect: { poll: { timeout: WAIT_MS, interval: 50 } },
    // The pipeline logs one JSON line per call: show logs of failing tests only (the runtime holds a test's lines
    // until it fails, tests/worker/quiet-console.ts, so passing tests' lines never cross to this process).
    silent: 'passed-only',
  },
});
