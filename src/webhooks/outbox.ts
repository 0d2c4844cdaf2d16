/**
 * @module
 * Writing webhook events into the outbox: THE function every producer of an event calls
 * ({@link webhookEventStatements}). It returns D1 statements to run inside the producer's own `batch()`
 * (one transaction), so an event exists exactly when its cause was committed, once: the event id is
 * derived from `type` and the subject ({@link webhookEventId}), the insert is `ON CONFLICT DO NOTHING`,
 * and every statement carries the producer's guard (e.g. `endingGuard(status)`). In the same
 * transaction the event is fanned out into one `webhook_deliveries` row per recipient: each enabled
 * endpoint of the tenant subscribed to the type, plus the one-off URL if there is one. Delivery happens
 * later (./dispatch.ts, queues/webhooks.ts); retries update those rows and never write another event.
 *
 * An event without any recipient is not written at all.
 *
 * @example Emitting `batch.completed` from an effect of the ending (src/ending-plan.ts):
 * ```ts
 * webhookEventStatements(db, {
 *   tenant: sql`SELECT tenant FROM batches WHERE id = ${batchId}`,
 *   type: 'batch.completed',
 *   subjectId: batchId,
 *   data: sql`SELECT json_object('id', id, 'counts', json(counts)) FROM batches WHERE id = ${batchId}`,
 *   oneOffUrl: sql`SELECT webhook_url FROM batches WHERE id = ${batchId}`,
 *   guard: sqlAnd([new SqlExpr(endingGuard(ending.status), [ending.id]), sql`<this ending completes the batch>`]),
 *   causeId: ending.id,
 *   now: ending.now,
 * });
 * ```
 */
import { z } from 'zod';
import { scrubSql } from '../config/sqlite-scrub.js';
import { RETRY_WINDOW_MS } from './retry-policy.js';
import { sha256HexSync } from './sha256.js';
import type { SqlExpr as SqlExprType } from './sql.js';
import { rawSql, sql, SqlExpr, sqlOr } from './sql.js';
import { sqlIdHex } from '../config/d1-shards.js';

/** Every event type, in documentation order. */
export const WEBHOOK_EVENT_TYPES = [
  'evaluation.succeeded',
  'evaluation.failed',
  'evaluation.cancelled',
  'batch.completed',
  'meta_evaluation.completed',
  'comparison.completed',
  'eval.run.succeeded',
  'eval.run.failed',
  'eval.run.canceled',
] as const;

/** An event type (the payload's `type`; endpoints subscribe by type). */
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES).meta({
  id: 'WebhookEventType',
  description:
    '`evaluation.succeeded` | `evaluation.failed` | `evaluation.cancelled`: an evaluation ended; `batch.completed`: every item of a batch ended; ' +
    "`meta_evaluation.completed`: a meta-evaluation's report is ready; `comparison.completed`: a comparison's statistics and gate are ready; " +
    "`eval.run.succeeded` | `eval.run.failed` | `eval.run.canceled`: an Evals run ended (OpenAI's names).",
});
/** An event type. */
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/**
 * The event id of `type` for `subjectId`: `msg_` + the first 32 hex digits of sha-256("type:subject").
 * Sent as `webhook-id`; the same for every attempt, so receivers can deduplicate.
 */
export function webhookEventId(type: WebhookEventType, subjectId: string): string {
  return `msg_${sha256HexSync(`${type}:${subjectId}`).slice(0, 32)}`;
}

/**
 * A recipient other than the tenant's endpoints and the one-off URL: a feature's own receiver of the event (the
 * tenant's OTLP export, src/exports/), sent by the receiver registered for its `target` with the delivery attempt
 * (./deliver.ts, {@link DeliveryReceiver}). Its delivery row has no endpoint and no URL.
 */
export interface ExtraRecipient {
  /** The receiver's name, the delivery row's `target` (never `once`, never an endpoint id). */
  target: string;
  /** SQL that holds when this recipient gets the event, evaluated in the producer's transaction. */
  when: SqlExprType;
}

/** What {@link webhookEventStatements} writes. */
export interface WebhookEventInput {
  /** The tenant: its id, or SQL giving it (e.g. `sql\`SELECT tenant FROM evaluations WHERE id = ${id}\``). */
  tenant: string | SqlExprType;
  type: WebhookEventType;
  /**
   * The evaluation, batch or meta-evaluation the event is about; with `type` it fixes the event id. SQL
   * giving it (a batch completed by an ending knows its batch only in SQL) needs {@link eventId} too.
   */
  subjectId: string | SqlExprType;
  /**
   * The event id as SQL, required when {@link subjectId} is SQL: the producer stores
   * `webhookEventId(type, subject)` where it can compute it (e.g. on the batch row at creation).
   */
  eventId?: SqlExprType;
  /**
   * The payload's `data`: a JSON-serialisable value, or SQL giving JSON text, evaluated inside the
   * transaction (so it sees rows written earlier in the same batch, e.g. the verdict).
   */
  data: unknown;
  /**
   * A one-off callback URL for this event (already accepted by the URL guard, ./url-guard.ts), SQL
   * giving it or NULL, or absent. Signed with the tenant's signing secret.
   */
  oneOffUrl?: string | SqlExprType | null;
  /** Further recipients, each getting one delivery when its condition holds (none by default). */
  extraRecipients?: readonly ExtraRecipient[];
  /** Nothing is written unless this holds (e.g. the ending's guard); default: always. */
  guard?: SqlExprType;
  /** Whose ending writes the event (default: `subjectId`); the post-commit dispatch finds it by this id. */
  causeId?: string;
  /** Event time, epoch ms: the payload's `timestamp` and the deliveries' first due time. */
  now: number;
}

/** `x` as an SQL scalar: a sub-select is parenthesised, a value bound. */
function scalar(x: string | SqlExprType | null | undefined): SqlExprType {
  if (x instanceof SqlExpr) return sql`(${x})`;
  return sql`${x ?? null}`;
}

/** The event id of an event whose subject is SQL. */
function requireEventId(e: WebhookEventInput): SqlExprType {
  if (!e.eventId) throw new Error(`webhook event ${e.type}: a subject given as SQL needs eventId`);
  return e.eventId;
}

/**
 * Statements writing one event and its deliveries: run them in the producer's `batch()`, before the
 * statement that commits the cause if the guard reads the cause's "before" state (as `endingGuard` does).
 * Idempotent: a repeat changes nothing (event id conflict; deliveries keyed by event and recipient).
 */
export function webhookEventStatements(db: D1Database, e: WebhookEventInput): D1PreparedStatement[] {
  const id: SqlExprType | string =
    typeof e.subjectId === 'string' ? webhookEventId(e.type, e.subjectId) : scalar(requireEventId(e));
  const subjectId = scalar(e.subjectId);
  const tenant = scalar(e.tenant);
  const url = scalar(e.oneOffUrl);
  const guard = e.guard ?? rawSql('1');
  // The deliveries' ids carry the database's bucket, so a queue message of the id finds it (src/config/d1-shards.ts).
  const idHex = rawSql(sqlIdHex(db));
  const data = e.data instanceof SqlExpr ? sql`(${e.data})` : sql`${JSON.stringify(e.data ?? null)}`;
  const timestamp = new Date(e.now).toISOString();
  const windowEnds = e.now + RETRY_WINDOW_MS;
  const subscribed = (alias: string) =>
    sql`${rawSql(alias)}.tenant = ${tenant} AND ${rawSql(alias)}.disabled_at IS NULL AND (${rawSql(alias)}.events IS NULL
      OR EXISTS (SELECT 1 FROM json_each(${rawSql(alias)}.events) j WHERE j.value = ${e.type}))`;
  const eventWritten = sql`EXISTS (SELECT 1 FROM webhook_events WHERE id = ${id})`;
  const extras = e.extraRecipients ?? [];
  const anyExtra = sqlOr(extras.map((x) => x.when));
  return [
    sql`INSERT INTO webhook_events (id, tenant, type, subject_id, cause_id, payload, created_at)
      SELECT ${id}, ${tenant}, ${e.type}, ${subjectId}, ${e.causeId ?? subjectId},
        json_object('type', ${e.type}, 'timestamp', ${timestamp}, 'data', json(${data})), ${e.now}
      WHERE (${guard}) AND (${url} IS NOT NULL OR EXISTS (SELECT 1 FROM webhook_endpoints x WHERE ${subscribed('x')})
        OR ${anyExtra})
      ON CONFLICT (id) DO NOTHING`.prepare(db),
    sql`INSERT INTO webhook_deliveries (id, event_id, tenant, target, endpoint_id, url, status, attempts, next_attempt_at,
        window_ends_at, created_at, updated_at)
      SELECT 'dlv_' || ${idHex}, ${id}, ep.tenant, ep.id, ep.id, NULL, 'pending', 0, ${e.now}, ${windowEnds}, ${e.now}, ${e.now}
      FROM webhook_endpoints ep
      WHERE ${subscribed('ep')} AND (${guard}) AND ${eventWritten}
      ON CONFLICT (event_id, target) DO NOTHING`.prepare(db),
    sql`INSERT INTO webhook_deliveries (id, event_id, tenant, target, endpoint_id, url, status, attempts, next_attempt_at,
        window_ends_at, created_at, updated_at)
      SELECT 'dlv_' || ${idHex}, ${id}, ${tenant}, 'once', NULL, ${url}, 'pending', 0, ${e.now}, ${windowEnds}, ${e.now}, ${e.now}
      WHERE ${url} IS NOT NULL AND (${guard}) AND ${eventWritten}
      ON CONFLICT (event_id, target) DO NOTHING`.prepare(db),
    ...extras.map((x) =>
      sql`INSERT INTO webhook_deliveries (id, event_id, tenant, target, endpoint_id, url, status, attempts, next_attempt_at,
        window_ends_at, created_at, updated_at)
      SELECT 'dlv_' || ${idHex}, ${id}, ${tenant}, ${x.target}, NULL, NULL, 'pending', 0, ${e.now}, ${windowEnds}, ${e.now}, ${e.now}
      WHERE (${x.when}) AND (${guard}) AND ${eventWritten}
      ON CONFLICT (event_id, target) DO NOTHING`.prepare(db),
    ),
  ];
}

/**
 * Statements erasing every event about `subjectId` with its deliveries and attempts (data retention:
 * an event's payload carries the verdict summary). Pending deliveries are dropped with it.
 */
export function eraseWebhookEventsStatements(db: D1Database, subjectId: string): D1PreparedStatement[] {
  return eraseEventsWhere(db, sql`subject_id = ${subjectId}`);
}

/** Statements deleting events `ids` with their deliveries and attempts (the retention sweep's old events). */
export function deleteWebhookEventsStatements(db: D1Database, ids: readonly string[]): D1PreparedStatement[] {
  return eraseEventsWhere(db, sql`id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
}

/**
 * The events matching `which` deleted with their deliveries and attempts, their payloads overwritten in
 * place first, so the file's free space keeps no copy (src/config/sqlite-scrub.ts).
 */
function eraseEventsWhere(db: D1Database, which: SqlExprType): D1PreparedStatement[] {
  const events = sql`SELECT id FROM webhook_events WHERE ${which}`;
  return [
    new SqlExpr(scrubSql('webhook_events', ['payload'], which.text), which.params).prepare(db),
    sql`DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE event_id IN (${events}))`.prepare(
      db,
    ),
    sql`DELETE FROM webhook_deliveries WHERE event_id IN (${events})`.prepare(db),
    sql`DELETE FROM webhook_events WHERE ${which}`.prepare(db),
  ];
}
