/**
 * @module
 * Where an evaluation came from: a trace, one of its spans, and the monitor that made it (`source`, stored as
 * JSON in the row's `source` column, migrations/0025_monitors_and_evaluation_sources.sql). A user judging a span
 * by hand gives `{traceId, spanId?}` on `POST /v1/evaluations`; a monitor (src/monitors/) adds its `monitorId`,
 * which a request cannot set (a monitor's counts and daily budget read its evaluations by it).
 */
import { z } from '@hono/zod-openapi';
import type { Bindings } from '../config/bindings.js';
import { recordDbOf } from '../config/d1-shards.js';
import type { EvaluationStatus } from './status.js';
import { EvaluationStatusSchema } from './status.js';
import { log, messageOf } from '../log/log.js';

/** A trace id as OTLP/JSON writes it: 32 lowercase hex characters, not all zero. */
const TRACE_ID = z
  .string()
  .regex(/^[0-9a-f]{32}$/, { error: 'must be 32 lowercase hex characters' })
  .refine((s) => !/^0+$/.test(s), { error: 'must not be all zeros' });

/** A span id as OTLP/JSON writes it: 16 lowercase hex characters, not all zero. */
const SPAN_ID = z
  .string()
  .regex(/^[0-9a-f]{16}$/, { error: 'must be 16 lowercase hex characters' })
  .refine((s) => !/^0+$/.test(s), { error: 'must not be all zeros' });

/** The `source` field of `POST /v1/evaluations`: the trace (and span) this evaluation judges. */
export const SourceRequestSchema = z
  .object({
    traceId: TRACE_ID.describe('The trace judged (32 hex characters, as OTLP/JSON writes it).'),
    spanId: SPAN_ID.optional().describe('The span judged (16 hex characters); absent when the whole trace is.'),
  })
  .strict()
  .meta({
    id: 'EvaluationSourceRequest',
    description:
      'What this evaluation judges of a trace sent to `POST /v1/traces`: it is listed with the trace (`GET /v1/traces/{traceId}`) ' +
      'and found by `GET /v1/evaluations?traceId=`. The trace need not have arrived yet. Null or absent: none.',
  });

/** Where an evaluation came from, as stored and shown. */
export const EvaluationSourceSchema = z
  .object({
    traceId: TRACE_ID,
    spanId: SPAN_ID.nullable().describe('The span judged; null when the whole trace was.'),
    monitorId: z.string().nullable().describe('The monitor that made it (`mon_…`); null when made by hand.'),
  })
  .strict()
  .meta({ id: 'EvaluationSource' });
/** Where an evaluation came from. */
export type EvaluationSource = z.infer<typeof EvaluationSourceSchema>;

/** The `source` field of the evaluation's view: where it came from, or null. */
export const SourceField = z
  .union([EvaluationSourceSchema, z.null()])
  .describe('The trace, span and monitor it judged, or null when it was not made of a trace.');

/** A request's `source` as stored: made by hand, so no monitor; null without one. */
export function sourceOfRequest(s: z.infer<typeof SourceRequestSchema> | null | undefined): EvaluationSource | null {
  return s ? { traceId: s.traceId, spanId: s.spanId ?? null, monitorId: null } : null;
}

/** The stored form of a source (the row's `source` column); null without one. */
export function sourceText(source: EvaluationSource | null | undefined): string | null {
  return source ? JSON.stringify(source) : null;
}

/** A stored `source` column read back; null when empty or unreadable. */
export function sourceOfText(text: string | null): EvaluationSource | null {
  if (text === null) return null;
  try {
    const parsed = EvaluationSourceSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The source of evaluation `id` of `tenant` (one primary-key read), or null when it has none or does not exist:
 * what a finished evaluation's hook reads to find its trace and span.
 */
export async function sourceOf(env: Bindings, tenant: string, id: string): Promise<EvaluationSource | null> {
  const row = await recordDbOf(env, tenant, id)
    .prepare('SELECT source FROM evaluations WHERE id = ? AND tenant = ?')
    .bind(id, tenant)
    .first<{ source: string | null }>();
  return sourceOfText(row?.source ?? null);
}

/** An evaluation made of a trace as the trace lists it: its status and its verdict's headline. */
export const TraceEvaluationSchema = z
  .object({
    id: z.string(),
    status: EvaluationStatusSchema,
    spanId: SPAN_ID.nullable().describe('The span judged; null when the whole trace was.'),
    monitorId: z.string().nullable().describe('The monitor that made it; null when made by hand.'),
    verdict: z
      .object({
        winner: z.enum(['A', 'B', 'tie']).nullable(),
        score: z.number().nullable(),
        confidence: z.number(),
        firstFailingStep: z
          .object({ step: z.number().int().min(1), spanId: z.string().nullable() })
          .strict()
          .nullable()
          .describe("A trajectory's first failing step and its span; null otherwise."),
      })
      .strict()
      .nullable()
      .describe('Once succeeded.'),
  })
  .strict()
  .meta({ id: 'TraceEvaluation' });
/** An evaluation made of a trace as the trace lists it. */
export type TraceEvaluation = z.infer<typeof TraceEvaluationSchema>;

interface SummaryRow {
  id: string;
  status: EvaluationStatus;
  source: string | null;
  winner: 'A' | 'B' | 'tie' | null;
  score: number | null;
  confidence: number | null;
  step: number | null;
  step_span: string | null;
}

/** Most ids one summary read binds (D1 allows 100 bound parameters a statement). */
const SUMMARY_CHUNK = 90;

/**
 * The tenant's evaluations `ids` (the ones a trace's object recorded), each with its status and verdict headline,
 * in the order given; ids without a row (not created, or deleted) are left out. Primary-key reads, 90 ids a statement.
 */
export async function traceEvaluations(
  env: Bindings,
  tenant: string,
  ids: readonly string[],
): Promise<TraceEvaluation[]> {
  if (ids.length === 0) return [];
  // Each id is read in the D1 shard it names (a tenant with a spread has them in several).
  const byDb = new Map<D1Database, string[]>();
  for (const id of ids) {
    const db = recordDbOf(env, tenant, id);
    byDb.set(db, [...(byDb.get(db) ?? []), id]);
  }
  const read = async (db: D1Database, some: string[]) => {
    const chunks: string[][] = [];
    for (let i = 0; i < some.length; i += SUMMARY_CHUNK) chunks.push(some.slice(i, i + SUMMARY_CHUNK));
    return db.batch(
      chunks.map((chunk) =>
        db
          .prepare(
            `SELECT e.id, e.status, e.source, e.winner, e.score, e.confidence,
             json_extract(vt.verdict, '$.firstFailingStep.step') AS step,
             json_extract(vt.verdict, '$.firstFailingStep.spanId') AS step_span
           FROM evaluations e LEFT JOIN verdict_texts vt ON vt.evaluation_id = e.id
           WHERE e.tenant = ? AND e.deleted_at IS NULL AND e.id IN (${chunk.map(() => '?').join(', ')})`,
          )
          .bind(tenant, ...chunk),
      ),
    );
  };
  const results = (await Promise.all([...byDb].map(([db, some]) => read(db, some)))).flat();
  const byId = new Map<string, SummaryRow>();
  for (const r of results) for (const row of r.results as SummaryRow[]) byId.set(row.id, row);
  const out: TraceEvaluation[] = [];
  for (const id of ids) {
    const r = byId.get(id);
    if (!r) continue;
    const source = sourceOfText(r.source);
    out.push({
      id: r.id,
      status: r.status,
      spanId: source?.spanId ?? null,
      monitorId: source?.monitorId ?? null,
      verdict:
        r.confidence === null
          ? null
          : {
              winner: r.winner,
              score: r.score,
              confidence: r.confidence,
              firstFailingStep: r.step === null ? null : { step: r.step, spanId: r.step_span },
            },
    });
  }
  return out;
}

/**
 * Records an evaluation on its trace's object (src/traces/), handed to the evaluations' routes by the
 * composition (src/app.ts): the traces feature sits above this one.
 */
export type SourceLinker = (
  env: Bindings,
  tenant: string,
  evaluationId: string,
  source: EvaluationSource,
) => Promise<void>;

/**
 * Records a new evaluation on its trace with `link`. A failure is logged, not thrown: the evaluation exists and
 * its row keeps the source (`GET /v1/evaluations?traceId=` finds it); only the trace's own listing misses it.
 */
export async function recordSource(
  link: SourceLinker,
  env: Bindings,
  tenant: string,
  evaluationId: string,
  source: EvaluationSource | null,
): Promise<void> {
  if (source === null) return;
  try {
    await link(env, tenant, evaluationId, source);
  } catch (err) {
    log('warn', 'api.trace_link_failed', { evaluationId, traceId: source.traceId, error: messageOf(err) });
  }
}
