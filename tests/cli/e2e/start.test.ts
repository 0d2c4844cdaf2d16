/**
 * `npm start` as a developer runs it: API_KEYS from the environment reach the Worker (and the runner's
 * --token gets through), SIGTERM to npm stops the runtime, workerd and the mock and frees the ports,
 * and a taken port fails at once with a message instead of "running" in front of another server.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, portIsFree } from '../../../src/cli/ports.js';

const TOKEN = 'e2e-token';
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.pid) process.kill(-c.pid, 'SIGKILL');
});

/** `npm start -- args` in its own process group, as a terminal would run it; output collected. */
function npmStart(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  const child = spawn('npm', ['start', '--', ...args], {
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      resolve(code);
    }),
  );
  return { child, output: () => output, exit };
}

async function untilRunning(run: ReturnType<typeof npmStart>): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!run.output().includes('Press Ctrl+C to stop.')) {
    if (run.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`npm start did not come up:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function metaEval(args: readonly string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/meta-eval.ts', ...args],
      { timeout: 120_000 },
      (error, _stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr });
      },
    );
  });
}

describe('npm start', () => {
  it('passes API_KEYS to the Worker, and SIGTERM to npm stops everything and frees the ports', async () => {
    const [port, mockPort] = [await freePort(), await freePort()];
    const digest = createHash('sha256').update(TOKEN).digest('hex');
    const persist = join(mkdtempSync(join(tmpdir(), 'tribunal-start-')), 'state');
    const run = npmStart(['--port', String(port), '--persist-to', persist, '--no-watch'], {
      API_KEYS: digest,
      MOCK_LLM_PORT: String(mockPort),
    });
    await untilRunning(run);
    expect(run.output()).toContain('API_KEYS from the environment (1): /v1 requires "Authorization: Bearer <token>".');
    expect(run.output()).toContain(`mock LLM at http://127.0.0.1:${mockPort}/v1`);
    const url = `http://127.0.0.1:${port}`;
    expect((await fetch(`${url}/v1/methods`)).status).toBe(401);
    expect((await fetch(`${url}/v1/methods`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);

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
    expect(refused.stderr).toContain('2 × runner_error: submit: HTTP 401');

    // npm passes SIGTERM to its shell, which dies without passing it on: start.ts notices it is orphaned.
    process.kill(run.child.pid!, 'SIGTERM');
    await run.exit;
    // The runtime (workerd) and the mock stop; their ports come free.
    await expect
      .poll(async () => (await portIsFree(port)) && (await portIsFree(mockPort)), { timeout: 20_000, interval: 100 })
      .toBe(true);
    expect(run.output()).not.toMatch(/^\s+at /m);
  });

  it('fails at once, with a message, when the API port answers as another server', async () => {
    const other = createServer((_req, res) => res.end('{"status":"ok"}'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as { port: number }).port;
    try {
      const t0 = Date.now();
      const run = npmStart(['--port', String(port), '--mock-port', '0', '--no-watch'], {});
      expect(await run.exit).toBe(1);
      expect(Date.now() - t0).toBeLessThan(20_000);
      expect(run.output()).toContain(`error: port ${port} (the API) is already in use by another process`);
      expect(run.output()).not.toContain('Tribunal is running');
    } finally {
      other.close();
    }
  });
});
