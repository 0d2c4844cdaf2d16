/**
 * Monthly quotas: at the evaluation cap or the spend cap new submissions get 429 `quota_exceeded` with
 * the reset time (the first day of next month, UTC) in the body and `Retry-After`; evaluations accepted
 * before the cap run to their end; a retry of an accepted request still gets its evaluation back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { monthOf } from '../../src/tenants/quota.js';
import { drainAlarms, insertJob, PAIRWISE, testEnv, waitForEnd } from './helpers.js';
import { as, asAdmin, errorOf, keyed, submit, submitOk, tenantWithKey } from './tenants-helpers.js';

afterEach(drainAlarms);

describe('the calendar month (UTC)', () => {
  it("starts on the 1st at 00:00 UTC and resets on the next month's 1st, across a year end", () => {
    expect(monthOf(Date.UTC(2026, 10, 21, 13, 5))).toEqual({
      start: Date.UTC(2026, 10, 1),
      reset: Date.UTC(2026, 11, 1),
    });
    expect(monthOf(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toEqual({
      start: Date.UTC(2026, 11, 1),
      reset: Date.UTC(2027, 0, 1),
    });
    expect(monthOf(Date.UTC(2027, 0, 1))).toEqual({ start: Date.UTC(2027, 0, 1), reset: Date.UTC(2027, 1, 1) });
  });
});

describe('quotas', () => {
  it('at the evaluation cap: 429 quota_exceeded with resetAt and Retry-After, while the accepted evaluations finish', async () => {
    const { key } = await tenantWithKey({ monthlyEvaluationCap: 2 });
    const first = await submitOk(key);
    const second = await submitOk(key);
    const refused = await submit(key);
    expect(refused.status).toBe(429);
    const error = await errorOf(refused);
    const { reset } = monthOf(Date.now());
    expect(error).toMatchObject({ code: 'quota_exceeded', resetAt: new Date(reset).toISOString() });
    expect(error.message).toContain('monthly evaluation cap (2)');
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(Math.abs(retryAfter - (reset - Date.now()) / 1000)).toBeLessThan(5);
    // Still rate-limit headers: a quota refusal is a response to a key like any other.
    expect(refused.headers.get('RateLimit')).toMatch(/^"default";r=\d+;t=\d+$/);
    for (const id of [first, second]) expect((await waitForEnd(id)).status).toBe('succeeded');
    // Nothing was stored for the refused request.
    const meta = await keyed(
      '/v1/meta-evaluations',
      as(key, { body: { preset: 'chateval-single', items: [{ id: 'a', task: PAIRWISE, human: 'A' }] } }),
    );
    expect(meta.status).toBe(429);
  });

  it('counts every item of a meta-evaluation, and lets a retry of an accepted request replay', async () => {
    const { tenant, key } = await tenantWithKey({ monthlyEvaluationCap: 3 });
    const withKey = await keyed(
      '/v1/evaluations',
      as(key, { body: { preset: 'chateval-single', task: PAIRWISE }, headers: { 'Idempotency-Key': 'quota-replay' } }),
    );
    expect(withKey.status).toBe(202);
    const items = [0, 1, 2].map((i) => ({ id: `i${i}`, task: PAIRWISE, human: 'A' as const }));
    const tooMany = await keyed('/v1/meta-evaluations', as(key, { body: { preset: 'chateval-single', items } }));
    expect(tooMany.status).toBe(429);
    expect((await errorOf(tooMany)).message).toContain('1 created this month, 3 more asked for');
    const fits = await keyed(
      '/v1/meta-evaluations',
      as(key, { body: { preset: 'chateval-single', items: items.slice(0, 2) } }),
    );
    expect(fits.status).toBe(202);
    // At the cap now; the same Idempotency-Key and body gets the first evaluation back.
    const replay = await keyed(
      '/v1/evaluations',
      as(key, { body: { preset: 'chateval-single', task: PAIRWISE }, headers: { 'Idempotency-Key': 'quota-replay' } }),
    );
    expect(replay.status).toBe(202);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await submit(key)).status).toBe(429);
    const current = await (
      await asAdmin(`/v1/admin/tenants/${tenant}`)
    ).json<{ current: { evaluationsThisMonth: number } }>();
    expect(current.current.evaluationsThisMonth).toBe(3);
  });

  it('at the spend cap (summed from the usage roll-up): 429 quota_exceeded; raising the cap lets work in again', async () => {
    const { tenant, key } = await tenantWithKey({ monthlySpendCapUsd: 0.5 });
    expect((await submit(key)).status).toBe(202);
    // Spend recorded this month: 0.5 USD over calls of the tenant in two models' roll-up rows.
    for (const [model, cost] of [
      ['gpt-4o', 0.2],
      ['gpt-4o-mini', 0.3],
    ] as const) {
      await testEnv.DB.prepare(
        `INSERT INTO usage_rollup (tenant, hour, model, tier, calls, prompt_tokens, completion_tokens, cached_prompt_tokens,
           estimated, cost_usd, cache_saved_usd) VALUES (?, ?, ?, 'standard', 1, 100, 10, 0, 0, ?, 0)`,
      )
        .bind(tenant, Math.floor(Date.now() / 3_600_000) * 3_600_000, model, cost)
        .run();
    }
    const refused = await submit(key);
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).message).toContain('monthly spend cap (0.5 USD) is reached: 0.5000 USD spent');
    await asAdmin(`/v1/admin/tenants/${tenant}`, { method: 'PATCH', body: { limits: { monthlySpendCapUsd: 1 } } });
    expect((await submit(key)).status).toBe(202);
  });

  it("last month's use does not count", async () => {
    const { tenant, key } = await tenantWithKey({ monthlyEvaluationCap: 1 });
    const { id } = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant });
    await testEnv.DB.prepare(`UPDATE evaluations SET status = 'cancelled', created_at = ? WHERE id = ?`)
      .bind(monthOf(Date.now()).start - 1, id)
      .run();
    expect((await submit(key)).status).toBe(202);
    expect((await submit(key)).status).toBe(429);
  });
});
