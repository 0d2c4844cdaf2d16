/**
 * @module
 * Checks the webhook API runs before storing anything, as API errors: a URL through the outbound guard
 * (400 `url_not_allowed` naming the field and the rule), and a tenant's signing secret for one-off URLs.
 */
import { ApiError } from '../http/errors.js';
import type { Bindings } from '../config/bindings.js';
import { checkWebhookUrl } from './url-guard.js';
import { configOf } from '../config/vars.js';
import { tenantDb } from '../config/d1-shards.js';

/** Epoch ms as ISO 8601, or null. */
export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** A new random id: `prefix_` + 32 hex digits. */
export function newWebhookObjectId(prefix: 'we' | 'trg'): string {
  return `${prefix}_${crypto.randomUUID().replaceAll('-', '')}`;
}

/**
 * The normalised URL if the guard accepts it.
 * @param field where the URL is in the request, e.g. `url` or `webhook.url` (named in the error).
 * @throws ApiError 400 `url_not_allowed`: `<field>: refused by rule "<rule>": <why>`.
 */
export function requireWebhookUrl(env: Bindings, url: string, field: string): string {
  const v = checkWebhookUrl(url, { allowLoopback: configOf(env).WEBHOOK_ALLOW_LOOPBACK });
  if (v.ok) return v.url;
  const message = `refused by rule "${v.rule}": ${v.message}`;
  throw new ApiError(400, 'url_not_allowed', `${field}: ${message}`, [{ path: field, message }]);
}

/**
 * Checks that `tenant` has a signing secret (needed to sign one-off `webhook.url` callbacks).
 * @throws ApiError 400 `signing_secret_missing`.
 */
export async function requireSigningSecret(env: Bindings, tenant: string, field: string): Promise<void> {
  const row = await tenantDb(env, tenant)
    .prepare('SELECT 1 AS x FROM webhook_signing_secrets WHERE tenant = ?')
    .bind(tenant)
    .first<{ x: number }>();
  if (!row) {
    throw new ApiError(
      400,
      'signing_secret_missing',
      `${field}: one-off callbacks are signed with your signing secret; create it once with POST /v1/webhook-signing-secret`,
      [{ path: field, message: 'no signing secret yet (POST /v1/webhook-signing-secret)' }],
    );
  }
}

/**
 * Whether `tenant`'s work may go to a D1 shard of its spread other than its home shard: only work that sends no
 * webhook (no one-off `webhookUrl`, and the tenant has no endpoint), since an ending fans its event out to the
 * endpoints and signs with the secret in its own database, and those stay in the home shard
 * (docs/scale.md, "A tenant over several shards"). One read of the home shard; none for a spread of 1.
 */
export async function mayLeaveHome(
  env: Bindings,
  tenant: string,
  spread: number,
  webhookUrl: string | null,
): Promise<boolean> {
  if (spread <= 1 || webhookUrl !== null) return false;
  const row = await tenantDb(env, tenant)
    .prepare('SELECT 1 AS x FROM webhook_endpoints WHERE tenant = ? LIMIT 1')
    .bind(tenant)
    .first<{ x: number }>();
  return row === null;
}
