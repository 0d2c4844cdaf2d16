/**
 * Quotas and the running cap hold on every path that creates evaluations, not only `POST /v1/evaluations`:
 * the signed trigger endpoint (`/v1/hooks/{id}`, outside bearer auth and the rate limit) and the
 * OpenAI-compatible `POST /v1/chat/completions` go through the same `createEvaluationJob`, so both refuse
 * at the monthly cap (429 `quota_exceeded`, `resetAt`, `Retry-After`; OpenAI's error shape on the chat path)
 * and both wait for a running slot instead of running past the cap.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { monthOf } from '../../src/tenants/quota.js';
import { runningCount } from '../../src/evaluations/admission.js';
import { drainAlarms, statusRow, testEnv, waitForEnd } from './helpers.js';
import { chatAs, errorOf, sendHook, submitOk, tenantWithKey, triggerOf } from './tenants-helpers.js';

afterEach(drainAlarms);

async function evaluationsOf(tenant: string): Promise<number> {
  return (
    (
      await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluations WHERE tenant = ?')
        .bind(tenant)
        .first<{ n: number }>()
    )?.n ?? 0
  );
}

function expectRetryAfterReset(r: Response): void {
  const { reset } = monthOf(Date.now());
  expect(Math.abs(Number(r.headers.get('Retry-After')) - (reset - Date.now()) / 1000)).toBeLessThan(5);
}

describe('the monthly quota on every path that creates evaluations', () => {
  it('a signed trigger delivery at the cap is 429 quota_exceeded and creates nothing', async () => {
    const { tenant, key } = await tenantWithKey({ monthlyEvaluationCap: 1 });
    const t = await triggerOf(key);
    const first = await sendHook(t);
    expect(first.status, await first.clone().text()).toBe(202);
    const refused = await sendHook(t);
    expect(refused.status).toBe(429);
    const error = await errorOf(refused);
    expect(error).toMatchObject({ code: 'quota_exceeded', resetAt: new Date(monthOf(Date.now()).reset).toISOString() });
    expect(error.message).toContain('monthly evaluation cap (1)');
    expectRetryAfterReset(refused);
    expect(await evaluationsOf(tenant)).toBe(1);
    await waitForEnd((await first.json<{ evaluationId: string }>()).evaluationId);
  });

  it("a chat completion at the cap is 429 quota_exceeded in OpenAI's shape (rate_limit_error, resetAt, Retry-After)", async () => {
    const { tenant, key } = await tenantWithKey({ monthlyEvaluationCap: 1 });
    await waitForEnd(await submitOk(key));
    const refused = await chatAs(key);
    expect(refused.status).toBe(429);
    const body = await refused.json<{ error: { code: string; type: string; message: string; resetAt?: string } }>();
    expect(body.error).toMatchObject({
      code: 'quota_exceeded',
      type: 'rate_limit_error',
      resetAt: new Date(monthOf(Date.now()).reset).toISOString(),
    });
    expectRetryAfterReset(refused);
    expect(await evaluationsOf(tenant)).toBe(1);
  });

  it('a chat completion records the key that created it (usage by key)', async () => {
    const { tenant, key, keyId } = await tenantWithKey();
    const r = await chatAs(key, mockModel({ seed: `paths-key-${Date.now()}` }));
    expect(r.status).toBe(200);
    const id = r.headers.get('Tribunal-Evaluation-Id') ?? '';
    const row = await testEnv.DB.prepare('SELECT tenant, key_id FROM evaluations WHERE id = ?')
      .bind(id)
      .first<{ tenant: string; key_id: string | null }>();
    expect(row).toEqual({ tenant, key_id: keyId });
  });
});

describe('the running cap on every path that creates evaluations', () => {
  it("a trigger's evaluation and a chat completion wait for the slot a running evaluation holds, then run one at a time", async () => {
    const { tenant, key } = await tenantWithKey({ maxRunning: 1 });
    const slow = await submitOk(key, mockModel({ latency: 1_500, seed: `paths-slow-${Date.now()}` }));
    expect(await evaluationStub(testEnv, slow).snapshot()).not.toBeNull();

    const t = await triggerOf(key, mockModel({ latency: 300, seed: `paths-hook-${Date.now()}` }));
    const hooked = await sendHook(t);
    expect(hooked.status).toBe(202);
    const fromHook = (await hooked.json<{ evaluationId: string }>()).evaluationId;
    // Accepted, not started: the hook's fast start found the tenant at its cap (keyed() waited for it).
    expect(await evaluationStub(testEnv, fromHook).snapshot()).toBeNull();
    expect((await statusRow(fromHook))?.status).toBe('queued');
    expect(await runningCount(testEnv.DB, tenant)).toBe(1);

    // The chat request waits for its verdict; meanwhile the tenant never has more than one slot taken.
    let most = 0;
    const watch = { on: true };
    const watcher = (async () => {
      while (watch.on) {
        most = Math.max(most, await runningCount(testEnv.DB, tenant));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const chat = await chatAs(key, mockModel({ seed: `paths-chat-${Date.now()}` }));
    watch.on = false;
    await watcher;
    expect(chat.status, await chat.clone().text()).toBe(200);
    expect(most).toBe(1);
    for (const id of [slow, fromHook]) expect((await waitForEnd(id)).status).toBe('succeeded');
    // In order of arrival: the hook's evaluation got the freed slot before the chat's.
    const chatId = chat.headers.get('Tribunal-Evaluation-Id') ?? '';
    const slots = await testEnv.DB.prepare('SELECT id, slot_at FROM evaluations WHERE id IN (?, ?)')
      .bind(fromHook, chatId)
      .all<{ id: string; slot_at: number }>();
    const at = new Map(slots.results.map((r) => [r.id, r.slot_at]));
    expect(at.get(fromHook) ?? Infinity).toBeLessThanOrEqual(at.get(chatId) ?? 0);
  });
});
