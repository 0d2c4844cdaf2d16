/**
 * The OTLP contract: spans exported by the OpenTelemetry SDK's own OTLP exporters (HTTP JSON and protobuf) to a
 * local Tribunal arrive in their trace, normalized; a re-export of the same spans adds nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { context, trace } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_MS, WAIT_MS } from '../../support/patience.js';
import type { LocalStack } from '../../../src/cli/local-stack.js';
import { startLocalStack } from '../../../src/cli/local-stack.js';
import { seededState } from '../../support/seed-state.js';
import { preparedWorker } from '../../support/worker-ready.js';

let stack: LocalStack | undefined;

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    mockPort: 0,
    persistTo: seededState(join(mkdtempSync(join(tmpdir(), 'tribunal-otlp-')), 'state')),
    worker: preparedWorker(),
    reuseRuntime: true,
  });
}, 180_000);

/** The running stack's URL. */
function url(): string {
  if (!stack) throw new Error('the local stack did not start');
  return stack.url;
}

afterAll(async () => {
  await stack?.stop();
});

/**
 * An agent run recorded by the SDK: root agent span, a chat span, a tool span, all of one trace. The parent is
 * passed explicitly: without a registered context manager (none is, here) `startActiveSpan` activates nothing,
 * and each `startSpan` would begin a trace of its own (one span each: what kept this test waiting before).
 */
function record(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  const tracer = provider.getTracer('otlp-contract');
  // Each child a millisecond after the one before: siblings started in the same instant would be ordered by
  // their random span ids.
  const t0 = Date.now();
  const root = tracer.startSpan('invoke_agent weather', {
    startTime: t0,
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'weather' },
  });
  const parent = trace.setSpan(context.active(), root);
  tracer
    .startSpan(
      'chat gpt-4o',
      {
        startTime: t0 + 1,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.input.messages': JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
          ]),
        },
      },
      parent,
    )
    .end();
  tracer
    .startSpan(
      'execute_tool get_weather',
      {
        startTime: t0 + 2,
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather' },
      },
      parent,
    )
    .end();
  root.end();
  const spans = memory.getFinishedSpans();
  // One trace, one root: the guard against the mistake above.
  expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
  return spans;
}

function send(exporter: SpanExporter, spans: ReadableSpan[]): Promise<number> {
  return new Promise((resolve) => {
    exporter.export(spans, (r) => {
      resolve(r.code);
    });
  });
}

async function spanCount(
  traceId: string,
  atLeast: number,
): Promise<{ spanCount: number; spans: { genAi: { type: string; input: string | null } }[] }> {
  return vi.waitFor(
    async () => {
      const r = await fetch(`${url()}/v1/traces/${traceId}`);
      if (r.status !== 200) {
        await r.arrayBuffer();
        throw new Error(`trace ${traceId} not found yet (${r.status})`);
      }
      const t = (await r.json()) as { spanCount: number; spans: { genAi: { type: string; input: string | null } }[] };
      if (t.spanCount < atLeast) throw new Error(`trace ${traceId} has fewer than ${atLeast} spans`);
      return t;
    },
    { timeout: WAIT_MS, interval: 100 },
  );
}

describe('OpenTelemetry SDK exporters', () => {
  for (const [name, make] of [
    ['HTTP JSON', () => new JsonExporter({ url: `${url()}/v1/traces` })],
    // gzip as an exporter sends it (`OTEL_EXPORTER_OTLP_COMPRESSION=gzip`).
    [
      'HTTP protobuf, gzip',
      () => new ProtoExporter({ url: `${url()}/v1/traces`, compression: CompressionAlgorithm.GZIP }),
    ],
  ] as const) {
    it(
      `${name}: the spans arrive normalized; a re-export adds nothing`,
      async () => {
        const spans = record();
        const traceId = spans[0]?.spanContext().traceId ?? '';
        const exporter = make();
        expect(await send(exporter, spans)).toBe(0);
        const t = await spanCount(traceId, 3);
        expect(t.spans.map((s) => s.genAi.type)).toEqual(['agent', 'llm', 'tool']);
        expect(t.spans[1]?.genAi.input).toBe('Weather in Paris?');
        expect(await send(exporter, spans)).toBe(0);
        // Read again once a later export has arrived (the object's idempotency itself: tests/worker/traces-ingest.test.ts).
        const marker = record();
        expect(await send(exporter, marker)).toBe(0);
        await spanCount(marker[0]?.spanContext().traceId ?? '', 3);
        expect((await spanCount(traceId, 3)).spanCount).toBe(3);
        await exporter.shutdown();
      },
      TEST_MS,
    );
  }
});
