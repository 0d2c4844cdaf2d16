/**
 * `POST /v1/traces` (OTLP/HTTP) and `GET /v1/traces/{traceId}` in workerd: JSON and binary protobuf, gzip,
 * answers in the request's encoding, partial success, the OTLP failures (413 past the body or span limit, 415,
 * 400) as `google.rpc.Status`, spans through the queue into the trace's object in tree order, idempotent on
 * (traceId, spanId), one tenant's trace invisible to another, and the trace erased past the retention.
 */
import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
} from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { handleSpansDeadLetters, SPANS_DLQ, SPANS_DLQ_ATTEMPTS } from '../../queues/spans.js';
import worker from '../../src/index.js';
import type { Bindings } from '../../src/config/bindings.js';
import { decodeProtobufStatus } from '../../src/traces/otlp-proto.js';
import { opentelemetry } from '../../src/traces/otlp-proto/otlp.js';
import { deliverSpans } from '../../src/traces/ingest.js';
import { normalizeRequest } from '../../src/traces/normalize.js';
import { traceStub } from '../../src/traces/rpc.js';
import { spanRows } from '../../src/traces/store.js';
import type { OtlpStatus } from '../../src/traces/schemas.js';
import { api, apiWith } from './api-fetch.js';
import { pollUntil, testEnv } from './helpers.js';
import { tenantDb } from '../../src/config/d1-shards.js';
import { as, keyed, tenantWithKey } from './tenants-helpers.js';

interface TraceJson {
  traceId: string;
  rootSpanId: string | null;
  spanCount: number;
  spans: { spanId: string; depth: number; name: string; genAi: { type: string; requestModel: string | null } }[];
}

let n = 0;
/** A fresh trace id (32 hex). */
function newTraceId(): string {
  n += 1;
  return `${Date.now().toString(16).padStart(16, '0')}${n.toString(16).padStart(16, '0')}`;
}

const kv = (key: string, stringValue: string) => ({ key, value: { stringValue } });

/** An OTLP/JSON export of an agent run: root agent span, a chat span, a tool span. */
function agentRun(traceId: string, extra: object[] = []) {
  const t0 = 1_700_000_000_000_000_000n;
  const at = (ms: number) => String(t0 + BigInt(ms) * 1_000_000n);
  return {
    resourceSpans: [
      {
        resource: { attributes: [kv('service.name', 'weather-agent')] },
        scopeSpans: [
          {
            scope: { name: 'agent' },
            spans: [
              {
                traceId,
                spanId: '1000000000000002',
                parentSpanId: '1000000000000001',
                name: 'chat gpt-4o',
                kind: 3,
                startTimeUnixNano: at(10),
                endTimeUnixNano: at(20),
                attributes: [kv('gen_ai.operation.name', 'chat'), kv('gen_ai.request.model', 'gpt-4o')],
              },
              {
                traceId,
                spanId: '1000000000000003',
                parentSpanId: '1000000000000001',
                name: 'execute_tool get_weather',
                startTimeUnixNano: at(30),
                endTimeUnixNano: at(40),
                attributes: [kv('gen_ai.operation.name', 'execute_tool'), kv('gen_ai.tool.name', 'get_weather')],
              },
              {
                traceId,
                spanId: '1000000000000001',
                name: 'invoke_agent weather',
                startTimeUnixNano: at(0),
                endTimeUnixNano: at(50),
                attributes: [kv('gen_ai.operation.name', 'invoke_agent'), kv('gen_ai.agent.name', 'weather')],
                status: { code: 1 },
              },
              ...extra,
            ],
          },
        ],
      },
    ],
  };
}

function postOtlpJson(body: unknown, headers: Record<string, string> = {}) {
  return api('/v1/traces', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function traceOf(traceId: string, count: number): Promise<TraceJson> {
  return pollUntil(
    async () => {
      const r = await api(`/v1/traces/${traceId}`);
      return r.status === 200 ? await r.json<TraceJson>() : null;
    },
    (t) => t !== null && t.spanCount >= count,
    15_000,
  ).then((t) => t as TraceJson);
}

/** The binary encoding of an OTLP/JSON-shaped export (ids hex → bytes). */
function protobufOf(json: ReturnType<typeof agentRun>): Uint8Array {
  const bytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
  const req = {
    resourceSpans: json.resourceSpans.map((rs) => ({
      resource: rs.resource,
      scopeSpans: rs.scopeSpans.map((ss) => ({
        scope: ss.scope,
        spans: ss.spans.map((s) => {
          const span = s as {
            traceId: string;
            spanId: string;
            parentSpanId?: string;
            startTimeUnixNano: string;
            endTimeUnixNano: string;
          };
          return {
            ...s,
            traceId: bytes(span.traceId),
            spanId: bytes(span.spanId),
            parentSpanId: span.parentSpanId ? bytes(span.parentSpanId) : undefined,
          };
        }),
      })),
    })),
  };
  return opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.encode(req).finish();
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer(),
  );
}

describe('POST /v1/traces', () => {
  it('OTLP/JSON: 200 {}; the spans arrive in tree order with their GenAI reading', async () => {
    const traceId = newTraceId();
    const r = await postOtlpJson(agentRun(traceId));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(await r.json()).toEqual({});
    const t = await traceOf(traceId, 3);
    expect(t.rootSpanId).toBe('1000000000000001');
    expect(t.spans.map((s) => [s.spanId, s.depth, s.genAi.type])).toEqual([
      ['1000000000000001', 0, 'agent'],
      ['1000000000000002', 1, 'llm'],
      ['1000000000000003', 1, 'tool'],
    ]);
    expect(t.spans[1]?.genAi.requestModel).toBe('gpt-4o');
    // The trace's D1 row is written after its object has the spans (one failure beside a bench loop read it
    // first): wait on it as on any event.
    await expect
      .poll(() => testEnv.DB.prepare('SELECT root_name, service FROM traces WHERE trace_id = ?').bind(traceId).first())
      .toEqual({ root_name: 'invoke_agent weather', service: 'weather-agent' });
  });

  it('binary protobuf, gzip: 200 with an empty protobuf answer; the same spans', async () => {
    const traceId = newTraceId();
    const r = await api('/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
      body: await gzip(protobufOf(agentRun(traceId))),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-protobuf');
    const answer = opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse.decode(
      new Uint8Array(await r.arrayBuffer()),
    );
    expect(answer.partialSuccess ?? null).toBeNull();
    const t = await traceOf(traceId, 3);
    expect(t.spans.map((s) => s.name)).toEqual(['invoke_agent weather', 'chat gpt-4o', 'execute_tool get_weather']);
  });

  it('a re-export adds nothing: the object keeps each (traceId, spanId) once', async () => {
    const traceId = newTraceId();
    expect((await postOtlpJson(agentRun(traceId))).status).toBe(200);
    await traceOf(traceId, 3);
    // Re-exported with one new span in the same request (one queue message per trace): once it is there, the
    // repeats were handled too.
    const marker = {
      traceId,
      spanId: '1000000000000009',
      parentSpanId: '1000000000000001',
      name: 'marker',
      startTimeUnixNano: '1700000000090000000',
      endTimeUnixNano: '1700000000091000000',
    };
    expect((await postOtlpJson(agentRun(traceId, [marker]))).status).toBe(200);
    const t = await traceOf(traceId, 4);
    expect(t.spanCount).toBe(4);
    // The consumer's delivery repeated (a queue redelivery): nothing added.
    const spans = normalizeRequest(agentRun(traceId)).spans;
    await deliverSpans(testEnv, { tenant: 'default', traceId, retentionDays: 30, spans });
    const again = await traceStub(testEnv, 'default', traceId).append('default', traceId, spanRows(spans), 30);
    expect(again.added).toBe(0);
    expect((await traceOf(traceId, 4)).spanCount).toBe(4);
  });

  it('one message of several traces: each reaches its object, their index rows in one batch; a repeat writes nothing', async () => {
    const [a, b] = [newTraceId(), newTraceId()];
    const spans = [...normalizeRequest(agentRun(a)).spans, ...normalizeRequest(agentRun(b)).spans];
    // The root span last, in a message of its own: the index row is made first, then gains the root.
    const root = spans.filter((s) => s.traceId === b && s.parentSpanId === null);
    const rest = spans.filter((s) => !root.includes(s));
    await deliverSpans(testEnv, { tenant: 'default', retentionDays: 30, spans: rest });
    const db = tenantDb(testEnv, 'default');
    const row = (id: string) =>
      db
        .prepare('SELECT root_span_id, root_name, service FROM traces WHERE trace_id = ?')
        .bind(id)
        .first<{ root_span_id: string | null; root_name: string | null; service: string | null }>();
    expect(await row(a)).toEqual({
      root_span_id: '1000000000000001',
      root_name: 'invoke_agent weather',
      service: 'weather-agent',
    });
    expect(await row(b)).toEqual({ root_span_id: null, root_name: null, service: 'weather-agent' });
    await deliverSpans(testEnv, { tenant: 'default', traceId: b, retentionDays: 30, spans: root });
    expect((await row(b))?.root_span_id).toBe('1000000000000001');
    expect((await traceOf(a, 3)).spanCount).toBe(3);
    expect((await traceOf(b, 3)).spanCount).toBe(3);
    // A redelivery: the objects add nothing and the complete rows are not written again (a mark put on one stays).
    await db.prepare(`UPDATE traces SET root_name = 'mark' WHERE trace_id = ?`).bind(a).run();
    await deliverSpans(testEnv, { tenant: 'default', retentionDays: 30, spans });
    expect((await row(a))?.root_name).toBe('mark');
    expect((await traceOf(b, 3)).spanCount).toBe(3);
  });

  it('partial success: a span with a bad id is rejected alone (JSON and protobuf answers)', async () => {
    const traceId = newTraceId();
    const bad = { traceId, spanId: 'zz', name: 'bad', startTimeUnixNano: '1', endTimeUnixNano: '2' };
    const r = await postOtlpJson(agentRun(traceId, [bad]));
    expect(r.status).toBe(200);
    const body = await r.json<{ partialSuccess: { rejectedSpans: string; errorMessage: string } }>();
    expect(body.partialSuccess.rejectedSpans).toBe('1');
    expect(body.partialSuccess.errorMessage).toMatch(/spanId/);
    expect((await traceOf(traceId, 3)).spanCount).toBe(3);

    const pb = agentRun(newTraceId());
    pb.resourceSpans[0]?.scopeSpans[0]?.spans.push({
      ...(pb.resourceSpans[0].scopeSpans[0].spans[0] as object),
      spanId: '0000000000000000',
    });
    const r2 = await api('/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: protobufOf(pb),
    });
    const answer = opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse.decode(
      new Uint8Array(await r2.arrayBuffer()),
    );
    expect(Number(answer.partialSuccess?.rejectedSpans)).toBe(1);
  });

  it('413 past OTLP_MAX_SPANS and OTLP_MAX_BODY_BYTES (after gzip too), as a Status in the request encoding', async () => {
    const many = await apiWith({ OTLP_MAX_SPANS: '2' }, '/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(agentRun(newTraceId())),
    });
    expect(many.status).toBe(413);
    const status = await many.json<OtlpStatus>();
    expect(status.code).toBe(8);
    expect(status.message).toMatch(/3 spans, more than 2/);
    expect(status.details[0]?.reason).toBe('payload_too_large');

    const body = protobufOf(agentRun(newTraceId()));
    const big = await apiWith({ OTLP_MAX_BODY_BYTES: '100' }, '/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body,
    });
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toBe('application/x-protobuf');
    const bigStatus = decodeProtobufStatus(new Uint8Array(await big.arrayBuffer()));
    expect(bigStatus.message).toMatch(/larger than 100 bytes/);
    expect(bigStatus.reason).toBe('payload_too_large');

    const bomb = await gzip(new Uint8Array(50_000));
    const inflated = await apiWith({ OTLP_MAX_BODY_BYTES: '10000' }, '/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
      body: bomb,
    });
    expect(inflated.status).toBe(413);
    expect(decodeProtobufStatus(new Uint8Array(await inflated.arrayBuffer())).message).toMatch(/decompressed body/);
  });

  it('415 for another media type or encoding; 400 for a body that does not decode', async () => {
    const text = await api('/v1/traces', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(text.status).toBe(415);
    const br = await api('/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
      body: '{}',
    });
    expect(br.status).toBe(415);
    const badJson = await api('/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ code: 3, details: [{ reason: 'invalid_json' }] });
    const wrongShape = await postOtlpJson({ resourceSpans: 'no' });
    expect(wrongShape.status).toBe(400);
    expect((await wrongShape.json<OtlpStatus>()).details[0]?.metadata.field).toBe('resourceSpans');
    const badPb = await api('/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: new Uint8Array([10, 200]),
    });
    expect(badPb.status).toBe(400);
    expect(decodeProtobufStatus(new Uint8Array(await badPb.arrayBuffer())).code).toBe(3);
    const badGzip = await api('/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: 'not gzip',
    });
    expect(badGzip.status).toBe(400);
    // An empty export is a success.
    expect((await postOtlpJson({})).status).toBe(200);
  });
});

describe('tenants and retention', () => {
  it("one tenant's trace is another's 404; a key without evaluations:write cannot export", async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    const traceId = newTraceId();
    const r = await keyed('/v1/traces', as(a.key, { body: agentRun(traceId) }));
    expect(r.status).toBe(200);
    await pollUntil(
      async () => (await keyed(`/v1/traces/${traceId}`, as(a.key))).status,
      (s) => s === 200,
    );
    expect((await keyed(`/v1/traces/${traceId}`, as(b.key))).status).toBe(404);
    const noAuth = await keyed('/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noAuth.status).toBe(401);
    // The kernel's own failures are OTLP Status too, in the request's encoding.
    expect(await noAuth.json()).toMatchObject({ code: 16, details: [{ reason: 'unauthorized', domain: 'tribunal' }] });
    const noAuthPb = await keyed('/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: new Uint8Array(),
    });
    expect(noAuthPb.status).toBe(401);
    expect(noAuthPb.headers.get('content-type')).toBe('application/x-protobuf');
    expect(decodeProtobufStatus(new Uint8Array(await noAuthPb.arrayBuffer()))).toMatchObject({
      code: 16,
      reason: 'unauthorized',
    });
  });

  it("the trace's object erases the trace and its index row past the tenant's retention", async () => {
    const traceId = newTraceId();
    expect((await postOtlpJson(agentRun(traceId))).status).toBe(200);
    await traceOf(traceId, 3);
    const stub = traceStub(testEnv, 'default', traceId);
    // The alarm may first be the quiet period's (monitors judge a trace once it is quiet); retention's deadline
    // is kept beside it, and the alarm re-arms for it afterwards.
    const expiresAt = await runInDurableObject(stub, (_o, state) =>
      Number(state.storage.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'expiresAt'`).one().value),
    );
    expect(expiresAt).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(await runInDurableObject(stub, (_o, state) => state.storage.getAlarm())).not.toBeNull();
    await runInDurableObject(stub, async (_o, state) => {
      state.storage.sql.exec(`UPDATE meta SET value = '1' WHERE key = 'expiresAt'`);
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await api(`/v1/traces/${traceId}`)).status).toBe(404);
    const db = tenantDb(testEnv, 'default');
    expect(await db.prepare('SELECT 1 FROM traces WHERE trace_id = ?').bind(traceId).first()).toBeNull();
  });
});

describe('the spans dead-letter queue', () => {
  it("stores a dead-lettered message's spans, and gives them up only after its last try, with one error line", async () => {
    const traceId = newTraceId();
    const body = { tenant: 'default', traceId, retentionDays: 30, spans: normalizeRequest(agentRun(traceId)).spans };
    const batch = createMessageBatch(SPANS_DLQ, [{ id: 'dl1', timestamp: new Date(), attempts: 1, body }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['dl1']);
    expect((await traceOf(traceId, 3)).spanCount).toBe(3);

    // The trace's object unreachable: retried while tries are left; the last one logs the loss and acks.
    const down: Bindings = {
      ...testEnv,
      // Only the call the consumer makes first: it throws as an unreachable object would.
      TRACE: {
        idFromName: () => {
          throw new Error('object store down');
        },
      } as unknown as Bindings['TRACE'],
    };
    const lost = createMessageBatch(SPANS_DLQ, [
      { id: 'dl2', timestamp: new Date(), attempts: SPANS_DLQ_ATTEMPTS - 1, body },
      { id: 'dl3', timestamp: new Date(), attempts: SPANS_DLQ_ATTEMPTS, body },
    ]);
    const errors = vi.spyOn(console, 'error');
    try {
      const lostCtx = createExecutionContext();
      await handleSpansDeadLetters(lost, down);
      const result = await getQueueResult(lost, lostCtx);
      expect(result.retryMessages.map((m) => m.msgId)).toEqual(['dl2']);
      expect(result.explicitAcks).toEqual(['dl3']);
      const lines = errors.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('traces.spans_lost'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ tenant: 'default', traceId, spans: 3 });
    } finally {
      errors.mockRestore();
    }
  });
});
