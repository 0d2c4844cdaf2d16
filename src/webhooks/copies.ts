/**
 * @module
 * The tenant's webhook endpoints and signing secret in every D1 shard its work may be in (its spread, docs/scale.md
 * "A tenant over several shards"): an ending writes its event and fans it out to the subscribed endpoints in its
 * own transaction, in the shard of its record (./outbox.ts), and the delivery signs with the secret it finds there
 * (./deliver.ts), so each shard of the spread holds a copy, written when the home shard's row changes
 * (src/spread-copies/copies.ts). Raising the spread copies them into the new shards (src/admin/).
 */
import type { Bindings } from '../config/bindings.js';
import type { CopiedTable } from '../spread-copies/copies.js';
import { copyFromHome } from '../spread-copies/copies.js';

/** The copied webhook endpoints (`webhook_endpoints`). */
export const WEBHOOK_ENDPOINTS: CopiedTable = {
  table: 'webhook_endpoints',
  key: 'id',
  columns: [
    'id',
    'tenant',
    'url',
    'events',
    'description',
    'secret',
    'previous_secret',
    'previous_expires_at',
    'disabled_at',
    'disabled_reason',
    'created_at',
    'updated_at',
  ],
};

/** The copied signing secret (`webhook_signing_secrets`). */
export const SIGNING_SECRETS: CopiedTable = {
  table: 'webhook_signing_secrets',
  key: 'tenant',
  columns: ['tenant', 'secret', 'previous_secret', 'previous_expires_at', 'created_at', 'updated_at'],
};

/**
 * Writes the home shard's endpoint `id` or signing secret into each other shard of its spread, with `extra(db)`
 * in the same batch there (e.g. failing the pending deliveries of an endpoint just disabled). A no-op for a
 * tenant of spread 1. (A whole copy of every endpoint and the secret is src/admin/spread-copies.ts's.)
 */
export async function copyWebhookRecipients(
  env: Bindings,
  tenant: string,
  only: { endpoint: string; extra?: (db: D1Database) => D1PreparedStatement[] } | { secret: true },
): Promise<void> {
  if ('endpoint' in only)
    await copyFromHome(
      env,
      tenant,
      [{ t: WEBHOOK_ENDPOINTS, where: 'tenant = ? AND id = ?', binds: [only.endpoint] }],
      only.extra,
    );
  else await copyFromHome(env, tenant, [{ t: SIGNING_SECRETS, where: 'tenant = ?' }]);
}
