/**
 * A trace's texts and the tenant's content policy: a tenant that stores no content (`storeContent: false`) keeps
 * each span's texts only until its trace's monitors have taken them (the quiet period's alarm, driven here), then
 * their sha-256; `DELETE /v1/traces/{id}` erases the trace, its index row and the evaluations made of it, so a
 * marker string is found nowhere after it, and a span of it arriving later is dropped.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/http/request-hash.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { deliverSpans } from '../../src/traces/ingest.js';
import { normalizeRequest } from '../../src/traces/normalize.js';
import { traceStub } from '../../src/traces/rpc.js';
import { tenantDb } from '../../src/config/d1-shards.js';
import { api } from './api-fetch.js';
import { drainAlarms, newTestId, pollUntil, testEnv, waitForEnd } from './helpers.js';
import { evaluationsOf, monitor, newTraceId } from './monitors-support.js';
import { as, keyed, tenantWithKey } from './tenants-helpers.js';

afterEach(drainAlarms);

const kv = (key: string, stringValue: string) => ({ key, value: { stringValue } });

/** One ended chat span (a root) whose input and output say `marker`. */
function chatSpan(traceId: string, marker: string) {
  return {
    traceId,
    spanId: '3000000000000001',
    name: 'chat gpt-4o',
    startTimeUnixNano: '1700000000000000000',
    endTimeUnixNano: '1700000000100000000',
    attributes: [
      kv('gen_ai.operation.name', 'chat'),
      kv('gen_ai.request.model', 'gpt-4o'),
      kv('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: marker }] }])),
      kv(
        'gen_ai.output.messages',
        JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Noted.' }] }]),
      ),
    ],
  };
}

function exportOf(traceId: string, marker: string, service: string) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [kv('service.name', service)] },
        scopeSpans: [{ scope: { name: 'agent' }, spans: [chatSpan(traceId, marker)] }],
      },
    ],
  };
}

/** Everything the trace's object keeps, as text. */
function objectText(tenant: string, traceId: string): Promise<string> {
  return runInDurableObject(traceStub(testEnv, tenant, traceId), (_o, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB '_cf_*'")
      .toArray();
    return JSON.stringify(tables.map((t) => sql.exec(`SELECT * FROM "${t.name}"`).toArray()));
  });
}

/** Every row of every table of `db`, as text. */
async function d1Text(db: D1Database): Promise<string> {
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB '_cf_*' AND name NOT GLOB 'sqlite_*'",
    )
    .all<{ name: string }>();
  const all = await db.batch(results.map((t) => db.prepare(`SELECT * FROM "${t.name}"`)));
  return JSON.stringify(all.map((r) => r.results));
}

/** Fires the trace's quiet period now (the alarm a tenant that stores no content has its texts hashed by). */
async function quietNow(tenant: string, traceId: string): Promise<void> {
  const stub = traceStub(testEnv, tenant, traceId);
  await runInDurableObject(stub, (_o, state) => {
    state.storage.sql.exec(`UPDATE meta SET value = '1' WHERE key = 'quietUntil'`);
  });
  expect(await runDurableObjectAlarm(stub)).toBe(true);
}

interface SpanJson {
  genAi: { input: string | null; output: string | null; inputMessages: { role: string; content: string }[] | null };
  attributes: Record<string, unknown>;
}

describe('storeContent: false', () => {
  it("keeps a trace's texts until its quiet period, then only their sha-256; a storing tenant keeps them", async () => {
    const marker = `my SSN is 123-45-6789 ${newTestId('ssn')}`;
    const none = await tenantWithKey({ storeContent: false });
    const keeps = await tenantWithKey();
    const hidden = newTraceId();
    const kept = newTraceId();
    for (const [t, traceId] of [
      [none, hidden],
      [keeps, kept],
    ] as const)
      expect((await keyed('/v1/traces', as(t.key, { body: exportOf(traceId, marker, 'nocontent') }))).status).toBe(200);
    const read = (key: string, traceId: string) =>
      pollUntil(
        async () => {
          const r = await keyed(`/v1/traces/${traceId}`, as(key));
          return r.status === 200 ? await r.json<{ spans: SpanJson[] }>() : null;
        },
        (t) => t !== null,
      );
    await read(none.key, hidden);
    await read(keeps.key, kept);
    // The tenant that stores no content has its alarm armed for the quiet period; the other has none due.
    await quietNow(none.tenant, hidden);

    const after = await read(none.key, hidden);
    const span = after?.spans[0];
    expect(span?.genAi.input).toBe(`sha256:${await sha256Hex(marker)}`);
    expect(span?.genAi.output).toBe(`sha256:${await sha256Hex('Noted.')}`);
    expect(span?.genAi.inputMessages).toEqual([{ role: 'user', content: `sha256:${await sha256Hex(marker)}` }]);
    // What names rather than says stays: the model, the operation.
    expect(span?.attributes['gen_ai.request.model']).toBe('gpt-4o');
    expect(JSON.stringify(after)).not.toContain('123-45-6789');
    expect(await objectText(none.tenant, hidden)).not.toContain('123-45-6789');

    const stored = await read(keeps.key, kept);
    expect(stored?.spans[0]?.genAi.input).toBe(marker);
  });
});

describe('DELETE /v1/traces/{traceId}', () => {
  it('erases the spans, the index row and the evaluations made of the trace; 204 again; later spans dropped', async () => {
    const marker = `a marker nobody may keep ${newTestId('mark')}`;
    const service = `erase-${newTestId('svc')}`;
    const monitorId = await monitor({
      filter: { service },
      scope: 'span',
      judge: {
        preset: 'rubric-judge',
        config: { defaults: { model: mockModel({ seed: newTestId('erase') }) } },
        aspect: { name: 'helpfulness', description: 'How well it helps.', scale: { min: 1, max: 5 } },
      },
    });
    const traceId = newTraceId();
    const body = exportOf(traceId, marker, service);
    const r = await api('/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(r.status).toBe(200);
    const [made] = await pollUntil(
      () => evaluationsOf(monitorId),
      (d) => d.length === 1,
    );
    const evaluationId = made?.id ?? '';
    expect((await waitForEnd(evaluationId)).status).toBe('succeeded');
    const db = tenantDb(testEnv, 'default');
    await expect
      .poll(() => db.prepare('SELECT 1 AS x FROM traces WHERE trace_id = ?').bind(traceId).first())
      .not.toBeNull();
    expect(await objectText('default', traceId)).toContain(marker);

    expect((await api(`/v1/traces/${traceId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/v1/traces/${traceId}`)).status).toBe(404);
    expect((await api(`/v1/evaluations/${evaluationId}`)).status).toBe(404);
    expect(await db.prepare('SELECT 1 FROM traces WHERE trace_id = ?').bind(traceId).first()).toBeNull();
    expect(await objectText('default', traceId)).not.toContain(marker);
    expect(await d1Text(db)).not.toContain(marker);
    if (db !== testEnv.DB) expect(await d1Text(testEnv.DB)).not.toContain(marker);
    // Idempotent; a span of it arriving later (a redelivery, a re-export) is dropped, and writes no index row.
    expect((await api(`/v1/traces/${traceId}`, { method: 'DELETE' })).status).toBe(204);
    await deliverSpans(testEnv, { tenant: 'default', retentionDays: 30, spans: normalizeRequest(body).spans });
    expect((await api(`/v1/traces/${traceId}`)).status).toBe(404);
    expect(await objectText('default', traceId)).not.toContain(marker);
    expect(await db.prepare('SELECT 1 FROM traces WHERE trace_id = ?').bind(traceId).first()).toBeNull();
    // Another tenant's trace id, and one never seen, are 404.
    const other = await tenantWithKey();
    expect((await keyed(`/v1/traces/${traceId}`, as(other.key, { method: 'DELETE' }))).status).toBe(404);
    expect((await api(`/v1/traces/${newTraceId()}`, { method: 'DELETE' })).status).toBe(404);
  });
});
