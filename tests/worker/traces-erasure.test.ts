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
import type { SpanRow } from '../../src/traces/store.js';
import { CONTENT_HOLD_MAX_MS, spanRows, TraceStore } from '../../src/traces/store.js';
import { configOf } from '../../src/config/vars.js';
import type { TraceDO } from '../../durable-objects/trace/index.js';
import { tenantDb } from '../../src/config/d1-shards.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, newTestId, pollUntil, POINTWISE, testEnv, waitForEnd } from './helpers.js';
import { countsOf, evaluationsOf, monitor, newTraceId } from './monitors-support.js';
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
    // The tenant that stores no content keeps the texts, its alarm armed for the quiet period; the other has none due.
    expect(await objectText(none.tenant, hidden)).toContain('123-45-6789');
    await quietOver(none.tenant, hidden);

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

/** A span of `traceId` (a root when `parent` is null; ended unless `ended` is false) whose input says `marker`. */
function spanOf(traceId: string, spanId: string, parent: string | null, marker: string): SpanRow[] {
  const span = { ...chatSpan(traceId, marker), spanId, ...(parent === null ? {} : { parentSpanId: parent }) };
  const body = {
    resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent' }, spans: [span] }] }],
  };
  return spanRows(normalizeRequest(body).spans);
}

/** The trace object's store and its meta value `key`. */
function metaOf(tenant: string, traceId: string, key: string): Promise<number | null> {
  return runInDurableObject(traceStub(testEnv, tenant, traceId), (_o, state) => {
    const row = state.storage.sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', key).toArray()[0];
    return row ? Number(row.value) : null;
  });
}

/** Runs the trace's alarm as if its quiet period were over now. */
async function quietOver(tenant: string, traceId: string): Promise<void> {
  const stub = traceStub(testEnv, tenant, traceId);
  expect(await metaOf(tenant, traceId, 'quietUntil')).not.toBeNull();
  await runInDurableObject(stub, (_o, state) => {
    state.storage.sql.exec(`UPDATE meta SET value = '1' WHERE key = 'quietUntil'`);
  });
  expect(await runDurableObjectAlarm(stub)).toBe(true);
}

describe('storeContent: false, a trace exported in batches (its root last)', () => {
  it('holds the texts until the quiet period after the last span once the root ended; each span restarts it', async () => {
    const tenant = `nocontent-${newTestId('t')}`;
    const traceId = newTraceId();
    const stub = traceStub(testEnv, tenant, traceId);
    const marker = `held ${newTestId('m')}`;
    const quiet = configOf(testEnv).TRACE_QUIET_MS;
    await stub.append(tenant, traceId, spanOf(traceId, '4000000000000002', '4000000000000001', marker), 30, false);
    // Armed by the first batch, with the texts there.
    const first = await metaOf(tenant, traceId, 'lastSpanAt');
    expect(await metaOf(tenant, traceId, 'quietUntil')).toBe((first ?? 0) + quiet);
    expect(await objectText(tenant, traceId)).toContain(marker);
    // The quiet period over with no root yet: the texts stay, held to the cap.
    await quietOver(tenant, traceId);
    expect(await objectText(tenant, traceId)).toContain(marker);
    expect(await metaOf(tenant, traceId, 'quietUntil')).toBe((first ?? 0) + CONTENT_HOLD_MAX_MS);
    // A later batch restarts the quiet period (even from a later deadline).
    await runInDurableObject(stub, (_o, state) => {
      state.storage.sql.exec(`UPDATE meta SET value = '99999999999999' WHERE key = 'quietUntil'`);
    });
    await stub.append(tenant, traceId, spanOf(traceId, '4000000000000003', '4000000000000001', marker), 30, false);
    const second = await metaOf(tenant, traceId, 'lastSpanAt');
    expect(await metaOf(tenant, traceId, 'quietUntil')).toBe((second ?? 0) + quiet);
    // The root ends last; then, its quiet period over, only hashes stay.
    await stub.append(tenant, traceId, spanOf(traceId, '4000000000000001', null, marker), 30, false);
    expect(await objectText(tenant, traceId)).toContain(marker);
    await quietOver(tenant, traceId);
    expect(await objectText(tenant, traceId)).not.toContain(marker);
    expect(await objectText(tenant, traceId)).toContain(await sha256Hex(marker));
  });

  it('hashes the texts at the cap when the root never ends', async () => {
    const tenant = `nocontent-${newTestId('t')}`;
    const traceId = newTraceId();
    const stub = traceStub(testEnv, tenant, traceId);
    const marker = `capped ${newTestId('m')}`;
    await stub.append(tenant, traceId, spanOf(traceId, '4000000000000002', '4000000000000001', marker), 30, false);
    await quietOver(tenant, traceId);
    expect(await objectText(tenant, traceId)).toContain(marker);
    await runInDurableObject(stub, (_o, state) => {
      state.storage.sql.exec(`UPDATE meta SET value = '1' WHERE key = 'contentSince'`);
    });
    await quietOver(tenant, traceId);
    expect(await objectText(tenant, traceId)).not.toContain(marker);
  });

  it('arms the quiet period before the monitors match: a failure there keeps no text past it', async () => {
    const tenant = `nocontent-${newTestId('t')}`;
    const traceId = newTraceId();
    const marker = `unmatched ${newTestId('m')}`;
    await runInDurableObject(traceStub(testEnv, tenant, traceId), async (instance: TraceDO) => {
      const runner = (instance as unknown as { monitors: { onSpans: () => Promise<void> } }).monitors;
      runner.onSpans = () => Promise.reject(new Error('D1 down'));
      await expect(
        instance.append(tenant, traceId, spanOf(traceId, '4000000000000001', null, marker), 30, false),
      ).rejects.toThrow('D1 down');
    });
    expect(await metaOf(tenant, traceId, 'quietUntil')).not.toBeNull();
    await quietOver(tenant, traceId);
    expect(await objectText(tenant, traceId)).not.toContain(marker);
  });

  it('an append while the texts are being hashed stays held for the next alarm', async () => {
    const tenant = `nocontent-${newTestId('t')}`;
    const traceId = newTraceId();
    const marker = `raced ${newTestId('m')}`;
    const held = await runInDurableObject(traceStub(testEnv, tenant, traceId), async (_o, state) => {
      const store = new TraceStore({ sql: state.storage.sql, storage: state.storage, d1: () => testEnv.DB });
      await store.append(tenant, traceId, spanOf(traceId, '4000000000000002', '4000000000000001', marker), 0, false);
      const hashing = store.eraseContent();
      await store.append(tenant, traceId, spanOf(traceId, '4000000000000001', null, marker), 0, false);
      await hashing;
      return store.holdsContent();
    });
    expect(held).toBe(true);
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

  it('leaves the tombstone with the wipe: a crash after it keeps a later span out', async () => {
    const tenant = `erase-${newTestId('t')}`;
    const traceId = newTraceId();
    const marker = `wiped ${newTestId('m')}`;
    const stub = traceStub(testEnv, tenant, traceId);
    await stub.append(tenant, traceId, spanOf(traceId, '4000000000000001', null, marker), 30);
    await runInDurableObject(stub, async (_o, state) => {
      // A storage whose wipe is the last thing done: the object dies right after it.
      const storage = new Proxy(state.storage, {
        get(target, key) {
          if (key === 'deleteAll')
            return async () => {
              await target.deleteAll();
              throw new Error('evicted');
            };
          const v: unknown = Reflect.get(target, key);
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      const store = new TraceStore({ sql: state.storage.sql, storage, d1: (t) => tenantDb(testEnv, t) });
      await store.erase(tenant).catch(() => false);
    });
    await stub.append(tenant, traceId, spanOf(traceId, '4000000000000001', null, marker), 30);
    expect(await objectText(tenant, traceId)).not.toContain(marker);
    expect(await metaOf(tenant, traceId, 'deletedAt')).not.toBeNull();
  });

  it("deletes a monitor's evaluation created while the trace was being deleted", async () => {
    const service = `inflight-${newTestId('svc')}`;
    const monitorId = await monitor({
      filter: { service },
      scope: 'span',
      judge: {
        preset: 'rubric-judge',
        config: { defaults: { model: mockModel({ seed: newTestId('inflight') }) } },
        aspect: { name: 'helpfulness', description: 'How well it helps.', scale: { min: 1, max: 5 } },
      },
    });
    const traceId = newTraceId();
    const rows = spanRows(normalizeRequest(exportOf(traceId, `inflight ${newTestId('m')}`, service)).spans);
    await runInDurableObject(traceStub(testEnv, 'default', traceId), async (instance: TraceDO) => {
      const store = (instance as unknown as { store: TraceStore }).store;
      // The DELETE lands once the judgment has read the trace (while its evaluation is being made).
      let erasing = false;
      const read = store.read.bind(store);
      store.read = (tenant) => {
        const trace = read(tenant);
        erasing = true;
        return trace;
      };
      store.deleted = () => erasing;
      await instance.append('default', traceId, rows, 30);
    });
    await expect.poll(async () => (await countsOf(monitorId)).sampled).toBe(1);
    expect(await evaluationsOf(monitorId)).toEqual([]);
  });

  it('deletes an evaluation whose source names the trace though the trace never recorded it', async () => {
    const traceId = newTraceId();
    const marker = `sourced ${newTestId('m')}`;
    const r = await api('/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(exportOf(traceId, marker, `src-${newTestId('svc')}`)),
    });
    expect(r.status).toBe(200);
    await expect.poll(() => api(`/v1/traces/${traceId}`).then((x) => x.status)).toBe(200);
    const judge = { preset: 'geval-summeval', config: { defaults: { model: mockModel({ seed: newTestId('src') }) } } };
    const made = await postJson('/v1/evaluations', { ...judge, task: POINTWISE, source: { traceId } });
    expect(made.status).toBe(202);
    const { id } = await made.json<{ id: string }>();
    expect((await waitForEnd(id)).status).toBe('succeeded');
    // As if its link to the trace had failed (or come after the erase).
    await runInDurableObject(traceStub(testEnv, 'default', traceId), (_o, state) => {
      state.storage.sql.exec('DELETE FROM evaluations');
    });
    expect((await api(`/v1/traces/${traceId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/v1/evaluations/${id}`)).status).toBe(404);
  });
});
