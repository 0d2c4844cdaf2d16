/**
 * Test support for traces judged by hand and by monitors: an agent run as an OTLP/JSON export (a root agent span,
 * a chat span with GenAI input and output messages, a tool span that failed, a final chat span), exported through
 * `POST /v1/traces`, and the trace read back once its spans are stored.
 */
import { expect } from 'vitest';
import type { MonitorCounts } from '../../src/monitors/schemas.js';
import { api, postJson } from './api-fetch.js';
import { pollUntil } from './helpers.js';

let n = 0;
/** A fresh trace id (32 hex). */
export function newTraceId(): string {
  n += 1;
  return `${Date.now().toString(16).padStart(16, '0')}${(n + Math.floor(Math.random() * 1e9)).toString(16).padStart(16, '0')}`;
}

const kv = (key: string, stringValue: string) => ({ key, value: { stringValue } });
const messages = (role: string, text: string) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);

/** Span ids of {@link agentRun}. */
export const SPANS = {
  root: '1000000000000001',
  chat: '1000000000000002',
  tool: '1000000000000003',
  answer: '1000000000000004',
} as const;

/** An OTLP/JSON span. */
export type OtlpJsonSpan = Record<string, unknown>;

/** The spans of an agent run, at `t0` ms after a fixed epoch; `root: false` leaves the root span out. */
export function agentRunSpans(traceId: string, o: { root?: boolean; model?: string } = {}): OtlpJsonSpan[] {
  const t0 = 1_700_000_000_000_000_000n;
  const at = (ms: number) => String(t0 + BigInt(ms) * 1_000_000n);
  const model = o.model ?? 'gpt-4o';
  const spans: OtlpJsonSpan[] = [
    {
      traceId,
      spanId: SPANS.chat,
      parentSpanId: SPANS.root,
      name: `chat ${model}`,
      startTimeUnixNano: at(10),
      endTimeUnixNano: at(20),
      attributes: [
        kv('gen_ai.operation.name', 'chat'),
        kv('gen_ai.request.model', model),
        kv('gen_ai.input.messages', messages('user', 'What is the weather in Paris?')),
        kv('gen_ai.output.messages', messages('assistant', 'Let me look it up.')),
      ],
    },
    {
      traceId,
      spanId: SPANS.tool,
      parentSpanId: SPANS.root,
      name: 'execute_tool get_weather',
      startTimeUnixNano: at(30),
      endTimeUnixNano: at(40),
      attributes: [
        kv('gen_ai.operation.name', 'execute_tool'),
        kv('gen_ai.tool.name', 'get_weather'),
        kv('gen_ai.tool.call.arguments', '{"city":"Paris"}'),
      ],
      status: { code: 2, message: 'timeout' },
    },
    {
      traceId,
      spanId: SPANS.answer,
      parentSpanId: SPANS.root,
      name: `chat ${model}`,
      startTimeUnixNano: at(50),
      endTimeUnixNano: at(60),
      attributes: [
        kv('gen_ai.operation.name', 'chat'),
        kv('gen_ai.request.model', model),
        kv('gen_ai.input.messages', messages('user', 'What is the weather in Paris?')),
        kv('gen_ai.output.messages', messages('assistant', 'It is 20 °C in Paris.')),
      ],
    },
  ];
  if (o.root === false) return spans;
  return [
    ...spans,
    {
      traceId,
      spanId: SPANS.root,
      name: 'invoke_agent weather',
      startTimeUnixNano: at(0),
      endTimeUnixNano: at(70),
      attributes: [
        kv('gen_ai.operation.name', 'invoke_agent'),
        kv('gen_ai.agent.name', 'weather'),
        kv('gen_ai.input.messages', messages('user', 'What is the weather in Paris?')),
        kv('gen_ai.output.messages', messages('assistant', 'It is 20 °C in Paris.')),
      ],
    },
  ];
}

/** Exports `spans` as one OTLP/JSON request; resolves to the HTTP status. */
export async function exportSpans(
  spans: OtlpJsonSpan[],
  service = 'weather-agent',
  headers: Record<string, string> = {},
) {
  const r = await api('/v1/traces', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      resourceSpans: [
        { resource: { attributes: [kv('service.name', service)] }, scopeSpans: [{ scope: { name: 'agent' }, spans }] },
      ],
    }),
  });
  await r.arrayBuffer();
  return r.status;
}

/** A trace evaluation as `GET /v1/traces/{traceId}` lists it. */
export interface TraceEvaluationJson {
  id: string;
  status: string;
  spanId: string | null;
  monitorId: string | null;
  verdict: { score: number | null; firstFailingStep: { step: number; spanId: string | null } | null } | null;
}

/** `GET /v1/traces/{traceId}` as the tests read it. */
export interface TraceJson {
  traceId: string;
  spanCount: number;
  spans: { spanId: string; evaluations: TraceEvaluationJson[] }[];
  evaluations: TraceEvaluationJson[];
}

/** The trace once `ok` holds for it (polled: spans are stored a moment after the export). */
export async function traceWhen(
  traceId: string,
  ok: (t: TraceJson) => boolean,
  timeoutMs = 15_000,
): Promise<TraceJson> {
  const t = await pollUntil(
    async () => {
      const r = await api(`/v1/traces/${traceId}`);
      return r.status === 200 ? await r.json<TraceJson>() : null;
    },
    (x) => x !== null && ok(x),
    timeoutMs,
  );
  if (t === null) throw new Error(`trace ${traceId} never satisfied the condition`);
  return t;
}

/** Creates a monitor (`name: 'm'`, `sampleRate: 1` unless `body` says otherwise); its id. */
export async function monitor(body: Record<string, unknown>): Promise<string> {
  const r = await postJson('/v1/monitors', { name: 'm', sampleRate: 1, ...body });
  expect(r.status, await r.clone().text()).toBe(201);
  return (await r.json<{ id: string }>()).id;
}

/** A monitor's whole counts with every bucket `given` does not name at 0: what a test expects, written short. */
export function counts(given: Partial<MonitorCounts>): MonitorCounts {
  return { matched: 0, sampled: 0, succeeded: 0, failed: 0, skippedBudget: 0, skippedUnjudgeable: 0, ...given };
}

/** A monitor's counts, as `GET /v1/monitors/{id}` gives them. */
export async function countsOf(id: string): Promise<MonitorCounts> {
  return (await (await api(`/v1/monitors/${id}`)).json<{ counts: MonitorCounts }>()).counts;
}

/** The evaluations a monitor made (`GET /v1/evaluations?monitor=`), newest first. */
export async function evaluationsOf(id: string): Promise<{ id: string; status: string }[]> {
  return (await (await api(`/v1/evaluations?monitor=${id}`)).json<{ data: { id: string; status: string }[] }>()).data;
}
