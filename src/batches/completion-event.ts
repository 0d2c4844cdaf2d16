/**
 * @module
 * THE one place where a batch's completion becomes a webhook event: `batch.completed` for a batch,
 * `meta_evaluation.completed` for a meta-evaluation (a labelled batch). The event goes into the webhooks
 * outbox (`webhookEventStatements`, src/webhooks/outbox.ts) as statements of the same D1 transaction
 * that completes the batch, so it is emitted exactly when the batch completes: once, never on a repeated
 * ending, never for a batch another ending completed. Its cause is the ending evaluation, so the ending's
 * after-commit dispatch (src/ending-plan.ts) hands its deliveries to the queue at once.
 *
 * The ending knows its batch only in SQL, so the event id (`webhookEventId(type, batch id)`) is computed
 * when the batch is created and stored on its row ({@link completionEventId}).
 */
import { z } from '@hono/zod-openapi';
import type { WebhookEventDoc } from '../webhooks/event-docs.js';
import type { WebhookEventType } from '../webhooks/outbox.js';
import { webhookEventId, webhookEventStatements } from '../webhooks/outbox.js';
import { rawSql, sql, SqlExpr } from '../webhooks/sql.js';
import type { BatchKind } from './schemas.js';

/** Webhook event type of a completed batch, by `batches.kind`. */
export const COMPLETION_EVENT_TYPES = {
  batch: 'batch.completed',
  meta_evaluation: 'meta_evaluation.completed',
  comparison: 'comparison.completed',
} as const satisfies Record<BatchKind, WebhookEventType>;

/**
 * The kinds whose completion event is written here, in the completing transaction. A comparison's event
 * carries its statistics and gate, which need every verdict and the metrics code: its completion marks the
 * comparison in the same transaction, and the event is written with the statistics after the commit
 * (src/comparisons/finish.ts), once.
 */
const SQL_EVENT_KINDS = ['batch', 'meta_evaluation'] as const satisfies readonly BatchKind[];

/** The id of the completion event of batch `id` of `kind`, stored on its row at creation. */
export function completionEventId(kind: BatchKind, id: string): string {
  return webhookEventId(COMPLETION_EVENT_TYPES[kind], id);
}

/** `data` of `batch.completed` and `meta_evaluation.completed`. Times are ISO 8601 UTC; links relative to the API. */
export const BatchEventDataSchema = z
  .object({
    id: z.string(),
    kind: z.enum(['batch', 'meta_evaluation']),
    status: z
      .enum(['completed', 'cancelled'])
      .openapi({ description: '`cancelled` when a cancel was asked before every item ended.' }),
    method: z.string(),
    preset: z.string().nullable(),
    itemsTotal: z.number().int(),
    counts: z.object({ succeeded: z.number().int(), failed: z.number().int(), cancelled: z.number().int() }).strict(),
    createdAt: z.string(),
    completedAt: z.string(),
    links: z
      .object({
        self: z.string(),
        results: z.string(),
        metaEvaluation: z.string().nullable().openapi({ description: 'The agreement report (meta-evaluations only).' }),
      })
      .strict(),
  })
  .strict()
  .meta({
    id: 'BatchEventData',
    description: 'The completed batch; win rates, usage and cost: `links.self`; one line per item: `links.results`.',
  });
/** `data` of a batch completion event. */
export type BatchEventData = z.infer<typeof BatchEventDataSchema>;

/** The batch's events as the OpenAPI document's `webhooks` section shows them (src/webhooks/event-docs.ts). */
export const BATCH_WEBHOOK_DOCS = {
  'batch.completed': {
    data: BatchEventDataSchema,
    what: "Every item of a batch ended (`data.status` `cancelled` after a cancel); sent to the batch's `webhook.url` too. Statistics and cost: `data.links.self`; one line per item: `data.links.results`.",
  },
  'meta_evaluation.completed': {
    data: BatchEventDataSchema,
    what: 'Every item of a meta-evaluation ended: its agreement report is ready at `data.links.metaEvaluation`.',
  },
} satisfies Partial<Record<WebhookEventType, WebhookEventDoc>>;

/**
 * A batch completing in the current transaction, as SQL: `rows` is a `FROM batches b WHERE …` clause (with
 * `binds`, in order) that selects the batch row exactly in the transaction whose ending completes it, and
 * nowhere else. `causeId` is the ending evaluation (the batch itself when the sweeper completes a batch none of whose
 * items is left in D1). Times are epoch ms.
 */
export interface BatchCompletion {
  rows: string;
  binds: readonly (string | number | null)[];
  causeId: string;
  now: number;
}

/**
 * Statements that put the completion event into the webhooks outbox, run in the completing transaction
 * BEFORE the batch row is marked completed (the `rows` clause no longer matches after that): one event
 * per kind written here ({@link SQL_EVENT_KINDS}), each guarded by the batch's kind, so at most one of them
 * can write.
 */
export function batchCompletionEventStatements(db: D1Database, c: BatchCompletion): D1PreparedStatement[] {
  const completedAt = new Date(c.now).toISOString();
  const rows = new SqlExpr(c.rows, c.binds);
  return SQL_EVENT_KINDS.flatMap((kind) =>
    webhookEventStatements(db, {
      tenant: sql`SELECT b.tenant ${rows}`,
      type: COMPLETION_EVENT_TYPES[kind],
      subjectId: sql`SELECT b.id ${rows}`,
      eventId: sql`SELECT b.completion_event_id ${rows}`,
      data: sql`SELECT json_object('id', b.id, 'kind', b.kind,
          'status', CASE WHEN b.cancel_requested_at IS NULL THEN 'completed' ELSE 'cancelled' END,
          'method', b.method, 'preset', b.preset, 'itemsTotal', b.items_total,
          'counts', json_object('succeeded', b.succeeded, 'failed', b.failed, 'cancelled', b.cancelled),
          'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', b.created_at / 1000.0, 'unixepoch'), 'completedAt', ${completedAt},
          'links', json_object('self', '/v1/batches/' || b.id, 'results', '/v1/batches/' || b.id || '/results',
            'metaEvaluation', CASE WHEN b.kind = 'meta_evaluation' THEN '/v1/meta-evaluations/' || b.id END)) ${rows}`,
      oneOffUrl: sql`SELECT b.webhook_url ${rows}`,
      guard: sql`EXISTS (SELECT 1 ${rows} AND b.kind = ${rawSql(`'${kind}'`)} AND b.completion_event_id IS NOT NULL)`,
      causeId: c.causeId,
      now: c.now,
    }),
  );
}
