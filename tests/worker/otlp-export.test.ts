/**
 * The tenant's OTLP export in workerd, to the test receiver (tests/support/webhook-receiver.ts) over real HTTP:
 * each finished evaluation made of a trace (by a monitor or by hand) arrives once at `<endpoint>/v1/logs` as a
 * `gen_ai.evaluation.result` log record on the judged span, decoded with the same protobufjs code; nothing for an
 * evaluation without a source or a tenant without an export; a redelivery sends nothing new; a 500 is retried, a
 * 400 is not; the header values (secrets) appear in no response; the settings' 400s name the field.
 */
import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import { afterEnding, markEnded } from '../../src/ending-plan.js';
import { attemptDelivery } from '../../src/webhooks/deliver.js';
import { OTLP_RECEIVERS } from '../../src/exports/delivery.js';
import { hexOf } from '../../src/traces/otlp-proto.js';
import { opentelemetry } from '../../src/traces/otlp-proto/otlp.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, insertJob, newTestId, PAIRWISE, POINTWISE, testEnv, waitForEnd } from './helpers.js';
import { agentRunSpans, exportSpans, newTraceId, SPANS } from './monitors-support.js';
import { configureSink, hookEnv, makeDue, runConsumer, sinkUrl } from './webhooks-helpers.js';

afterEach(drainAlarms);

/** A request as the receiver recorded it (the fields this file reads). */
interface Got {
  subpath: string;
  headers: Record<string, string>;
  body: string;
  bodyBase64: string;
}

/** One log record, read from either encoding: its ids in hex and its attributes by key. */
interface Record_ {
  eventName: string;
  traceId: string;
  spanId: string;
  attributes: Record<string, string | number | boolean>;
}

async function requestsAt(name: string): Promise<Got[]> {
  const r = await fetch(`${hookEnv.TEST_RECEIVER_URL}/_control/sinks/${name}`);
  return (await r.json<{ requests: Got[] }>()).requests;
}

async function requestsWhen(name: string, n: number): Promise<Got[]> {
  await expect.poll(async () => (await requestsAt(name)).length, { timeout: WAIT_MS, interval: 50 }).toBe(n);
  return requestsAt(name);
}

/** The records of a protobuf body, decoded with the generated OTLP code. */
function decodeProtobuf(got: Got): Record_[] {
  const bytes = Uint8Array.from(atob(got.bodyBase64), (c) => c.charCodeAt(0));
  const req = opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest.decode(bytes);
  return req.resourceLogs.flatMap((rl) =>
    (rl.scopeLogs ?? []).flatMap((sl) =>
      (sl.logRecords ?? []).map((r) => ({
        eventName: r.eventName ?? '',
        traceId: hexOf(r.traceId),
        spanId: hexOf(r.spanId),
        attributes: Object.fromEntries(
          (r.attributes ?? []).map((a) => [
            a.key ?? '',
            a.value?.stringValue ?? a.value?.doubleValue ?? a.value?.boolValue ?? String(a.value?.intValue),
          ]),
        ),
      })),
    ),
  );
}

/** The records of an OTLP/JSON body. */
function decodeJson(got: Got): Record_[] {
  interface J {
    resourceLogs: {
      scopeLogs: {
        logRecords: {
          eventName: string;
          traceId: string;
          spanId?: string;
          attributes: { key: string; value: Record<string, string | number | boolean> }[];
        }[];
      }[];
    }[];
  }
  const body = JSON.parse(got.body) as J;
  return body.resourceLogs.flatMap((rl) =>
    rl.scopeLogs.flatMap((sl) =>
      sl.logRecords.map((r) => ({
        eventName: r.eventName,
        traceId: r.traceId,
        spanId: r.spanId ?? '',
        attributes: Object.fromEntries(r.attributes.map((a) => [a.key, Object.values(a.value)[0] ?? ''])),
      })),
    ),
  );
}

function putExports(body: unknown): Promise<Response> {
  return api('/v1/exports', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The OTLP deliveries of evaluation `id`'s events. */
async function otlpDeliveries(id: string): Promise<{ id: string; status: string; attempts: number }[]> {
  const { results } = await testEnv.DB.prepare(
    `SELECT d.id, d.status, d.attempts FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
     WHERE e.subject_id = ? AND d.target = 'otlp'`,
  )
    .bind(id)
    .all<{ id: string; status: string; attempts: number }>();
  return results;
}

interface ExportView {
  otlp: {
    logsUrl: string;
    protocol: string;
    headers: string[];
    delivery: {
      lastSuccessAt: string | null;
      lastStatusCode: number | null;
      lastError: { message: string } | null;
    };
  } | null;
}

/** An evaluation of the test tenant made of `traceId`'s span `spanId` by hand, ended by the test (no queue kick). */
async function endedSourced(status: 'failed' | 'cancelled', traceId: string, spanId: string): Promise<string> {
  const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: 'default' });
  await testEnv.DB.prepare('UPDATE evaluations SET source = ? WHERE id = ?')
    .bind(JSON.stringify({ traceId, spanId, monitorId: null }), id)
    .run();
  const error = status === 'failed' ? { code: 'llm_failed', message: 'ended by the test' } : null;
  expect(await markEnded(testEnv.DB, id, status, error, Date.now())).toBe(true);
  return id;
}

const SECRET = 'sk-otlp-secret-0e4b';

describe('the OTLP export', () => {
  it('sends each finished evaluation made of a trace once, as gen_ai.evaluation.result on its span', async () => {
    const judge = { preset: 'geval-summeval', config: { defaults: { model: mockModel({ seed: newTestId('ox') }) } } };
    const traceId = newTraceId();
    // No export yet: a sourced evaluation ends with no OTLP delivery.
    const before = await postJson('/v1/evaluations', { ...judge, task: POINTWISE, source: { traceId } });
    const beforeId = (await before.json<{ id: string }>()).id;
    expect((await waitForEnd(beforeId)).status).toBe('succeeded');
    expect(await otlpDeliveries(beforeId)).toEqual([]);

    await configureSink('otlp-pb', []);
    const put = await putExports({
      otlp: { endpoint: sinkUrl('otlp-pb'), headers: { Authorization: `Bearer ${SECRET}`, 'x-scope': 'team-a' } },
    });
    expect(put.status).toBe(200);
    const putText = await put.text();
    expect(putText).not.toContain(SECRET);
    expect((JSON.parse(putText) as ExportView).otlp).toMatchObject({
      logsUrl: `${sinkUrl('otlp-pb')}/v1/logs`,
      protocol: 'http/protobuf',
      headers: ['Authorization', 'x-scope'],
    });

    const service = `ox-${newTestId('svc')}`;
    const made = await postJson('/v1/monitors', {
      name: 'm',
      sampleRate: 1,
      filter: { service, model: 'gpt-4o' },
      scope: 'span',
      judge: {
        preset: 'rubric-judge',
        config: { defaults: { model: mockModel({ seed: newTestId('oxm') }) } },
        aspect: { name: 'helpfulness', description: 'How well the answer helps.', scale: { min: 1, max: 5 } },
      },
    });
    expect(made.status).toBe(201);
    const monitorId = (await made.json<{ id: string }>()).id;
    expect(await exportSpans(agentRunSpans(traceId), service)).toBe(200);
    const byHand = await postJson('/v1/evaluations', {
      ...judge,
      task: POINTWISE,
      source: { traceId, spanId: SPANS.tool },
    });
    const handId = (await byHand.json<{ id: string }>()).id;
    const plain = await postJson('/v1/evaluations', { ...judge, task: POINTWISE });
    const plainId = (await plain.json<{ id: string }>()).id;

    // Two spans judged by the monitor, one by hand: three requests, one record each.
    const got = await requestsWhen('otlp-pb', 3);
    const records = got.flatMap(decodeProtobuf);
    expect(records).toHaveLength(3);
    for (const g of got) {
      expect(g.subpath).toBe('/v1/logs');
      expect(g.headers['content-type']).toBe('application/x-protobuf');
      expect(g.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(g.headers['x-scope']).toBe('team-a');
    }
    const monitored = records.filter((r) => r.attributes['tribunal.monitor.id'] === monitorId);
    expect(monitored.map((r) => r.spanId).sort()).toEqual([SPANS.chat, SPANS.answer].sort());
    const hand = records.find((r) => r.attributes['tribunal.evaluation.id'] === handId);
    expect(hand).toMatchObject({ eventName: 'gen_ai.evaluation.result', traceId, spanId: SPANS.tool });
    expect(hand?.attributes).not.toHaveProperty('tribunal.monitor.id');
    expect(hand?.attributes['gen_ai.evaluation.name']).toBe('geval-summeval');
    for (const r of records) {
      expect(r).toMatchObject({ eventName: 'gen_ai.evaluation.result', traceId });
      const id = String(r.attributes['tribunal.evaluation.id']);
      const ev = await (await api(`/v1/evaluations/${id}`)).json<{ verdict: { score: number } }>();
      expect(r.attributes['gen_ai.evaluation.score.value']).toBe(ev.verdict.score);
    }
    expect(monitored[0]?.attributes['gen_ai.evaluation.name']).toBe('rubric-judge');

    // Not made of a trace: no delivery at all.
    expect((await waitForEnd(plainId)).status).toBe('succeeded');
    expect(await otlpDeliveries(plainId)).toEqual([]);

    // A redelivery sends nothing new: the queue message again, the attempt again, the after-commit step again.
    const ids = (await Promise.all(records.map((r) => otlpDeliveries(String(r.attributes['tribunal.evaluation.id'])))))
      .flat()
      .map((d) => {
        expect(d).toMatchObject({ status: 'delivered', attempts: 1 });
        return d.id;
      });
    expect(ids).toHaveLength(3);
    expect((await runConsumer(ids)).acked).toHaveLength(3);
    for (const id of ids)
      expect(await attemptDelivery(hookEnv, id, Date.now(), OTLP_RECEIVERS)).toEqual({
        kind: 'skipped',
        why: 'not_pending',
      });
    await afterEnding(hookEnv, handId);
    expect(await requestsAt('otlp-pb')).toHaveLength(3);
    // Its attempts are the export's (below), not in the webhooks' delivery log.
    expect((await (await api(`/v1/webhook-deliveries?subject=${handId}`)).json<{ data: unknown[] }>()).data).toEqual(
      [],
    );
    expect((await api(`/v1/webhook-deliveries/${ids[0] ?? ''}/retry`, { method: 'POST' })).status).toBe(404);

    const read = await api('/v1/exports');
    const readText = await read.text();
    expect(readText).not.toContain(SECRET);
    expect((JSON.parse(readText) as ExportView).otlp?.delivery).toMatchObject({ lastStatusCode: 200, lastError: null });
    expect((JSON.parse(readText) as ExportView).otlp?.delivery.lastSuccessAt).toEqual(expect.any(String));
  });

  it('retries a 500 until acknowledged, then never again; a 400 is not retried (OTLP/JSON)', async () => {
    await configureSink('otlp-json', [], [500, 200]);
    expect(
      (
        await putExports({
          otlp: { endpoint: sinkUrl('otlp-json'), protocol: 'http/json', headers: { 'x-api-key': SECRET } },
        })
      ).status,
    ).toBe(200);
    const traceId = newTraceId();
    const id = await endedSourced('failed', traceId, SPANS.chat);
    const [dlv] = await otlpDeliveries(id);
    if (!dlv) throw new Error('no OTLP delivery');

    const first = await attemptDelivery(hookEnv, dlv.id, Date.now(), OTLP_RECEIVERS);
    expect(first.kind).toBe('retry');
    const failing = (await (await api('/v1/exports')).json<ExportView>()).otlp?.delivery;
    expect(failing).toMatchObject({ lastStatusCode: 500, lastSuccessAt: null, lastError: { message: 'HTTP 500' } });
    await makeDue(dlv.id);
    expect(await attemptDelivery(hookEnv, dlv.id, Date.now(), OTLP_RECEIVERS)).toEqual({ kind: 'delivered' });
    await makeDue(dlv.id);
    expect((await attemptDelivery(hookEnv, dlv.id, Date.now(), OTLP_RECEIVERS)).kind).toBe('skipped');

    const got = await requestsAt('otlp-json');
    expect(got).toHaveLength(2);
    expect(got[1]?.body).toBe(got[0]?.body);
    expect(got[0]?.headers['content-type']).toBe('application/json');
    expect(got[0]?.headers['x-api-key']).toBe(SECRET);
    const [record] = decodeJson(got[0]!);
    expect(record).toMatchObject({ eventName: 'gen_ai.evaluation.result', traceId, spanId: SPANS.chat });
    expect(record?.attributes).toMatchObject({ 'error.type': 'llm_failed', 'tribunal.evaluation.id': id });
    expect(record?.attributes).not.toHaveProperty('gen_ai.evaluation.score.value');
    expect((await (await api('/v1/exports')).json<ExportView>()).otlp?.delivery.lastStatusCode).toBe(200);

    await configureSink('otlp-json', [], [400]);
    const refusedId = await endedSourced('failed', traceId, SPANS.tool);
    const [refused] = await otlpDeliveries(refusedId);
    expect((await attemptDelivery(hookEnv, refused?.id ?? '', Date.now(), OTLP_RECEIVERS)).kind).toBe('failed');
    expect(await otlpDeliveries(refusedId)).toMatchObject([{ status: 'failed', attempts: 1 }]);
    // A cancelled evaluation is no result: no delivery.
    const cancelled = await endedSourced('cancelled', traceId, SPANS.answer);
    expect(await otlpDeliveries(cancelled)).toEqual([]);
  });

  it('refuses bad settings with a 400 naming the field; null removes the export', async () => {
    const bad = async (otlp: unknown, field: string) => {
      const r = await putExports({ otlp });
      expect(r.status).toBe(400);
      expect(JSON.stringify((await r.json<ErrorJson>()).error)).toContain(field);
    };
    await bad({ endpoint: 'http://collector.example.com' }, 'otlp.endpoint');
    await bad({ endpoint: 'https://collector.example.com', headers: { 'Content-Type': 'text/plain' } }, 'otlp.headers');
    await bad({ endpoint: 'https://collector.example.com', headers: { 'bad name': 'x' } }, 'otlp.headers');
    await bad({ endpoint: 'https://collector.example.com', protocol: 'grpc' }, 'otlp.protocol');
    await bad({ endpoint: 'https://collector.example.com', extra: 1 }, 'extra');

    expect(await (await putExports({ otlp: null })).json()).toEqual({ otlp: null });
    expect(await (await api('/v1/exports')).json()).toEqual({ otlp: null });
    const id = await endedSourced('failed', newTraceId(), SPANS.chat);
    expect(await otlpDeliveries(id)).toEqual([]);
  });
});
