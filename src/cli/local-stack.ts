/**
 * @module
 * Starts the whole pipeline locally on embedded workerd: local D1 migrations, `wrangler dev` with
 * local D1, Queues and Durable Objects, and the bundled mock LLM when no API key is configured.
 * Used by `npm start`, the meta-evaluation runner and the pipeline bench. Node only.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../llm/mock/node.js';

/** Repository root (this file is src/cli/local-stack.ts). */
export const REPO_ROOT = new URL('../../', import.meta.url).pathname;

/** Options of {@link startLocalStack}. */
export interface LocalStackOptions {
  /** Port for the API; 0 = a free port. Default 8787. */
  port?: number;
  /** Directory for local D1/DO state; default `.wrangler/state` in the repo (kept across restarts). */
  persistTo?: string;
  /** OpenAI-compatible base URL; default: the bundled mock LLM. */
  llmBaseUrl?: string;
  /** Provider key; default `LLM_API_KEY` from the environment. Without one (and without a base URL) the mock is used. */
  llmApiKey?: string;
  /** Default model; default `mock-judge` with the mock, else wrangler.toml's LLM_MODEL. */
  llmModel?: string;
  /** Port of the mock LLM when it is started; 0 = a free port. Default 8788. */
  mockPort?: number;
  /** Inherit wrangler's output (npm start) or keep quiet (runner, bench). Default false. */
  verbose?: boolean;
  /** Write wrangler's output to this file (when not verbose). */
  logFile?: string;
  /** Extra `--var KEY:VALUE` pairs for wrangler dev. */
  vars?: Record<string, string>;
}

/** A running local stack. */
export interface LocalStack {
  /** Base URL of the API, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** Base URL of the LLM endpoint in use. */
  llmBaseUrl: string;
  /** True when the bundled mock LLM serves the calls. */
  usingMock: boolean;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => { resolve(port); });
    });
  });
}

const WRANGLER = join(REPO_ROOT, 'node_modules', '.bin', 'wrangler');

/** Applies the numbered migrations to the local D1 in `persistTo`. Throws with wrangler's output on failure. */
export function applyLocalMigrations(persistTo: string): void {
  const r = spawnSync(WRANGLER, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
  });
  if (r.status !== 0) throw new Error(`D1 migrations failed:\n${r.stdout}\n${r.stderr}`);
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode}`);
    try {
      const r = await fetch(`${url}/health`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the local API did not become healthy within ${timeoutMs} ms`);
}

/** Starts mock LLM (if needed), migrations and `wrangler dev`; resolves once `/health` answers. */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const persistTo = options.persistTo ?? join(REPO_ROOT, '.wrangler', 'state');
  const apiKey = options.llmApiKey ?? process.env.LLM_API_KEY;
  const usingMock = options.llmBaseUrl === undefined && !apiKey;
  const mock = usingMock
    ? await startMockServer({ port: options.mockPort ?? 8788, })
    : undefined;
  const llmBaseUrl = options.llmBaseUrl ?? (mock ? mock.baseUrl : 'https://api.openai.com/v1');
  const port = options.port === 0 ? await freePort() : (options.port ?? 8787);
  applyLocalMigrations(persistTo);

  const vars: Record<string, string> = {
    LLM_BASE_URL: llmBaseUrl,
    ...(options.llmModel ? { LLM_MODEL: options.llmModel } : usingMock ? { LLM_MODEL: 'mock-judge' } : {}),
    ...options.vars,
  };
  const args = ['dev', '--port', String(port), '--ip', '127.0.0.1', '--persist-to', persistTo, '--show-interactive-dev-session=false'];
  for (const [k, v] of Object.entries(vars)) args.push('--var', `${k}:${v}`);
  if (apiKey) {
    // Secrets go through an env file, not argv, so they do not show in `ps`.
    const dir = mkdtempSync(join(tmpdir(), 'tribunal-'));
    const file = join(dir, '.dev.vars');
    writeFileSync(file, `LLM_API_KEY=${JSON.stringify(apiKey)}\n`, { mode: 0o600 });
    args.push('--env-file', file);
  }
  const child = spawn(WRANGLER, args, {
    cwd: REPO_ROOT,
    stdio: options.verbose ? 'inherit' : options.logFile ? ['ignore', openSync(options.logFile, 'a'), openSync(options.logFile, 'a')] : 'ignore',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    detached: false,
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => {
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          r(undefined);
        }, 5_000);
        child.once('exit', () => {
          clearTimeout(t);
          r(undefined);
        });
      });
    }
    await mock?.close();
  };
  try {
    await waitForHealth(url, child, 60_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, llmBaseUrl, usingMock, stop };
}
