/**
 * @module
 * `evaluation.succeeded` / `evaluation.failed` / `evaluation.cancelled`: the effect of an ending
 * (listed in src/ending-plan.ts) writing its event into the outbox, in the ending's own transaction,
 * guarded by `endingGuard`, so there is exactly one event per ended evaluation, whoever ended it.
 *
 * The payload's `data` ({@link EvaluationEventDataSchema}) is built in SQL inside that transaction: the
 * final write inserts the verdict and usage rows before its effects run, so the event carries them. No
 * transcript: `links.transcript` points to it. A cancel written before calls in flight finished shows the
 * usage stored so far (`GET /v1/evaluations/{id}` has the final figures).
 */
import { z } from 'zod';
import type { Ending, EndingEffect } from './ending.js';
import { endingGuard } from './ending.js';
import type { WebhookEventDoc } from '../webhooks/event-docs.js';
import type { ExtraRecipient, WebhookEventType } from '../webhooks/outbox.js';
import { webhookEventStatements } from '../webhooks/outbox.js';
import { rawSql, sql, SqlExpr } from '../webhooks/sql.js';
import { taskKindSql } from './task-rows.js';
import { EvaluationSourceSchema } from './source.js';

/** `data` of an evaluation event. Times are ISO 8601 UTC; links are relative to the API's origin. */
export const EvaluationEventDataSchema = z
  .object({
    id: z.string(),
    status: z.enum(['succeeded', 'failed', 'cancelled']),
    method: z.string(),
    preset: z.string().nullable(),
    taskKind: z.enum(['pairwise', 'pointwise', 'trajectory']),
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
    /** The verdict without its transcript (as `GET /v1/evaluations/{id}` shows it); null unless succeeded. */
    verdict: z.record(z.string(), z.unknown()).nullable(),
    /** Why it failed or was cancelled; null when it succeeded. */
    error: z.object({ code: z.string(), message: z.string() }).strict().nullable(),
    usage: z
      .object({
        calls: z.number().int(),
        promptTokens: z.number().int(),
        completionTokens: z.number().int(),
        cachedPromptTokens: z.number().int(),
        estimated: z.boolean(),
        costUsd: z.number(),
      })
      .strict(),
    /** The rubric it judged by (`{id?, version?, hash}`, as `GET /v1/evaluations/{id}` shows it), or null. */
    rubric: z
      .object({ id: z.string().optional(), version: z.number().int().optional(), hash: z.string() })
      .strict()
      .nullable(),
    /**
     * The trace, span and monitor it judged (`GET /v1/evaluations/{id}`'s `source`), so a receiver files the
     * verdict with the span it came from; null when it was not made of a trace.
     */
    source: z
      .union([EvaluationSourceSchema, z.null()])
      .describe(
        'The trace, span and monitor it judged (`monitorId` null when made by hand), or null when not made of a trace.',
      ),
    createdAt: z.string(),
    finishedAt: z.string(),
    links: z.object({ self: z.string(), transcript: z.string(), events: z.string() }).strict(),
  })
  .strict()
  .meta({ id: 'EvaluationEventData' });
/** `data` of an evaluation event. */
export type EvaluationEventData = z.infer<typeof EvaluationEventDataSchema>;

/** The evaluation's events as the OpenAPI document's `webhooks` section shows them (src/webhooks/event-docs.ts). */
export const EVALUATION_WEBHOOK_DOCS = {
  'evaluation.succeeded': {
    data: EvaluationEventDataSchema,
    what: 'An evaluation ended with a verdict (`data.verdict`, without the transcript: follow `data.links.transcript`).',
  },
  'evaluation.failed': {
    data: EvaluationEventDataSchema,
    what: 'An evaluation failed (`data.error` says why, e.g. an LLM failure after its retries).',
  },
  'evaluation.cancelled': { data: EvaluationEventDataSchema, what: 'An evaluation was cancelled.' },
} satisfies Partial<Record<WebhookEventType, WebhookEventDoc>>;

/**
 * An integer bound as one: D1 binds every JS number as REAL, which `json_object` writes `2.0`, and a strict
 * receiver (Go's `int`, Rust's `u32`) refuses that for a field the document says is an integer.
 */
function int(n: number | undefined): SqlExpr {
  return sql`CAST(${n ?? 0} AS INTEGER)`;
}

/** The `data` document of `ending`, as SQL giving JSON text (see {@link EvaluationEventDataSchema}). */
function evaluationData(ending: Ending): SqlExpr {
  const { id, status, error, written } = ending;
  // The final write's status update writes the verdict and the usage sums after this statement runs: its values.
  const u = written?.usage;
  const finishedAt = new Date(ending.now).toISOString();
  return sql`SELECT json_object(
      'id', e.id, 'status', ${status}, 'method', e.method, 'preset', e.preset,
      'taskKind', ${rawSql(taskKindSql('e'))},
      'metadata', json(e.metadata),
      'verdict', CASE WHEN e.deleted_at IS NULL THEN json(${written?.verdictJson ?? null}) END,
      'error', CASE WHEN ${error?.code ?? null} IS NULL THEN NULL
        ELSE json_object('code', ${error?.code ?? null}, 'message', ${error?.message ?? ''}) END,
      'usage', json_object(
          'calls', COALESCE(e.billed_calls, ${int(u?.calls)}),
          'promptTokens', CASE WHEN e.billed_calls IS NULL THEN ${int(u?.promptTokens)} ELSE e.prompt_tokens END,
          'completionTokens', CASE WHEN e.billed_calls IS NULL THEN ${int(u?.completionTokens)} ELSE e.completion_tokens END,
          'cachedPromptTokens', CASE WHEN e.billed_calls IS NULL THEN ${int(u?.cachedPromptTokens)} ELSE e.cached_prompt_tokens END,
          'estimated', json(CASE WHEN (CASE WHEN e.billed_calls IS NULL THEN ${u?.estimated ? 1 : 0} ELSE e.usage_estimated END) != 0
            THEN 'true' ELSE 'false' END),
          'costUsd', (CASE WHEN e.billed_calls IS NULL THEN ${u?.costUsd ?? 0} ELSE e.cost_usd END) + 0.0),
      'rubric', json(CASE WHEN e.rubric_hash IS NULL THEN NULL
        WHEN e.rubric_id IS NULL THEN json_object('hash', e.rubric_hash)
        ELSE json_object('id', e.rubric_id, 'version', e.rubric_version, 'hash', e.rubric_hash) END),
      'source', json(e.source),
      'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', e.created_at / 1000.0, 'unixepoch'),
      'finishedAt', ${finishedAt},
      'links', json_object('self', '/v1/evaluations/' || e.id, 'transcript', '/v1/evaluations/' || e.id || '/transcript',
        'events', '/v1/evaluations/' || e.id || '/events'))
    FROM evaluations e WHERE e.id = ${id}`;
}

/** Further recipients of an ending's event (e.g. the tenant's OTLP export), chosen by the composition. */
export type EndingRecipients = (ending: Ending) => readonly ExtraRecipient[];

/**
 * The ending's event (type `evaluation.<status>`) and its deliveries, to every subscribed endpoint of the
 * evaluation's tenant, to its one-off `webhook.url`, if any, and to the `extra` recipients whose condition holds:
 * an effect of every ending (src/ending-plan.ts).
 */
export function evaluationWebhookEvent(extra: EndingRecipients = () => []): EndingEffect {
  return {
    name: 'the evaluation.<status> webhook event and its deliveries',
    handedOn: true,
    statements: (db, ending) => {
      const { id } = ending;
      const type: WebhookEventType = `evaluation.${ending.status}`;
      return webhookEventStatements(db, {
        tenant: sql`SELECT tenant FROM evaluations WHERE id = ${id}`,
        type,
        subjectId: id,
        data: evaluationData(ending),
        oneOffUrl: sql`SELECT webhook_url FROM evaluations WHERE id = ${id}`,
        extraRecipients: extra(ending),
        guard: new SqlExpr(endingGuard(ending.status), [id]),
        causeId: id,
        now: ending.now,
      });
    },
  };
}
