/**
 * @module
 * A tenant's signing secret, for one-off callback URLs (`webhook: {url}` on a request; endpoints have
 * secrets of their own). Created, or rotated, by `POST /v1/webhook-signing-secret`, whose answer is the
 * only place the secret is shown; `GET` tells whether one exists. After a rotation the previous secret
 * signs too (a second `v1,` signature) for {@link ROTATION_GRACE_MS}, so receivers can switch over.
 */
import type { Bindings } from '../config/bindings.js';
import { isoOrNull } from './url-checks.js';
import type { SigningSecretCreatedSchema, SigningSecretStatusSchema } from './schemas.js';
import { newWebhookSecret, ROTATION_GRACE_MS } from './signature.js';
import type { z } from 'zod';

/** Whether the tenant has a signing secret, and since when. */
export async function signingSecretStatus(
  env: Bindings,
  tenant: string,
): Promise<z.infer<typeof SigningSecretStatusSchema>> {
  const row = await env.DB.prepare(
    'SELECT created_at, previous_expires_at FROM webhook_signing_secrets WHERE tenant = ?',
  )
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

/** Creates the tenant's signing secret, or rotates it (the old one keeps signing for the grace period). */
export async function createOrRotateSigningSecret(
  env: Bindings,
  tenant: string,
): Promise<z.infer<typeof SigningSecretCreatedSchema>> {
  const now = Date.now();
  const secret = newWebhookSecret();
  const grace = now + ROTATION_GRACE_MS;
  const row = await env.DB.prepare(
    `INSERT INTO webhook_signing_secrets (tenant, secret, previous_secret, previous_expires_at, created_at, updated_at)
     VALUES (?, ?, NULL, NULL, ?, ?)
     ON CONFLICT (tenant) DO UPDATE SET previous_secret = secret, previous_expires_at = ?, secret = excluded.secret,
       created_at = excluded.created_at, updated_at = excluded.updated_at
     RETURNING previous_expires_at`,
  )
    .bind(tenant, secret, now, now, grace)
    .first<{ previous_expires_at: number | null }>();
  return {
    secret,
    createdAt: new Date(now).toISOString(),
    previousSecretExpiresAt: isoOrNull(row?.previous_expires_at ?? null),
  };
}
