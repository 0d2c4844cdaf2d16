/**
 * @module
 * The delivery log: deliveries of a tenant's events (per endpoint, per subject, one-off), newest first
 * with a keyset cursor, each with its attempts; and a manual retry, which makes a delivery pending again
 * with a fresh retry window and enqueues it (same event, same `webhook-id`: receivers deduplicate).
 */
import { ApiError } from '../http/errors.js';
import type { Bindings } from '../config/bindings.js';
import { log, messageOf } from '../log/log.js';
import { RETRY_WINDOW_MS } from './retry-policy.js';
import { enqueueDeliveries } from './dispatch.js';
import type { WebhookEventType } from './outbox.js';
import { isoOrNull } from './url-checks.js';
import type { Delivery } from './schemas.js';
import type { SqlExpr } from './sql.js';
import { rawSql, sql, sqlAnd } from './sql.js';
import { tenantDb } from '../config/d1-shards.js';

/** Filters of {@link listDeliveries}. */
export interface DeliveryFilter {
  status?: 'pending' | 'delivered' | 'failed' | undefined;
  /** An endpoint id, or `one-off` for one-off URLs. */
  endpoint?: string | undefined;
  subject?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  type: WebhookEventType;
  subject_id: string;
  endpoint_id: string | null;
  url: string | null;
  status: Delivery['status'];
  attempts: number;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  at: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  response_excerpt: string | null;
}

/**
 * Deliveries to webhooks: to an endpoint or a one-off URL. A feature's own recipient (the OTLP export) shows its
 * attempts where it is configured, not in the webhooks' log.
 */
const WEBHOOK_TARGETS = rawSql(`(d.endpoint_id IS NOT NULL OR d.target = 'once')`);

const SELECT = sql`SELECT d.id, d.event_id, e.type, e.subject_id, d.endpoint_id, d.url, d.status, d.attempts, d.next_attempt_at,
  d.last_status_code, d.last_error, d.delivered_at, d.created_at
  FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id`;

function encodeCursor(createdAt: number, id: string): string {
  return btoa(JSON.stringify([createdAt, id]))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

function decodeCursor(cursor: string): [number, string] {
  try {
    const v = JSON.parse(atob(cursor.replaceAll('-', '+').replaceAll('_', '/'))) as unknown;
    if (Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'string') return [v[0], v[1]];
  } catch {
    // Falls through to the 400 below.
  }
  throw new ApiError(400, 'invalid_request', 'invalid query: cursor: not a cursor this API returned', [
    { path: 'cursor', message: 'not a cursor this API returned' },
  ]);
}

/** A page of the tenant's deliveries matching `f`, newest first, with their attempts. */
export async function listDeliveries(
  env: Bindings,
  tenant: string,
  f: DeliveryFilter,
): Promise<{ data: Delivery[]; nextCursor: string | null }> {
  const where: SqlExpr[] = [sql`d.tenant = ${tenant}`, WEBHOOK_TARGETS];
  if (f.status) where.push(sql`d.status = ${f.status}`);
  if (f.endpoint === 'one-off') where.push(rawSql(`d.target = 'once'`));
  else if (f.endpoint) where.push(sql`d.endpoint_id = ${f.endpoint}`);
  if (f.subject) where.push(sql`e.subject_id = ${f.subject}`);
  if (f.cursor) {
    const [createdAt, id] = decodeCursor(f.cursor);
    where.push(sql`(d.created_at, d.id) < (${createdAt}, ${id})`);
  }
  const q = sql`${SELECT} WHERE ${sqlAnd(where)} ORDER BY d.created_at DESC, d.id DESC LIMIT ${f.limit + 1}`;
  const { results } = await q.prepare(tenantDb(env, tenant)).all<DeliveryRow>();
  const page = results.slice(0, f.limit);
  const last = page.at(-1);
  return {
    data: await withAttempts(tenantDb(env, tenant), page),
    nextCursor: results.length > f.limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

/** The rows as API deliveries, each with its attempt log (one query for the page). */
async function withAttempts(db: D1Database, rows: readonly DeliveryRow[]): Promise<Delivery[]> {
  if (rows.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT delivery_id, attempt, at, status_code, error, duration_ms, response_excerpt FROM webhook_attempts
     WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY delivery_id, attempt`,
    )
    .bind(JSON.stringify(rows.map((r) => r.id)))
    .all<AttemptRow>();
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const a of results) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    eventType: r.type,
    subjectId: r.subject_id,
    endpointId: r.endpoint_id,
    url: r.url,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: isoOrNull(r.next_attempt_at),
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    deliveredAt: isoOrNull(r.delivered_at),
    createdAt: new Date(r.created_at).toISOString(),
    attemptLog: (byDelivery.get(r.id) ?? []).map((a) => ({
      attempt: a.attempt,
      at: new Date(a.at).toISOString(),
      statusCode: a.status_code,
      error: a.error,
      durationMs: a.duration_ms,
      responseExcerpt: a.response_excerpt,
    })),
  }));
}

/** One delivery of the tenant (optionally of one endpoint), or 404. */
export async function getDelivery(env: Bindings, tenant: string, id: string, endpointId?: string): Promise<Delivery> {
  const where = [
    sql`d.tenant = ${tenant}`,
    sql`d.id = ${id}`,
    WEBHOOK_TARGETS,
    ...(endpointId ? [sql`d.endpoint_id = ${endpointId}`] : []),
  ];
  const row = await sql`${SELECT} WHERE ${sqlAnd(where)}`.prepare(tenantDb(env, tenant)).first<DeliveryRow>();
  if (!row) throw new ApiError(404, 'not_found', `no webhook delivery "${id}"`);
  const [delivery] = await withAttempts(tenantDb(env, tenant), [row]);
  if (!delivery) throw new ApiError(404, 'not_found', `no webhook delivery "${id}"`);
  return delivery;
}

/**
 * Retries a delivery now, whatever its status: pending again with a new {@link RETRY_WINDOW_MS} window,
 * enqueued at once (if the send fails, the sweeper sends it). The event and its id stay the same.
 * @throws ApiError 404; 409 `endpoint_disabled` (re-enable the endpoint first).
 */
export async function retryDelivery(env: Bindings, tenant: string, id: string, endpointId?: string): Promise<Delivery> {
  const before = await getDelivery(env, tenant, id, endpointId);
  if (before.endpointId !== null) {
    const ep = await tenantDb(env, tenant)
      .prepare('SELECT disabled_at FROM webhook_endpoints WHERE id = ?')
      .bind(before.endpointId)
      .first<{ disabled_at: number | null }>();
    if (ep && ep.disabled_at !== null) {
      throw new ApiError(
        409,
        'endpoint_disabled',
        `endpoint "${before.endpointId}" is disabled; re-enable it (PATCH {"enabled": true}) before retrying`,
      );
    }
  }
  const now = Date.now();
  await tenantDb(env, tenant)
    .prepare(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, window_ends_at = ?, delivered_at = NULL, updated_at = ?
     WHERE id = ? AND tenant = ?`,
    )
    .bind(now, now + RETRY_WINDOW_MS, now, id, tenant)
    .run();
  try {
    await enqueueDeliveries(env, [id]);
  } catch (e) {
    log('warn', 'webhook.retry_enqueue_failed', { deliveryId: id, error: messageOf(e) });
  }
  return getDelivery(env, tenant, id, endpointId);
}
