/**
 * @module
 * THE one place where a batch's completion becomes a webhook event: `batch.completed` for a batch,
 * `meta_evaluation.completed` for a meta-evaluation (a labelled batch). Delivery belongs to the webhooks
 * concern (src/webhooks/**, its outbox and queue); this module only hands it the event, as statements of
 * the same D1 transaction that completes the batch, so the event is emitted exactly when the batch
 * completes: once, never on a repeated ending, never for a batch that another ending completed.
 *
 * Until the webhooks outbox is wired in (its `webhookEventStatements(...)` in src/webhooks/events.ts), this
 * emits nothing: the completion itself is recorded on the batch row (`status`, `completed_at`), and the
 * request's `webhook.url` is stored in `batches.webhook_url` for the delivery to use.
 */

/** Webhook event type of a completed batch, by `batches.kind`. */
export const COMPLETION_EVENT_TYPES = {
  batch: 'batch.completed',
  meta_evaluation: 'meta_evaluation.completed',
} as const;

/**
 * A batch completing in the current transaction, as SQL: `rows` is a `FROM batches b WHERE …` clause (with
 * `binds`, in order) that selects the batch row exactly in the transaction whose ending completes it, and
 * nowhere else. The row's own columns give the event's data: `b.id`, `b.tenant`, `b.kind` (its type, see
 * {@link COMPLETION_EVENT_TYPES}), `b.webhook_url`, the counts, `b.cancel_requested_at`. Times are epoch ms.
 */
export interface BatchCompletion {
  rows: string;
  binds: readonly (string | number | null)[];
  now: number;
}

/**
 * Statements that put the completion event into the webhooks outbox, run in the completing transaction
 * BEFORE the batch row is marked completed (the `rows` clause no longer matches after that).
 * Wired at merge to the webhooks concern; today: none.
 */
export function batchCompletionEventStatements(_db: D1Database, _completion: BatchCompletion): D1PreparedStatement[] {
  return [];
}
