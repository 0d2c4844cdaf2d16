/**
 * The README's webhook walkthrough runs top to bottom as written: the `sh example=webhook-walkthrough` block
 * is taken verbatim from README.md and run by bash in an empty folder, against a local stack as `npm start`
 * runs it (plain-http callbacks to loopback allowed). PORT and RECEIVER_PORT are set to free ports, so a
 * port written anywhere but in those variables fails the run; the receiver's file must exist before the
 * command that starts it; the block ends when the receiver has printed the verified verdict.
 *
 * It runs twice in the same folder: the second run reuses the signing secret the first one kept.
 *
 * The CI gate (`sh example=ci-gate`) runs the same way on the same stack: it posts a comparison with
 * `Prefer: wait` and says "deploy" exactly when the gate passed; its webhook variant (`example=ci-gate-webhook`)
 * waits for the signed `comparison.completed`, exits by the gate rule, and never rotates the tenant's secret. Both
 * exit 4 (no gate came back), not 1 (a failed gate), when the deployment is unreachable.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_EXIT_CODES } from '../../../src/client/index.js';
import type { LocalStack } from '../../../src/cli/local-stack.js';
import { startLocalStack } from '../../../src/cli/local-stack.js';
import { REPO_ROOT } from '../../../src/cli/worker-bundle.js';
import { freePort } from '../../../src/cli/ports.js';
import { seededState } from '../../support/seed-state.js';
import { BASH_FLAGS, shellEnv } from '../../support/shell.js';
import { preparedWorker } from '../../support/worker-ready.js';

const dir = mkdtempSync(join(tmpdir(), 'tribunal-readme-'));
/** The walkthrough's folder: it keeps the signing secret there, and runs again in it. */
const walkthroughDir = mkdtempSync(join(dir, 'work-'));
let stack: LocalStack | undefined;

/** The tenant's signing secret status (`GET /v1/webhook-signing-secret`): a rotation sets `previousSecretExpiresAt`. */
async function secretStatus(): Promise<{
  exists: boolean;
  createdAt: string | null;
  previousSecretExpiresAt: string | null;
}> {
  const r = await fetch(`${stack!.url}/v1/webhook-signing-secret`);
  return (await r.json()) as { exists: boolean; createdAt: string | null; previousSecretExpiresAt: string | null };
}

/** The README's block tagged `example=<name>`. */
function readmeExample(name: string): string {
  const text = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const m = new RegExp('```sh example=' + name + '\\n([\\s\\S]*?)```').exec(text);
  if (!m?.[1]) throw new Error(`README.md has no \`sh example=${name}\` block`);
  return m[1];
}

/** Runs `code` with bash (-euo pipefail, no startup files) in `cwd`; resolves when bash exits, or rejects after `timeoutMs`. */
function bash(
  code: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [...BASH_FLAGS, '-c', code], {
      cwd,
      env: shellEnv({ ...process.env, ...env }),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      // The whole group: the receiver too.
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`the walkthrough did not finish in ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve({ code: exitCode, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    mockPort: 0,
    persistTo: seededState(join(dir, 'state')),
    crons: false,
    // As npm start sets it.
    vars: { WEBHOOK_ALLOW_LOOPBACK: 'true' },
    // The bundle npm start would make, made once for the e2e project.
    worker: preparedWorker(),
    reuseRuntime: true,
  });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe("README's webhook walkthrough", () => {
  const code = readmeExample('webhook-walkthrough');

  it('asks for no second npm start, and its receiver listens on 127.0.0.1 only', () => {
    expect(code.split('\n').filter((l) => /^[^#]*\bnpm start\b/.test(l))).toEqual([]);
    expect(code).toContain(".listen(Number(process.env.RECEIVER_PORT), '127.0.0.1')");
  });

  it('runs top to bottom against npm start, twice in its folder: each signed event is judged and its verified verdict reaches the receiver', async () => {
    const port = new URL(stack!.url).port;
    const ids: string[] = [];
    // A second run reuses the secret the first one kept (the API shows it only once): no 409, nothing rotated.
    for (const run of [1, 2]) {
      const r = await bash(code, walkthroughDir, { PORT: port, RECEIVER_PORT: String(await freePort()) }, 90_000);
      expect(r.stderr, `run ${run}`).toBe('');
      expect(r.code, `run ${run}`).toBe(0);
      const line = r.stdout.split('\n').find((l) => l.startsWith('{"evaluationId":'));
      expect(line, r.stdout).toBeDefined();
      const accepted = JSON.parse(line!) as { evaluationId: string; replayed: boolean };
      expect(accepted).toMatchObject({
        evaluationId: expect.stringMatching(/^ev_[0-9a-f]{32}$/) as unknown,
        replayed: false,
      });
      const verified = /^verified (msg_\w+) (\{.*\})$/m.exec(r.stdout);
      expect(verified, r.stdout).not.toBeNull();
      const payload = JSON.parse(verified![2]!) as { type: string; data: { id: string; verdict: { winner: string } } };
      expect(payload.type).toBe('evaluation.succeeded');
      expect(payload.data.id).toBe(accepted.evaluationId);
      expect(payload.data.verdict.winner).toMatch(/^(A|B|tie)$/);
      expect(r.stdout).not.toContain('REFUSED');
      ids.push(accepted.evaluationId);
    }
    expect(new Set(ids).size).toBe(2);
    expect(await secretStatus()).toMatchObject({ exists: true, previousSecretExpiresAt: null });
  });
});

describe("README's CI gate", () => {
  const code = readmeExample('ci-gate');

  it('is about 20 lines', () => {
    expect(code.trim().split('\n').length).toBeLessThanOrEqual(24);
  });

  it('posts a comparison with Prefer: wait (nothing to receive), and deploys exactly when the gate passed', async () => {
    const work = mkdtempSync(join(dir, 'gate-'));
    const port = new URL(stack!.url).port;
    const r = await bash(code, work, { PORT: port }, 90_000);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [accepted, summary, decision] = r.stdout.trim().split('\n');
    expect(JSON.parse(accepted ?? '{}')).toMatchObject({
      id: expect.stringMatching(/^cp_[0-9a-f]{32}$/) as unknown,
      items: 2,
    });
    expect(summary).toMatch(/^gate (passed|failed|inconclusive): pr-42 /);
    expect(decision).toBe(summary?.startsWith('gate passed') ? 'deploy' : 'hold the deploy');
  });

  it('exits 4, not a failed gate, when the deployment is unreachable', async () => {
    const work = mkdtempSync(join(dir, 'gate-down-'));
    const env = { PORT: String(await freePort()) };
    const r = await bash(code, work, env, 30_000);
    expect(r.stdout.trim()).toBe('hold the deploy');
    expect(r.stderr).toContain('fetch failed');
    // The block's `&& … ||` hides the code: the script it wrote, run alone, exits by the gate rule.
    const alone = await bash(`node gate.mjs "http://127.0.0.1:$PORT" '{}'`, work, env, 30_000);
    expect(alone.code).toBe(GATE_EXIT_CODES.request);
  });
});

describe("README's CI gate on a webhook", () => {
  const code = readmeExample('ci-gate-webhook');

  it("takes the tenant's secret from SIGNING_SECRET, waits for the signed comparison.completed and exits by the gate rule", async () => {
    const port = new URL(stack!.url).port;
    const kept = join(walkthroughDir, '.signing-secret');
    const env: Record<string, string> = { PORT: port, RECEIVER_PORT: String(await freePort()) };
    if (existsSync(kept)) env.SIGNING_SECRET = readFileSync(kept, 'utf8').trim();
    const r = await bash(code, mkdtempSync(join(dir, 'gate-webhook-')), env, 90_000);
    expect(r.stderr).toBe('');
    const [accepted, summary] = r.stdout.trim().split('\n');
    expect(JSON.parse(accepted ?? '{}')).toMatchObject({ id: expect.stringMatching(/^cp_/) as unknown });
    const outcome = /^gate (passed|failed|inconclusive):/.exec(summary ?? '')?.[1] as keyof typeof GATE_EXIT_CODES;
    expect(r.code).toBe(GATE_EXIT_CODES[outcome]);
  });

  it('exits 4, not a failed gate, when the deployment is unreachable', async () => {
    const env = {
      PORT: String(await freePort()),
      RECEIVER_PORT: String(await freePort()),
      SIGNING_SECRET: 'whsec_AAAA',
    };
    const r = await bash(code, mkdtempSync(join(dir, 'gate-webhook-down-')), env, 30_000);
    expect(r.stderr).toContain('fetch failed');
    expect(r.code).toBe(GATE_EXIT_CODES.request);
  });

  it('never rotates a secret the tenant has: without SIGNING_SECRET it says so and exits 2', async () => {
    await fetch(`${stack!.url}/v1/webhook-signing-secret`, { method: 'POST' }); // 201 or 409: one exists now
    const before = await secretStatus();
    const port = new URL(stack!.url).port;
    const env = { PORT: port, RECEIVER_PORT: String(await freePort()) };
    const r = await bash(code, mkdtempSync(join(dir, 'gate-webhook-')), env, 90_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('set SIGNING_SECRET');
    expect(await secretStatus()).toEqual(before);
    expect(before.previousSecretExpiresAt).toBeNull();
  });
});
