/**
 * wrangler.toml as the local runtime's and the tests' bindings, with or without a developer's
 * `.dev.vars`: the local stack ignores it unless asked (npm start asks), and the vitest pool's bindings
 * undo it key by key (API_KEYS there once made 55 worker tests fail with 401).
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type * as MiniflareModule from 'miniflare';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '../../src/cli/worker-options.js';
import { localEntryModule, miniflareOptionsOf } from '../../src/cli/worker-options.js';
import { bindingsOverDevVars, readWorkerSetup } from '../../src/cli/wrangler-config.js';

// Required, not imported, as src/cli/worker-options.ts does: an import makes Node's ESM loader scan Miniflare's
// 3 MB CommonJS file for its export names first (~0.4 CPU-s), though the require below is what it loads anyway.
const { LogLevel } = createRequire(import.meta.url)('miniflare') as typeof MiniflareModule;

const DIGEST = 'a'.repeat(64);

/** A copy of wrangler.toml beside a developer's .dev.vars. */
function projectWithDevVars(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-devvars-'));
  copyFileSync('wrangler.toml', join(dir, 'wrangler.toml'));
  // wrangler checks that the [assets] directory exists.
  mkdirSync(join(dir, 'dist', 'web'), { recursive: true });
  writeFileSync(join(dir, '.dev.vars'), `API_KEYS=${DIGEST}\nLLM_MODEL=my-local-model\nOPENAI_API_KEY=sk-dev\n`);
  return join(dir, 'wrangler.toml');
}

function config(configPath: string, over: Partial<RuntimeConfig> = {}): RuntimeConfig {
  return {
    configPath,
    worker: readWorkerSetup(configPath),
    scriptPath: '/tmp/x/index.js',
    persistTo: '/tmp/state',
    host: '127.0.0.1',
    port: 8787,
    bindings: {},
    devVars: false,
    varsFromEnv: false,
    logRequests: false,
    ...over,
  };
}

const bindingsOf = (c: RuntimeConfig) => miniflareOptionsOf(c).options.bindings as Record<string, unknown>;

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('bindings of the local runtime', () => {
  it('come from wrangler.toml and the options only, whatever .dev.vars holds (tests, runner, bench)', () => {
    const b = bindingsOf(config(projectWithDevVars(), { bindings: { STALL_SECONDS: '1' } }));
    expect(b).not.toHaveProperty('API_KEYS');
    expect(b).not.toHaveProperty('OPENAI_API_KEY');
    expect(b.LLM_MODEL).toBe('gpt-4o-mini');
    expect(b.STALL_SECONDS).toBe('1');
    expect(miniflareOptionsOf(config(projectWithDevVars())).fromDevVars).toEqual([]);
  });

  it('apply .dev.vars as wrangler dev does when asked (npm start), and say which keys came from it', () => {
    const { options, fromDevVars } = miniflareOptionsOf(config(projectWithDevVars(), { devVars: true }));
    expect(options.bindings).toMatchObject({ API_KEYS: DIGEST, LLM_MODEL: 'my-local-model', OPENAI_API_KEY: 'sk-dev' });
    expect(fromDevVars.sort()).toEqual(['API_KEYS', 'LLM_MODEL', 'OPENAI_API_KEY']);
  });

  it('name no key .dev.vars leaves empty: the Worker reads it as unset, so npm start must not say /v1 needs a key', () => {
    const configPath = projectWithDevVars();
    writeFileSync(join(dirname(configPath), '.dev.vars'), 'API_KEYS=\nADMIN_TOKEN="  "\nLLM_MODEL=my-local-model\n');
    const { options, fromDevVars } = miniflareOptionsOf(config(configPath, { devVars: true }));
    expect(options.bindings).toMatchObject({ LLM_MODEL: 'my-local-model' });
    expect(fromDevVars).toEqual(['LLM_MODEL']);
  });

  it('take wrangler.toml vars from the environment when asked, explicit bindings first', () => {
    vi.stubEnv('STALL_SECONDS', '7');
    vi.stubEnv('LLM_MODEL', 'from-env');
    vi.stubEnv('NOT_A_VAR', 'x');
    const { options, fromEnv } = miniflareOptionsOf(
      config('wrangler.toml', { varsFromEnv: true, bindings: { LLM_MODEL: 'explicit' } }),
    );
    expect(options.bindings).toMatchObject({ STALL_SECONDS: '7', LLM_MODEL: 'explicit' });
    expect(options.bindings).not.toHaveProperty('NOT_A_VAR');
    expect(fromEnv).toEqual(['STALL_SECONDS']);
  });

  it('run the bundle with the D1, queues, Durable Objects and crons of wrangler.toml, offline', () => {
    const { options, crons } = miniflareOptionsOf(
      config('wrangler.toml', { queueConsumers: { 'tribunal-jobs': { maxBatchTimeout: 60 } } }),
    );
    expect(options).toMatchObject({
      d1Databases: { DB: { id: '00000000-0000-0000-0000-000000000000' } },
      durableObjects: { EVALUATION: { className: 'EvaluationDO', useSQLite: true } },
      queueProducers: { JOBS: { queueName: 'tribunal-jobs' } },
      queueConsumers: {
        'tribunal-jobs': { maxBatchSize: 100, maxBatchTimeout: 60, deadLetterQueue: 'tribunal-jobs-dlq' },
      },
      // The bundle behind the local entry module (keep-alive connections survive early answers), both
      // listed so Miniflare does not parse the bundle to find them.
      modules: [
        { type: 'ESModule', path: '/tmp/x/__local-entry.mjs', contents: localEntryModule('index.js') },
        { type: 'ESModule', path: '/tmp/x/index.js' },
      ],
      modulesRoot: '/tmp/x',
      defaultPersistRoot: '/tmp/state/v3',
      cf: false,
      unsafeTriggerHandlers: true,
    });
    expect(options).not.toHaveProperty('modulesRules');
    expect(crons).toEqual(['* * * * *']);
    // Handed to the runtime child over IPC and to the e2e tests through inject(): plain data only.
    const setup = readWorkerSetup('wrangler.toml');
    expect(JSON.parse(JSON.stringify(setup))).toEqual(setup);
    // Miniflare's request lines are info lines: quiet unless asked for (npm start --log-requests).
    const levelOf = (logRequests: boolean) =>
      (miniflareOptionsOf(config('wrangler.toml', { logRequests })).options.log as { level: number }).level;
    expect([levelOf(false), levelOf(true)]).toEqual([LogLevel.WARN, LogLevel.INFO]);
    expect(() => miniflareOptionsOf(config('wrangler.toml', { queueConsumers: { nope: {} } }))).toThrow(
      'wrangler.toml has no consumer for queue nope',
    );
  });

  it('hold a queue without a consumer when asked: its messages wait, the producer stays', () => {
    const { options } = miniflareOptionsOf(
      config('wrangler.toml', { queueConsumers: { 'tribunal-jobs': { held: true } } }),
    );
    const consumers = options.queueConsumers as Record<string, unknown>;
    expect(consumers).not.toHaveProperty('tribunal-jobs');
    expect(consumers).toHaveProperty('tribunal-webhooks');
    expect(options.queueProducers).toMatchObject({ JOBS: { queueName: 'tribunal-jobs' } });
  });
});

describe("the worker test pool's bindings over .dev.vars", () => {
  it("set every key of .dev.vars back to wrangler.toml's value, or '' for a secret", () => {
    expect(bindingsOverDevVars(projectWithDevVars())).toEqual({
      API_KEYS: '',
      LLM_MODEL: 'gpt-4o-mini',
      OPENAI_API_KEY: '',
    });
  });
});
