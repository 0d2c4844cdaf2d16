/**
 * `/v1/monitors` CRUD in workerd: create (201 with zero counts), get, list, update, pause and resume, delete (404
 * after); the 400s naming the field: a pairwise judge for either scope (`judge.preset`, or `judge.config.method` when
 * a full config chose it), a sample rate out of range, an unknown filter field; a judge that needs an aspect without
 * one.
 */
import { describe, expect, it } from 'vitest';
import { api, postJson } from './api-fetch.js';
import { as, keyed, tenantWithKey } from './tenants-helpers.js';
import { MAX_MONITORS, MonitorListQuery } from '../../src/monitors/schemas.js';
import { PRESETS } from '../../src/engine/registry.js';

interface MonitorJson {
  id: string;
  name: string;
  scope: string;
  sampleRate: number;
  paused: boolean;
  dailyBudgetUsd: number | null;
  counts: { matched: number; sampled: number; succeeded: number; failed: number; skippedBudget: number };
}

interface ErrorJson {
  error: { code: string; message: string; issues?: { path: string }[] };
}

const body = {
  name: 'agent runs',
  filter: { service: 'crud-agent' },
  scope: 'trace',
  sampleRate: 1,
  judge: { preset: 'trajectory-judge' },
};

function patch(id: string, value: unknown) {
  return api(`/v1/monitors/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  });
}

describe('/v1/monitors', () => {
  it('creates, reads, lists, updates, pauses, resumes and deletes', async () => {
    const created = await postJson('/v1/monitors', body);
    expect(created.status).toBe(201);
    const m = await created.json<MonitorJson>();
    expect(m.id).toMatch(/^mon_[0-9a-f]{32}$/);
    expect(created.headers.get('Location')).toBe(`/v1/monitors/${m.id}`);
    expect(m).toMatchObject({ name: 'agent runs', scope: 'trace', sampleRate: 1, paused: false, dailyBudgetUsd: null });
    expect(m.counts).toEqual({
      matched: 0,
      sampled: 0,
      succeeded: 0,
      failed: 0,
      skippedBudget: 0,
      skippedUnjudgeable: 0,
    });

    const got = await (await api(`/v1/monitors/${m.id}`)).json<MonitorJson>();
    expect(got.id).toBe(m.id);
    const listed = await (await api('/v1/monitors')).json<{ data: MonitorJson[] }>();
    expect(listed.data.map((x) => x.id)).toContain(m.id);

    const renamed = await patch(m.id, { name: 'renamed', sampleRate: 0.5, dailyBudgetUsd: 2 });
    expect(renamed.status).toBe(200);
    expect(await renamed.json<MonitorJson>()).toMatchObject({ name: 'renamed', sampleRate: 0.5, dailyBudgetUsd: 2 });
    expect((await (await patch(m.id, { paused: true })).json<MonitorJson>()).paused).toBe(true);
    expect((await (await api(`/v1/monitors/${m.id}`)).json<MonitorJson>()).paused).toBe(true);
    const resumed = await (await patch(m.id, { paused: false, dailyBudgetUsd: null })).json<MonitorJson>();
    expect(resumed).toMatchObject({ paused: false, dailyBudgetUsd: null, name: 'renamed' });

    expect((await api(`/v1/monitors/${m.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/v1/monitors/${m.id}`)).status).toBe(404);
    expect((await api(`/v1/monitors/${m.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await patch(m.id, { paused: true })).status).toBe(404);
  });

  it('is a 400 naming the field for a judge that cannot take the scope, a bad rate, an unknown field', async () => {
    for (const scope of ['span', 'trace']) {
      const pairwise = await postJson('/v1/monitors', { ...body, scope, judge: { preset: 'fastchat-pair' } });
      expect(pairwise.status).toBe(400);
      const e = await pairwise.json<ErrorJson>();
      expect(['task_kind_unsupported', 'invalid_task']).toContain(e.error.code);
      expect(e.error.issues?.[0]?.path).toBe('judge.preset');
      // The judge is the field: the task a monitor judges is built from spans, its kind no field of the caller's.
      expect(e.error.message).toMatch(/^judge\.preset: (?!task\.kind)/);
      // Chosen by a full config's `method`, no preset sent: that is the field.
      const config = PRESETS.find((p) => p.id === 'fastchat-pair')?.config;
      const byMethod = await postJson('/v1/monitors', { ...body, scope, judge: { config } });
      expect(byMethod.status).toBe(400);
      const m = await byMethod.json<ErrorJson>();
      expect(m.error.issues?.map((i) => i.path)).toEqual(['judge.config.method']);
    }
    const rate = await postJson('/v1/monitors', { ...body, sampleRate: 1.5 });
    expect(rate.status).toBe(400);
    expect(JSON.stringify(await rate.json())).toContain('sampleRate');
    const unknown = await postJson('/v1/monitors', { ...body, filter: { color: 'red' } });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(await unknown.json())).toContain('filter');
    const noPreset = await postJson('/v1/monitors', { ...body, judge: { preset: 'no-such-preset' } });
    expect(noPreset.status).toBe(400);
    expect(JSON.stringify(await noPreset.json())).toContain('judge.preset');
    // An aspect the preset does not know, without a description: the description is what is missing.
    const noDescription = await postJson('/v1/monitors', {
      ...body,
      scope: 'span',
      judge: { preset: 'rubric-judge', aspect: { name: 'helpfulness', scale: { min: 1, max: 5 } } },
    });
    const missing = await noDescription.json<ErrorJson>();
    expect(noDescription.status, JSON.stringify(missing)).toBe(400);
    expect(missing.error.issues?.[0]?.path, JSON.stringify(missing)).toBe('judge.aspect.description');
    expect(missing.error.message).toMatch(/^judge\.aspect\.description: /);
    const badPatch = await postJson('/v1/monitors', body);
    const { id } = await badPatch.json<MonitorJson>();
    const refused = await patch(id, { judge: { preset: 'fastchat-pair' } });
    expect(refused.status).toBe(400);
    expect((await refused.json<ErrorJson>()).error.issues?.[0]?.path).toBe('judge.preset');
    await api(`/v1/monitors/${id}`, { method: 'DELETE' });
  });

  it('lists a page at a time: limit and cursor as every list; 400 naming a bad one', async () => {
    const { key } = await tenantWithKey();
    const ids: string[] = [];
    for (const name of ['first', 'second', 'third']) {
      const r = await keyed('/v1/monitors', as(key, { body: { ...body, name } }));
      expect(r.status).toBe(201);
      ids.push((await r.json<MonitorJson>()).id);
    }
    const page = async (q: string) =>
      (await keyed(`/v1/monitors${q}`, as(key))).json<{ data: MonitorJson[]; nextCursor: string | null }>();
    const one = await page('?limit=2');
    expect(one.data).toHaveLength(2);
    expect(one.nextCursor).not.toBeNull();
    const two = await page(`?limit=2&cursor=${one.nextCursor ?? ''}`);
    expect(two.nextCursor).toBeNull();
    expect([...one.data, ...two.data].map((m) => m.id).sort()).toEqual([...ids].sort());
    expect((await page('')).data).toHaveLength(3);
    // Unpaged, a caller gets every monitor a tenant may have, as before paging came.
    expect(MonitorListQuery.parse({}).limit).toBe(MAX_MONITORS);
    for (const [q, field] of [
      ['?limit=0', 'limit'],
      ['?cursor=nope', 'cursor'],
    ] as const) {
      const bad = await keyed(`/v1/monitors${q}`, as(key));
      expect(bad.status).toBe(400);
      expect(JSON.stringify(await bad.json())).toContain(field);
    }
  });
});
