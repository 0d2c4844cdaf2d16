/**
 * `npm run gate` against a stand-in API (a node:http server answering as the served document describes):
 * it sends `Prefer: wait`, reads a comparison that ran past the wait until its statistics are final, and
 * exits by the one gate rule (`GATE_EXIT_CODES`), the same codes `meta-eval --compare` and the README use: a
 * refused request is 4 from either CLI.
 * The real route is tested in workerd (tests/worker/comparisons-wait.test.ts) and the README's script end to end.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GATE_EXIT_CODES } from '../../src/client/index.js';
import { UsageError } from '../../src/cli/args.js';
import { gateBodyOf, gateMain } from '../../src/cli/gate.js';
import { runCliInProcess } from '../support/cli-in-process.js';

const META_EVAL = join(import.meta.dirname, '../../src/cli/meta-eval.ts');

const dir = mkdtempSync(join(tmpdir(), 'tribunal-gate-cli-'));
const bodyFile = join(dir, 'gate.json');
writeFileSync(
  bodyFile,
  JSON.stringify({
    preset: 'fastchat-pair',
    candidates: ['prod', 'pr'],
    design: { baseline: 'prod' },
    gate: { candidate: 'pr', baseline: 'prod' },
    items: [{ id: 'q1', question: 'q', outputs: { prod: 'a', pr: 'b' } }],
  }),
);

/** A comparison as the API shows it, ended (`final`) or not, with `outcome`'s gate. */
function comparison(
  outcome: string | null,
  basis: 'final' | 'live',
  status = basis === 'final' ? 'completed' : 'running',
) {
  return {
    id: 'cp_1',
    status,
    basis,
    items: 1,
    counts: { total: 1, failed: 0 },
    usage: { calls: 2, costUsd: 0.001 },
    summary: outcome ? `gate ${outcome}: pr beats prod` : 'no gate',
    gate: outcome ? { outcome } : null,
  };
}

let close: (() => void) | undefined;
afterEach(() => close?.());

/** Serves POST /v1/comparisons with `post` and each GET with the next of `gets`; records what came in. */
async function api(post: { status: number; body: unknown }, gets: unknown[] = []) {
  const seen: { method: string; url: string; prefer: string | undefined; key: string | undefined }[] = [];
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        prefer: req.headers.prefer as string | undefined,
        key: req.headers['idempotency-key'] as string | undefined,
      });
      const answer = req.method === 'POST' ? post : { status: 200, body: gets.shift() };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () => server.close();
  return { target: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, seen };
}

async function gate(target: string, extra: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await gateMain(
    { body: bodyFile, target, ...extra },
    { out: (t) => out.push(t), err: (t) => err.push(t) },
    {},
  );
  return { code, out: out.join(''), err: err.join('') };
}

describe('npm run gate', () => {
  it.each([
    ['passed', 0],
    ['failed', 1],
    ['inconclusive', 3],
  ] as const)('a gate %s in the POST answer (Prefer: wait) exits %i', async (outcome, exit) => {
    const { target, seen } = await api({ status: 200, body: comparison(outcome, 'final') });
    const r = await gate(target, { 'idempotency-key': 'sha-1' });
    expect(r.code).toBe(exit);
    expect(r.code).toBe(GATE_EXIT_CODES[outcome]);
    expect(r.out).toContain(`gate ${outcome}: pr beats prod`);
    expect(seen).toEqual([{ method: 'POST', url: '/v1/comparisons', prefer: 'wait=60', key: 'sha-1' }]);
  });

  it('reads a comparison that ran past the wait until its statistics are final', async () => {
    const { target, seen } = await api({ status: 202, body: { id: 'cp_1', status: 'running' } }, [
      comparison(null, 'live'),
      comparison('passed', 'final'),
    ]);
    const r = await gate(target);
    expect(r.code).toBe(0);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST /v1/comparisons',
      'GET /v1/comparisons/cp_1',
      'GET /v1/comparisons/cp_1',
    ]);
  });

  it('names the --timeout it was given when the comparison outlives it, not the time left after the wait', async () => {
    const { target } = await api(
      { status: 202, body: { id: 'cp_1', status: 'running' } },
      Array.from({ length: 20 }, () => comparison(null, 'live')),
    );
    const r = await gate(target, { timeout: '1' });
    expect(r.code).toBe(GATE_EXIT_CODES.request);
    expect(r.err).toContain('comparison cp_1 did not end within 1 s; it keeps running');
  });

  it("exits 4 when the request is refused or fails, not the failed gate's 1; 1 for a cancelled comparison", async () => {
    const refused = await api({
      status: 400,
      body: { error: { code: 'invalid_request', message: 'design: required' } },
    });
    const r = await gate(refused.target);
    expect(r.code).toBe(4);
    expect(r.code).toBe(GATE_EXIT_CODES.request);
    expect(r.err).toContain('design: required');
    close?.();
    // A refused key is the pipeline's setup, not the candidate: a CI job tells it from a failed gate.
    const badKey = await api({
      status: 401,
      body: { error: { code: 'unauthorized', message: 'invalid API key' } },
    });
    const k = await gate(badKey.target, { token: 'trb_bogus' });
    expect(k.code).toBe(4);
    expect(k.err).toContain('invalid API key');
    close?.();
    // Nothing listening: the deployment unreachable.
    const nowhere = await gate(badKey.target);
    expect(nowhere.code).toBe(4);
    // A cancelled comparison's gate covers only what was judged before the cancel: 1, and the report says so.
    const cancelled = await api({ status: 200, body: comparison('passed', 'final', 'cancelled') });
    const c = await gate(cancelled.target);
    expect(c.code).toBe(1);
    expect(c.out).toContain('gate: passed (exit 1)');
  });

  it('is a usage error without --body, or with a body that has no gate', async () => {
    await expect(gateMain({}, { out: () => undefined, err: () => undefined }, {})).rejects.toThrow(UsageError);
    const noGate = join(dir, 'no-gate.json');
    writeFileSync(noGate, JSON.stringify({ preset: 'fastchat-pair' }));
    expect(() => gateBodyOf(noGate)).toThrow(
      new UsageError(`--body: ${noGate} has no "gate" (which candidate must beat which)`),
    );
    expect(() => gateBodyOf('-', () => '{"gate":{"candidate":"b","baseline":"a"}}')).not.toThrow();
  });
});

describe('npm run meta-eval -- --compare exits by the same rule', () => {
  it('exits 4 when the comparison request is refused (a key, a body), as the gate does, not 1', async () => {
    for (const refusal of [
      { status: 401, body: { error: { code: 'unauthorized', message: 'invalid API key' } } },
      { status: 400, body: { error: { code: 'invalid_request', message: 'design: required' } } },
    ]) {
      const { target, seen } = await api(refusal);
      const args = ['--compare', '--dataset', 'mt-bench-human', '--preset', 'fastchat-pair', '--limit', '2'];
      const r = await runCliInProcess(META_EVAL, [...args, '--target', target, '--token', 'trb_bogus']);
      expect(r.code).toBe(GATE_EXIT_CODES.request);
      expect(r.stderr).toContain(refusal.body.error.message);
      expect(seen.map((q) => q.method)).toEqual(['POST']);
      close?.();
    }
  });
});
