/**
 * @module
 * A tenant's signing secret, for one-off callback URLs (`webhook: {url}` on a request; endpoints have
 * secrets of their own). Created once by `POST /v1/webhook-signing-secret` and rotated by
 * `POST /v1/webhook-signing-secret/rotate`, whose answers are the only places the secret is shown; `GET` tells whether one exists.
 * It lives in the tenant's home shard, copied into the other shards of its spread on every write (./copies.ts). After a rotation the previous secret
 * signs too (a second `v1,` signature) for {@link ROTATION_GRACE_MS}, so receivers can switch over.
 */
import type { Bindings } from '../config/bindings.js';
import { ApiError } from '../http/errors.js';
import { isoOrNull } from './url-checks.js';
import type { SigningSecretCreatedSchema, SigningSecretStatusSchema } from './schemas.js';
import { newWebhookSecret, ROTATION_GRACE_MS } from './signature.js';
import type { z } from 'zod';
import { tenantDb } from '../config/d1-shards.js';
import { copyOrOwe } from '../spread-copies/copies.js';
import { copyWebhookRecipients } from './copies.js';

/** Whether the tenant has a signing secret, and since when. */
export async function signingSecretStatus(
  env: Bindings,
  tenant: string,
): Promise<z.infer<typeof SigningSecretStatusSchema>> {
  const row = await tenantDb(env, tenant)
    .prepare('SELECT created_at, previous_expires_at FROM webhook_signing_secrets WHERE tenant = ?')
    .bind(tenant)
    .first<{ created_at: number; previous_expires_at: number | null }>();
  return {
    exists: row !== null,
    createdAt: isoOrNull(row?.created_at ?? null),
    previousSecretExpiresAt:
      row?.previous_expires_at != null && row.previous_expires_at > Date.now()
        ? isoOrNull(row.previous_expires_at)
        : null,
  };
}

/** Where a tenant that has a secret rotates it. */
export const ROTATE_SIGNING_SECRET_ROUTE = 'POST /v1/webhook-signing-secret/rotate';

/**
 * Creates the tenant's signing secret. Why not create-or-rotate: the secret is shown once, so a second
 * create (a retried script, a second teammate) silently replacing it would break every receiver.
 * @throws ApiError 409 `conflict` naming the rotate route when the tenant has one.
 */
export async function createSigningSecret(
  env: Bindings,
  tenant: string,
): Promise<z.infer<typeof SigningSecretCreatedSchema>> {
  const now = Date.now();
  const secret = newWebhookSecret();
  const row = await tenantDb(env, tenant)
    .prepare(
      `INSERT INTO webhook_signing_secrets (tenant, secret, previous_secret, previous_expires_at, created_at, updated_at)
     VALUES (?, ?, NULL, NULL, ?, ?)
     ON CONFLICT (tenant) DO NOTHING
     RETURNING tenant`,
    )
    .bind(tenant, secret, now, now)
    .first<{ tenant: string }>();
  if (!row) {
    // A retry after a create whose copies failed mends them (the secret itself is never shown again).
    await copyWebhookRecipients(env, tenant, { secret: true });
    throw new ApiError(
      409,
      'conflict',
      `the tenant already has a signing secret (shown once, when it was created); to replace it, ${ROTATE_SIGNING_SECRET_ROUTE}`,
    );
  }
  // The answer is the only place the secret is shown: a failed copy is the cron's (./copies.ts, copyOrOwe).
  await copyOrOwe(env, tenant, () => copyWebhookRecipients(env, tenant, { secret: true }));
  return { secret, createdAt: new Date(now).toISOString(), previousSecretExpiresAt: null };
}

/**
 * Rotates the tenant's signing secret: a new one, the old one still signing for the grace period.
 * @throws ApiError 404 `not_found` when the tenant has none yet (create it first).
 */
export async function rotateSigningSecret(
  env: Bindings,
  tenant: string,
): Promise<z.infer<typeof SigningSecretCreatedSchema>> {
  const now = Date.now();
  const secret = newWebhookSecret();
  const grace = now + ROTATION_GRACE_MS;
  const row = await tenantDb(env, tenant)
    .prepare(
      `UPDATE webhook_signing_secrets SET previous_secret = secret, previous_expires_at = ?, secret = ?,
       created_at = ?, updated_at = ?
     WHERE tenant = ?
     RETURNING previous_expires_at`,
    )
    .bind(grace, secret, now, now, tenant)
    .first<{ previous_expires_at: number | null }>();
  if (!row) {
    throw new ApiError(
      404,
      'not_found',
      'no signing secret to rotate yet; create it with POST /v1/webhook-signing-secret',
    );
  }
  await copyOrOwe(env, tenant, () => copyWebhookRecipients(env, tenant, { secret: true }));
  return {
    secret,
    createdAt: new Date(now).toISOString(),
    previousSecretExpiresAt: isoOrNull(row.previous_expires_at),
  };
}
