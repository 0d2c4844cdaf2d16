/**
 * @module
 * An evaluation event (the webhook outbox's payload, src/evaluations/webhook-event.ts) as one OTLP log record
 * `gen_ai.evaluation.result`, per the OpenTelemetry GenAI semantic conventions: the record's trace and span ids
 * are the judged span's, so Langfuse, Phoenix or Datadog show the verdict on that span. Pure.
 *
 * Attributes:
 * - `gen_ai.evaluation.name`: the preset, else the method (e.g. `chateval-faireval`, `trajectory-judge`);
 * - `gen_ai.evaluation.score.value`: the pointwise or trajectory score (on the verdict's scale), when there is one;
 * - `gen_ai.evaluation.score.label`: a pairwise verdict's winner (`A`, `B`, `tie`), or a rubric threshold's band;
 * - `gen_ai.evaluation.explanation`: the aspects' rationales and a trajectory's first failing step, when given;
 * - `error.type`: a failed evaluation's error code (no score then);
 * - `tribunal.evaluation.id`, `tribunal.evaluation.confidence`, `tribunal.monitor.id` (a monitor's only).
 * `gen_ai.response.id` is left out: the conventions ask for it when the span id is not available, and it is.
 */
import { z } from 'zod';
import type { LogAttribute, OtlpLogsRequest } from '../traces/otlp-logs.js';

/** The event's name. */
export const EVALUATION_RESULT_EVENT = 'gen_ai.evaluation.result';

/** OTLP severities the records carry: INFO for a verdict, WARN for a failed evaluation. */
const SEVERITY = { succeeded: { n: 9, text: 'INFO' }, failed: { n: 13, text: 'WARN' } } as const;

/** What a record reads of the event (the outbox's own JSON: unknown fields are ignored). */
const EventPayloadSchema = z.object({
  data: z.object({
    id: z.string(),
    status: z.enum(['succeeded', 'failed', 'cancelled']),
    method: z.string(),
    preset: z.string().nullable(),
    verdict: z
      .object({
        winner: z.string().optional(),
        score: z.number().optional(),
        confidence: z.number().optional(),
        label: z.object({ score: z.number().optional() }).optional(),
        aspects: z.array(z.object({ name: z.string(), rationale: z.string().optional() })).optional(),
        firstFailingStep: z.object({ step: z.number(), spanId: z.string().optional() }).nullable().optional(),
      })
      .nullable(),
    error: z.object({ code: z.string() }).nullable(),
    source: z
      .object({ traceId: z.string(), spanId: z.string().nullable(), monitorId: z.string().nullable() })
      .nullable(),
    finishedAt: z.string(),
  }),
});
type Verdict = NonNullable<z.infer<typeof EventPayloadSchema>['data']['verdict']>;

const str = (key: string, value: string): LogAttribute => ({ key, value: { stringValue: value } });
const num = (key: string, value: number): LogAttribute => ({ key, value: { doubleValue: value } });

/** The verdict's explanation: each aspect's rationale, and a trajectory's first failing step; null when none. */
function explanationOf(v: Verdict): string | null {
  const parts = (v.aspects ?? []).flatMap((a) => (a.rationale ? [`${a.name}: ${a.rationale}`] : []));
  const step = v.firstFailingStep;
  if (step) parts.push(`first failing step: ${step.step}${step.spanId ? ` (span ${step.spanId})` : ''}`);
  return parts.length > 0 ? parts.join('\n') : null;
}

/** The verdict's score attributes: value, label, explanation and confidence, each where the verdict has it. */
function verdictAttributes(v: Verdict): LogAttribute[] {
  const out: LogAttribute[] = [];
  if (v.score !== undefined) out.push(num('gen_ai.evaluation.score.value', v.score));
  const label = v.winner ?? (v.label?.score !== undefined ? String(v.label.score) : undefined);
  if (label !== undefined) out.push(str('gen_ai.evaluation.score.label', label));
  const explanation = explanationOf(v);
  if (explanation !== null) out.push(str('gen_ai.evaluation.explanation', explanation));
  if (v.confidence !== undefined) out.push(num('tribunal.evaluation.confidence', v.confidence));
  return out;
}

/**
 * The OTLP logs request carrying event `payload` (JSON text) as one `gen_ai.evaluation.result` record; null for
 * an event that is no finished evaluation made of a trace (a cancelled one, one without a source, another type).
 */
export function evaluationResultLogs(payload: string): OtlpLogsRequest | null {
  let parsed: z.infer<typeof EventPayloadSchema>;
  try {
    const read = EventPayloadSchema.safeParse(JSON.parse(payload));
    if (!read.success) return null;
    parsed = read.data;
  } catch {
    return null;
  }
  const d = parsed.data;
  if (d.source === null || d.status === 'cancelled') return null;
  const attributes = [str('gen_ai.evaluation.name', d.preset ?? d.method), str('tribunal.evaluation.id', d.id)];
  if (d.source.monitorId !== null) attributes.push(str('tribunal.monitor.id', d.source.monitorId));
  if (d.error) attributes.push(str('error.type', d.error.code));
  if (d.verdict) attributes.push(...verdictAttributes(d.verdict));
  const nanos = `${Date.parse(d.finishedAt)}000000`;
  const severity = SEVERITY[d.status];
  return {
    resourceLogs: [
      {
        resource: { attributes: [str('service.name', 'tribunal')] },
        scopeLogs: [
          {
            scope: { name: 'tribunal' },
            logRecords: [
              {
                timeUnixNano: nanos,
                observedTimeUnixNano: nanos,
                severityNumber: severity.n,
                severityText: severity.text,
                eventName: EVALUATION_RESULT_EVENT,
                attributes,
                traceId: d.source.traceId,
                ...(d.source.spanId !== null ? { spanId: d.source.spanId } : {}),
              },
            ],
          },
        ],
      },
    ],
  };
}
