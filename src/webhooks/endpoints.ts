/**
 * @module
 * Webhook endpoints of a tenant (D1 `webhook_endpoints`): create (the secret shown once), list, read,
 * update, delete, rotate the secret. Every read and write is scoped to the tenant: another tenant's id
 * reads as absent (404). URLs pass the outbound guard before they are stored. The rows live in the tenant's home
 * shard; every write is copied into the other shards of its spread (./copies.ts), where its work's endings fan
 * their events out.
 */
import { ApiError } from '../http/errors.js';
import type { Bindings } from '../config/bindings.js';
import { disableStatements } from './deliver.js';
import type { WebhookEventType } from './outbox.js';
import { isoOrNull, newWebhookObjectId, requireWebhookUrl } from './url-checks.js';
import type { CreateWebhookEndpoint, UpdateWebhookEndpoint, WebhookEndpoint } from './schemas.js';
import { MAX_ENDPOINTS_PER_TENANT } from './schemas.js';
import { newWebhookSecret, ROTATION_GRACE_MS } from './signature.js';
import { tenantDb } from '../config/d1-shards.js';
import { sha256Hex } from '../http/request-hash.js';
import { copyOrOwe, inEveryCopy } from '../spread-copies/copies.js';
import { copyWebhookRecipients } from './copies.js';

interface EndpointRow {
  id: string;
  url: string;
  events: string | null;
  description: string | null;
  disabled_at: number | null;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS = 'id, url, events, description, disabled_at, disabled_reason, created_at, updated_at';

function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    events: r.events === null ? null : (JSON.parse(r.events) as WebhookEventType[]),
    description: r.description,
    enabled: r.disabled_at === null,
    disabledReason: r.disabled_reason,
    disabledAt: isoOrNull(r.disabled_at),
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

function notFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `no webhook endpoint "${id}"`);
}

/**
 * The id of the endpoint `tenant` creates with Idempotency-Key `key`: `we_` and 32 hex digits of the sha-256 of
 * both, so a retry of the create names the same row and its insert meets the first one.
 */
async function keyedEndpointId(tenant: string, key: string): Promise<string> {
  return `we_${(await sha256Hex(`${tenant}\n${key}`)).slice(0, 32)}`;
}

/**
 * Registers an endpoint; the answer is the only place its secret is shown. With an `Idempotency-Key`, a retry
 * with the same body answers the endpoint the first try made (its secret again, `replayed`), after copying it
 * into the shards of the tenant's spread again (the first try's copy may be what failed); the same key with
 * another body is a 409 `idempotency_conflict`. Without one, a retry makes another endpoint.
 * @throws ApiError 400 `url_not_allowed`; 409 `limit_exceeded` beyond {@link MAX_ENDPOINTS_PER_TENANT},
 *   `idempotency_conflict`.
 */
export async function registerEndpoint(
  env: Bindings,
  tenant: string,
  body: CreateWebhookEndpoint,
  idempotencyKey: string | null,
): Promise<{ endpoint: WebhookEndpoint & { secret: string }; replayed: boolean }> {
  const url = requireWebhookUrl(env, body.url, 'url');
  const id = idempotencyKey === null ? newWebhookObjectId('we') : await keyedEndpointId(tenant, idempotencyKey);
  const secret = newWebhookSecret();
  const now = Date.now();
  const events = body.events ? JSON.stringify(body.events) : null;
  const description = body.description ?? null;
  // The count and the insert in one statement, so concurrent creates cannot pass the cap together.
  const r = await tenantDb(env, tenant)
    .prepare(
      `INSERT INTO webhook_endpoints (id, tenant, url, events, description, secret, created_at, updated_at)
     SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM webhook_endpoints WHERE tenant = ?) < ?
     ON CONFLICT (id) DO NOTHING`,
    )
    .bind(id, tenant, url, events, description, secret, now, now, tenant, MAX_ENDPOINTS_PER_TENANT)
    .run();
  if (r.meta.changes === 0) {
    const first =
      idempotencyKey === null
        ? null
        : await tenantDb(env, tenant)
            .prepare(`SELECT ${COLUMNS}, secret FROM webhook_endpoints WHERE id = ? AND tenant = ?`)
            .bind(id, tenant)
            .first<EndpointRow & { secret: string }>();
    if (first) {
      // The endpoint's own fields are the whole body: the same ones are the same request.
      if (first.url !== url || first.events !== events || first.description !== description)
        throw new ApiError(
          409,
          'idempotency_conflict',
          `Idempotency-Key "${idempotencyKey ?? ''}" was already used with a different request body`,
        );
      await copyWebhookRecipients(env, tenant, { endpoint: id });
      // The row read above answers: the copy writes the other shards, never this one.
      return { endpoint: { ...toEndpoint(first), secret: first.secret }, replayed: true };
    }
    throw new ApiError(
      409,
      'limit_exceeded',
      `a tenant has at most ${MAX_ENDPOINTS_PER_TENANT} webhook endpoints; delete one first`,
    );
  }
  await copyWebhookRecipients(env, tenant, { endpoint: id });
  return { endpoint: { ...(await getEndpoint(env, tenant, id)), secret }, replayed: false };
}

/** {@link registerEndpoint} without an `Idempotency-Key`: a new endpoint and its secret. */
export async function createEndpoint(
  env: Bindings,
  tenant: string,
  body: CreateWebhookEndpoint,
): Promise<WebhookEndpoint & { secret: string }> {
  return (await registerEndpoint(env, tenant, body, null)).endpoint;
}

/** Every endpoint of the tenant, oldest first (at most {@link MAX_ENDPOINTS_PER_TENANT}). */
export async function listEndpoints(env: Bindings, tenant: string): Promise<WebhookEndpoint[]> {
  const { results } = await tenantDb(env, tenant)
    .prepare(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE tenant = ? ORDER BY created_at, id`)
    .bind(tenant)
    .all<EndpointRow>();
  return results.map(toEndpoint);
}

/** The endpoint or 404 `not_found`. */
export async function getEndpoint(env: Bindings, tenant: string, id: string): Promise<WebhookEndpoint> {
  const row = await tenantDb(env, tenant)
    .prepare(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ? AND tenant = ?`)
    .bind(id, tenant)
    .first<EndpointRow>();
  if (!row) throw notFound(id);
  return toEndpoint(row);
}

/**
 * Changes the fields sent. `enabled: true` re-enables (pending deliveries that failed with it can be
 * retried); `enabled: false` disables it and fails its pending deliveries. A new URL applies to pending
 * deliveries too (an endpoint's URL is read at send time).
 * @throws ApiError 404, 400 `url_not_allowed`.
 */
export async function updateEndpoint(
  env: Bindings,
  tenant: string,
  id: string,
  body: UpdateWebhookEndpoint,
): Promise<WebhookEndpoint> {
  const current = await getEndpoint(env, tenant, id);
  const now = Date.now();
  const sets: string[] = ['updated_at = ?'];
  const values: (string | number | null)[] = [now];
  if (body.url !== undefined) {
    sets.push('url = ?');
    values.push(requireWebhookUrl(env, body.url, 'url'));
  }
  if (body.events !== undefined) {
    sets.push('events = ?');
    values.push(body.events === null ? null : JSON.stringify(body.events));
  }
  if (body.description !== undefined) {
    sets.push('description = ?');
    values.push(body.description);
  }
  if (body.enabled === true) sets.push('disabled_at = NULL', 'disabled_reason = NULL');
  const statements = [
    tenantDb(env, tenant)
      .prepare(`UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE id = ? AND tenant = ?`)
      .bind(...values, id, tenant),
  ];
  const disabling = body.enabled === false && current.enabled;
  if (disabling) statements.push(...disableStatements(tenantDb(env, tenant), id, 'disabled by request', now));
  await tenantDb(env, tenant).batch(statements);
  // Every copy takes the new row; disabling fails the pending deliveries in each shard too. A failure is a
  // 500 and the retry (the same body) converges: it copies the row again and fails those deliveries again
  // (the endpoint is disabled at home by then, so asked again whatever `disabling` was).
  await copyWebhookRecipients(env, tenant, {
    endpoint: id,
    extra: (db) => (body.enabled === false ? disableStatements(db, id, 'disabled by request', now) : []),
  });
  return getEndpoint(env, tenant, id);
}

/** Deletes the endpoint with its delivery log; events other receivers get stay. @throws ApiError 404. */
export async function deleteEndpoint(env: Bindings, tenant: string, id: string): Promise<void> {
  await getEndpoint(env, tenant, id);
  // Its deliveries are in the shard of their event: each shard of the spread drops its own, then its copy.
  await inEveryCopy(env, tenant, (db) => [
    db
      .prepare(
        'DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ? AND tenant = ?)',
      )
      .bind(id, tenant),
    db.prepare('DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND tenant = ?').bind(id, tenant),
    db.prepare('DELETE FROM webhook_endpoints WHERE id = ? AND tenant = ?').bind(id, tenant),
  ]);
}

/**
 * A new secret for the endpoint, shown once; the previous one keeps signing (a second `v1,` signature)
 * for {@link ROTATION_GRACE_MS}. @throws ApiError 404.
 */
export async function rotateEndpointSecret(
  env: Bindings,
  tenant: string,
  id: string,
): Promise<{ id: string; secret: string; previousSecretExpiresAt: string | null }> {
  const now = Date.now();
  const secret = newWebhookSecret();
  const r = await tenantDb(env, tenant)
    .prepare(
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_expires_at = ?, secret = ?, updated_at = ? WHERE id = ? AND tenant = ?`,
    )
    .bind(now + ROTATION_GRACE_MS, secret, now, id, tenant)
    .run();
  if (r.meta.changes === 0) throw notFound(id);
  // The answer shows the new secret, which the home shard already signs with: a failed copy is the cron's.
  await copyOrOwe(env, tenant, () => copyWebhookRecipients(env, tenant, { endpoint: id }));
  return { id, secret, previousSecretExpiresAt: new Date(now + ROTATION_GRACE_MS).toISOString() };
}
