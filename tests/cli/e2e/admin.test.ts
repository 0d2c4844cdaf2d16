/**
 * Running Tribunal for a customer, end to end on the local runtime (the deployed bundle on Miniflare,
 * local D1, Queues and Durable Objects): with ADMIN_TOKEN set, `npm run admin` creates a tenant and a key,
 * the key judges a task and reads its usage, /v1 refuses requests without a key, and a revoked key is
 * refused on its next request.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runAdmin } from '../../../src/cli/admin.js';
import type { LocalStack } from '../../../src/cli/local-stack.js';
import { startLocalStack } from '../../../src/cli/local-stack.js';
import { seededState } from '../../support/seed-state.js';
import { preparedWorker } from '../../support/worker-ready.js';

const ADMIN_TOKEN = 'e2e-admin-token-4b2f';
let stack: LocalStack | undefined;

afterAll(async () => {
  await stack?.stop();
});

/** Runs `npm run admin -- argv` against the stack; returns the parsed JSON it printed. */
async function admin(url: string, argv: string[]): Promise<Record<string, unknown>> {
  let out = '';
  let err = '';
  let code = 0;
  await runAdmin([...argv, '--target', url], {
    env: { TRIBUNAL_ADMIN_TOKEN: ADMIN_TOKEN },
    io: { out: (t) => (out += t), err: (t) => (err += t), exit: (c) => (code = c) },
  });
  if (code !== 0) throw new Error(`admin ${argv.join(' ')} exited ${code}: ${err}`);
  return JSON.parse(out) as Record<string, unknown>;
}

describe('ADMIN_TOKEN on the local stack', () => {
  it('npm run admin makes a tenant and a key; the key judges and meters; revoked, it is refused', async () => {
    stack = await startLocalStack({
      port: 0,
      mockPort: 0,
      persistTo: seededState(join(mkdtempSync(join(tmpdir(), 'tribunal-admin-')), 'state')),
      secrets: { ADMIN_TOKEN },
      crons: false,
      worker: preparedWorker(),
      reuseRuntime: true,
    });
    const { url } = stack;
    expect((await fetch(`${url}/v1/methods`)).status).toBe(401);

    const tenant = await admin(url, [
      'tenants:create',
      '--name',
      'e2e customer',
      '--rate',
      '100/60',
      '--evaluation-cap',
      '10',
    ]);
    const created = await admin(url, ['keys:create', '--tenant', String(tenant.id), '--label', 'e2e']);
    const key = String(created.key);
    const keyId = (created.apiKey as { id: string }).id;
    const auth = { Authorization: `Bearer ${key}` };

    const submitted = await fetch(`${url}/v1/evaluations`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        preset: 'chateval-single',
        task: { kind: 'pairwise', question: 'Capital of France?', answerA: 'Paris', answerB: 'Lyon' },
      }),
    });
    expect(submitted.status).toBe(202);
    expect(submitted.headers.get('RateLimit-Policy')).toBe('"default";q=100;w=60');
    // Sent as the Worker wrote it to a client that accepts gzip (node's fetch): the local entry marks it, so
    // Miniflare's emulation of the edge's compression does not hold it on the runtime's thread.
    expect(submitted.headers.get('Content-Encoding')).toBe('identity');
    const { id } = (await submitted.json()) as { id: string };
    await vi.waitFor(
      async () => {
        const v = (await (await fetch(`${url}/v1/evaluations/${id}`, { headers: auth })).json()) as { status: string };
        if (v.status !== 'succeeded') throw new Error(v.status);
      },
      { timeout: 60_000, interval: 200 },
    );
    const usage = (await (await fetch(`${url}/v1/usage?groupBy=key`, { headers: auth })).json()) as {
      rows: { group: string; calls: number }[];
    };
    expect(usage.rows).toEqual([expect.objectContaining({ group: keyId, calls: 2 })]);
    const viaCli = await admin(url, ['usage', '--tenant', String(tenant.id), '--group-by', 'key']);
    expect(viaCli.rows).toEqual(usage.rows);

    await admin(url, ['keys:revoke', '--key', keyId]);
    expect((await fetch(`${url}/v1/methods`, { headers: auth })).status).toBe(401);
  });
});
