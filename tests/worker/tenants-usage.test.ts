/**
 * `GET /v1/usage`: per day, model, preset and key, the sums equal the calls the evaluations' objects keep
 * (rolled up in D1, one row per tenant, hour, model, tier, preset and key); CSV on request; a range; the
 * operator reads any tenant's; a tenant never sees another's.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { drainAlarms, PAIRWISE, testEnv, waitForEnd } from './helpers.js';
import { as, asAdmin, errorOf, keyed, newKey, tenantWithKey } from './tenants-helpers.js';

afterEach(drainAlarms);

interface Report {
  tenant: string;
  groupBy: string;
  rows: {
    group: string | null;
    calls: number;
    promptTokens: number;
    cachedPromptTokens: number;
    completionTokens: number;
    costUsd: number;
    cacheSavedUsd: number;
    estimated: boolean;
  }[];
  totals: {
    calls: number;
    promptTokens: number;
    cachedPromptTokens: number;
    completionTokens: number;
    costUsd: number;
  };
}

interface Sums {
  calls: number;
  p: number;
  k: number;
  c: number;
  cost: number;
}

/** Who an evaluation's calls are grouped under: its key, preset, and the model that answered. */
type Filter = { key?: string; preset?: string; model?: string };

/**
 * Sums straight from the per-call detail each evaluation's object keeps (the roll-up's independent source),
 * optionally for one group value; checked against each evaluation's own booked sums in D1 on the way.
 */
async function rowSums(tenant: string, filter: Filter = {}): Promise<Sums> {
  const { results } = await testEnv.DB.prepare(
    `SELECT id, key_id, preset, billed_calls, cost_usd FROM evaluations WHERE tenant = ? AND billed_calls IS NOT NULL`,
  )
    .bind(tenant)
    .all<{ id: string; key_id: string | null; preset: string | null; billed_calls: number; cost_usd: number }>();
  const sums: Sums = { calls: 0, p: 0, k: 0, c: 0, cost: 0 };
  for (const e of results) {
    const calls = ((await evaluationStub(testEnv, e.id).transcript()) ?? []).filter((r) => r.billing);
    expect(calls.length).toBe(e.billed_calls);
    expect(calls.reduce((n, r) => n + r.usage.costUsd, 0)).toBeCloseTo(e.cost_usd, 12);
    if (filter.key !== undefined && e.key_id !== filter.key) continue;
    if (filter.preset !== undefined && e.preset !== filter.preset) continue;
    for (const r of calls) {
      if (filter.model !== undefined && r.model !== filter.model) continue;
      sums.calls += 1;
      sums.p += r.usage.promptTokens;
      sums.k += r.usage.cachedPromptTokens;
      sums.c += r.usage.completionTokens;
      sums.cost += r.usage.costUsd;
    }
  }
  return { ...sums, cost: Number(sums.cost.toFixed(12)) };
}

const asSums = (r: Report['totals']): Sums => ({
  calls: r.calls,
  p: r.promptTokens,
  k: r.cachedPromptTokens,
  c: r.completionTokens,
  cost: Number(r.costUsd.toFixed(12)),
});

describe('usage', () => {
  const t = { tenant: '', key: '', keyId: '', other: { key: '', id: '' } };

  beforeAll(async () => {
    const made = await tenantWithKey();
    Object.assign(t, made, { other: await newKey(made.tenant) });
    // Two keys, two presets, two models (gpt-4o-mini is priced, the mock's own name is free).
    const runs = [
      {
        key: t.key,
        body: { preset: 'chateval-single', config: { defaults: { model: 'gpt-4o-mini' } }, task: PAIRWISE },
      },
      { key: t.key, body: { preset: 'fastchat-pair', config: { defaults: { model: 'mock-judge' } }, task: PAIRWISE } },
      {
        key: t.other.key,
        // The first run's request again: judged anew (no verdict cache hit), so this key has usage rows too.
        body: {
          preset: 'chateval-single',
          config: { defaults: { model: 'gpt-4o-mini' } },
          task: PAIRWISE,
          cache: 'off',
        },
      },
    ];
    for (const run of runs) {
      const r = await keyed('/v1/evaluations', as(run.key, { body: run.body }));
      expect(r.status).toBe(202);
      await waitForEnd((await r.json<{ id: string }>()).id);
    }
  });

  it("by key: each key's sums equal its usage rows, and the totals equal all of them", async () => {
    const report = await (await keyed('/v1/usage?groupBy=key', as(t.key))).json<Report>();
    expect(report.tenant).toBe(t.tenant);
    expect(report.rows.map((r) => r.group).sort()).toEqual([t.keyId, t.other.id].sort());
    for (const row of report.rows) expect(asSums(row)).toEqual(await rowSums(t.tenant, { key: row.group ?? '' }));
    const all = await rowSums(t.tenant);
    expect(asSums(report.totals)).toEqual(all);
    expect(all.calls).toBeGreaterThanOrEqual(3);
    expect(all.cost).toBeGreaterThan(0);
  });

  it('by model, preset and day: the same totals, split as the rows are', async () => {
    const all = await rowSums(t.tenant);
    const byModel = await (await keyed('/v1/usage?groupBy=model', as(t.key))).json<Report>();
    expect(byModel.rows.map((r) => r.group)).toEqual(['gpt-4o-mini', 'mock-judge']);
    expect(byModel.rows.find((r) => r.group === 'mock-judge')?.costUsd).toBe(0);
    for (const row of byModel.rows) expect(asSums(row)).toEqual(await rowSums(t.tenant, { model: row.group ?? '' }));
    const byPreset = await (await keyed('/v1/usage?groupBy=preset', as(t.key))).json<Report>();
    expect(byPreset.rows.map((r) => r.group)).toEqual(['chateval-single', 'fastchat-pair']);
    for (const row of byPreset.rows) expect(asSums(row)).toEqual(await rowSums(t.tenant, { preset: row.group ?? '' }));
    const byDay = await (await keyed('/v1/usage', as(t.key))).json<Report>();
    expect(byDay.groupBy).toBe('day');
    expect(byDay.rows.map((r) => r.group)).toEqual([new Date().toISOString().slice(0, 10)]);
    for (const report of [byModel, byPreset, byDay]) expect(asSums(report.totals)).toEqual(all);
  });

  it('rolls the calls up: one D1 row per hour, model, tier, preset and key; a bound inside an hour counts it whole', async () => {
    const { results } = await testEnv.DB.prepare(
      'SELECT hour, model, tier, preset, key_id, calls FROM usage_rollup WHERE tenant = ? ORDER BY preset, key_id',
    )
      .bind(t.tenant)
      .all<{ hour: number; model: string; tier: string; preset: string; key_id: string; calls: number }>();
    // Three evaluations, three (preset, key, model) groups, all in this hour (or the one before, near :00).
    expect(new Set(results.map((r) => `${r.preset}|${r.key_id}|${r.model}`)).size).toBe(3);
    expect(results.every((r) => r.hour % 3_600_000 === 0 && r.tier === 'standard')).toBe(true);
    expect(results.reduce((n, r) => n + r.calls, 0)).toBe((await rowSums(t.tenant)).calls);
    const hour = Math.max(...results.map((r) => r.hour));
    const inside = new Date(hour + 1_000).toISOString();
    const late = await (await keyed(`/v1/usage?from=${inside}`, as(t.key))).json<Report>();
    expect(late.totals.calls).toBe(results.filter((r) => r.hour === hour).reduce((n, r) => n + r.calls, 0));
  });

  it('as CSV with format=csv or Accept: text/csv', async () => {
    const byParam = await keyed('/v1/usage?groupBy=model&format=csv', as(t.key));
    expect(byParam.headers.get('Content-Type')).toContain('text/csv');
    const csv = await byParam.text();
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'model,calls,prompt_tokens,cached_prompt_tokens,completion_tokens,cost_usd,cache_saved_usd,estimated',
    );
    const json = await (await keyed('/v1/usage?groupBy=model', as(t.key))).json<Report>();
    expect(lines.slice(1)).toEqual(
      json.rows.map((r) =>
        [
          r.group,
          r.calls,
          r.promptTokens,
          r.cachedPromptTokens,
          r.completionTokens,
          r.costUsd,
          r.cacheSavedUsd,
          r.estimated,
        ].join(','),
      ),
    );
    const byAccept = await keyed('/v1/usage?groupBy=model', as(t.key, { headers: { Accept: 'text/csv' } }));
    expect(await byAccept.text()).toBe(csv);
    const forced = await keyed('/v1/usage?format=json', as(t.key, { headers: { Accept: 'text/csv' } }));
    expect(forced.headers.get('Content-Type')).toContain('application/json');
  });

  it('over a range: [from, to); a range before the calls is empty; to before from is a 400 naming it', async () => {
    const empty = await (await keyed('/v1/usage?from=2020-01-01&to=2020-02-01', as(t.key))).json<Report>();
    expect(empty.rows).toEqual([]);
    expect(empty.totals.calls).toBe(0);
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const range = await (
      await keyed(`/v1/usage?from=${today}&to=${new Date(now.getTime() + 86_400_000).toISOString()}`, as(t.key))
    ).json<Report>();
    expect(asSums(range.totals)).toEqual(await rowSums(t.tenant));
    const bad = await keyed('/v1/usage?from=2026-02-01&to=2026-01-01', as(t.key));
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toContain('to: must be after from');
    expect((await keyed('/v1/usage?groupBy=tenant', as(t.key))).status).toBe(400);
    expect((await keyed('/v1/usage?from=yesterday', as(t.key))).status).toBe(400);
  });

  it("is the caller's tenant's only; the operator reads any tenant's", async () => {
    const stranger = await tenantWithKey();
    const own = await (await keyed('/v1/usage?groupBy=key', as(stranger.key))).json<Report>();
    expect(own.tenant).toBe(stranger.tenant);
    expect(own.rows).toEqual([]);
    const viaAdmin = await (await asAdmin(`/v1/admin/tenants/${t.tenant}/usage?groupBy=key`)).json<Report>();
    const viaKey = await (await keyed('/v1/usage?groupBy=key', as(t.key))).json<Report>();
    expect({ rows: viaAdmin.rows, totals: viaAdmin.totals, tenant: viaAdmin.tenant }).toEqual({
      rows: viaKey.rows,
      totals: viaKey.totals,
      tenant: viaKey.tenant,
    });
    const csv = await asAdmin(`/v1/admin/tenants/${t.tenant}/usage?format=csv`);
    expect(csv.headers.get('Content-Type')).toContain('text/csv');
  });

  it('is 404 for a tenant the deployment has never seen, 200 for one with a row and no usage yet', async () => {
    const unknown = await asAdmin('/v1/admin/tenants/tn_nobodyherezzzz22/usage');
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toContain('tn_nobodyherezzzz22');
    const fresh = await tenantWithKey();
    const empty = await asAdmin(`/v1/admin/tenants/${fresh.tenant}/usage`);
    expect(empty.status).toBe(200);
    expect((await empty.json<Report>()).rows).toEqual([]);
  });
});
