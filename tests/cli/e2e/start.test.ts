/**
 * `npm start` as a developer runs it: API_KEYS from the environment reach the Worker (and the runner's
 * --token gets through); a keep-alive connection survives an answer sent before the body was read; the
 * terminal gets one readable line per ended evaluation or batch and the warnings, no JSON; a second
 * `npm start` on the same state is refused, naming the first; SIGTERM to npm stops the runtime, workerd
 * and the mock and frees the ports; and a taken port fails at once with a message instead of "running"
 * in front of another server.
 */
import { createHash } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { portIsFree } from '../../../src/cli/ports.js';
import { PREPARED_WORKER_ENV } from '../../../src/cli/prepared-worker.js';
import type { CliRun } from '../../support/cli-in-process.js';
import { runCliInProcess } from '../../support/cli-in-process.js';
import { killAll, npmStart, startProgram, untilRunning } from '../../support/npm-start.js';
import { WAIT_MS } from '../../support/patience.js';

const TOKEN = 'e2e-token';

/**
 * The runner's CLI in this process (its own entry code, output and exit code: tests/support/cli-in-process.ts);
 * a `node --import tsx` process of it cost ~1.2-1.8 CPU-s to start.
 */
function metaEval(args: readonly string[]): Promise<CliRun> {
  return runCliInProcess(new URL('../../../src/cli/meta-eval.ts', import.meta.url).pathname, args);
}

/**
 * `npm start`'s program in this process, for a run refused before it starts anything (a state in use): its output
 * and exit code, without npm's and tsx's ~2 CPU-s of starting. What only npm shows (its banner, SIGTERM through
 * npm's shell) stays with the one real `npm start` above, and that a refused start exits with the taken-port case
 * below, spawned (in this shared process, what a refusal leaves running cannot be told from what else runs).
 */
async function refusedStart(args: readonly string[]): Promise<{ code: number; output: string }> {
  const r = await runCliInProcess(new URL('../../../src/cli/start.ts', import.meta.url).pathname, args);
  return { code: r.code, output: r.stdout + r.stderr };
}

describe('npm start', () => {
  const digest = createHash('sha256').update(TOKEN).digest('hex');
  const auth = { authorization: `Bearer ${TOKEN}` };
  let run: ReturnType<typeof npmStart>;
  let port: number;
  let mockPort: number;
  let url: string;
  const persist = join(mkdtempSync(join(tmpdir(), 'tribunal-start-')), 'state');

  beforeAll(async () => {
    // Port 0: workerd and the mock bind free ports themselves, and the banner names them.
    run = npmStart(['--port', '0', '--persist-to', persist, '--no-watch'], {
      API_KEYS: digest,
      MOCK_LLM_PORT: '0',
      LOG_LEVEL: '',
      // A wrangler.toml var from the environment, as a developer sets one: the failing evaluation below
      // waits out its 4 backoffs in ~0.2 s instead of ~4 s (their number as deployed).
      LLM_RETRY_BASE_MS: '20',
    });
    const serving = await untilRunning(run);
    ({ url, port } = serving);
    mockPort = serving.mockPort ?? 0;
  });

  afterAll(killAll);

  it('passes API_KEYS to the Worker; the runner with --token gets through, without it is refused before any item', async () => {
    expect(run.output()).toContain('API_KEYS from the environment (1): /v1 requires "Authorization: Bearer <token>".');
    expect(run.output()).toContain(`mock LLM at http://127.0.0.1:${mockPort}/v1`);
    expect(run.output()).toContain('From the environment: LLM_RETRY_BASE_MS.');
    // It served the run's one bundle (tests/support/worker-bundle.ts) rather than bundling its own.
    expect(run.output()).toContain(
      `(the deployed bundle in ${process.env[PREPARED_WORKER_ENV] ?? '(unset)'}, from ${PREPARED_WORKER_ENV})`,
    );
    expect((await fetch(`${url}/v1/methods`)).status).toBe(401);
    expect((await fetch(`${url}/v1/methods`, { headers: auth })).status).toBe(200);

    const dir = mkdtempSync(join(tmpdir(), 'tribunal-start-meta-'));
    const common = [
      '--dataset',
      'datasets/examples/my-labels.jsonl',
      '--preset',
      'fastchat-pair',
      '--limit',
      '2',
      '--target',
      url,
    ];
    expect((await metaEval([...common, '--token', TOKEN, '--out', join(dir, 'ok.json')])).code).toBe(0);
    const refused = await metaEval([...common, '--out', join(dir, 'refused.json')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused this run before any item was sent (HTTP 401 unauthorized)');
  });

  it('keeps a keep-alive connection usable after an answer sent before the body was read (404, 401, 413)', async () => {
    // One connection at most: every request after the first must reuse it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (path: string, body: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const req = request(
          `${url}${path}`,
          {
            agent,
            method: body === '' ? 'GET' : 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket });
            });
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      const task = JSON.stringify({
        preset: 'fastchat-pair',
        task: { kind: 'pairwise', question: 'q', answerA: 'a', answerB: 'b' },
      });
      const early = [
        // An unknown trigger: 404 before the signature (and so the body) is looked at.
        await send('/v1/hooks/trg_00000000000000000000000000000000', task),
        await send('/health', ''),
        // No key: 401 from the auth middleware.
        await send('/v1/evaluations', task),
        await send('/health', ''),
        // Content-Length over MAX_BODY_BYTES (1 MiB): 413 before a byte is read.
        await send('/v1/evaluations', JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }), auth),
        await send('/health', ''),
      ];
      expect(early.map((r) => r.status)).toEqual([404, 200, 401, 200, 413, 200]);
      expect(early.slice(1).every((r) => r.reused)).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('prints one readable line per ended evaluation and batch, and the warnings, never a JSON line', async () => {
    const post = async (path: string, body: unknown) => {
      const r = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(r.status).toBe(202);
      return ((await r.json()) as { id: string }).id;
    };
    const from = run.output().length;
    const task = (i: number) => ({ kind: 'pairwise', question: `${i} + 2?`, answerA: String(i + 2), answerB: 'five' });
    const ok = await post('/v1/evaluations', { preset: 'fastchat-pair', task: task(1) });
    const batch = await post('/v1/batches', { preset: 'fastchat-pair', items: [{ task: task(2) }, { task: task(3) }] });
    // Every attempt of its calls gets a 500 from the mock: it fails after its retries, with warnings.
    const failing = await post('/v1/evaluations', {
      preset: 'fastchat-pair',
      config: { defaults: { model: 'mock-judge?fail=500:99' } },
      task: task(4),
    });
    const wanted = [
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d evaluation ${ok} fastchat-pair succeeded: (A is better|B is better|tie) \\(confidence \\d+%\\) · 2 calls · `,
        'm',
      ),
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d batch ${batch} fastchat-pair completed: 2 succeeded of 2 · `, 'm'),
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d evaluation ${failing} fastchat-pair failed: provider_error `, 'm'),
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d warn  call\\.finished  evaluationId=${failing} `, 'm'),
    ];
    await expect
      .poll(() => wanted.filter((w) => !w.test(run.output())).map(String), { timeout: 60_000, interval: 200 })
      .toEqual([]);
    const banner = run.output().slice(run.output().indexOf('Press Ctrl+C to stop.'));
    expect(banner.split('\n').filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
    // The batch's items have no line of their own: only the two evaluations outside it.
    expect(
      run
        .output()
        .slice(from)
        .match(/^\d\d:\d\d:\d\d evaluation /gm),
    ).toHaveLength(2);
  });

  it('refuses a second npm start on the same state, naming the first, and leaves the first serving', async () => {
    const second = await refusedStart(['--port', '0', '--mock-port', '0', '--persist-to', persist, '--no-watch']);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`error: the local state in ${persist} is in use by another Tribunal (pid `);
    expect(second.output).toContain(`${url}): two runtimes on one state would take over each other's work`);
    expect(second.output).toContain('--persist-to DIR');
    expect(second.output).not.toContain('Tribunal is running');
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });

  it('stops everything on SIGTERM to npm and frees the ports', async () => {
    // npm passes SIGTERM to its shell, which dies without passing it on: start.ts notices it is orphaned.
    process.kill(run.child.pid!, 'SIGTERM');
    await run.exit;
    // The runtime (workerd) and the mock stop; their ports come free.
    await expect
      .poll(async () => (await portIsFree(port)) && (await portIsFree(mockPort)), { timeout: WAIT_MS, interval: 100 })
      .toBe(true);
    expect(run.output()).not.toMatch(/^\s+at /m);
  });
});

describe('npm start on a taken port', () => {
  afterEach(killAll);

  it('fails at once and exits, with a message, when the API port answers as another server', async () => {
    const other = createServer((_req, res) => res.end('{"status":"ok"}'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as { port: number }).port;
    try {
      const t0 = Date.now();
      // Spawned: a real process ends only if the refusal left nothing running (a server, a watcher, a timer).
      // npm start's program without npm, which only waits for it (npm's part is the first describe's).
      const run = startProgram(['--port', String(port), '--mock-port', '0', '--no-watch'], {});
      expect(await run.exit).toBe(1);
      expect(Date.now() - t0).toBeLessThan(20_000);
      expect(run.output()).toContain(`error: port ${port} (the API) is already in use by another process`);
      expect(run.output()).not.toContain('Tribunal is running');
    } finally {
      other.close();
    }
  });
});
