/**
 * @module
 * Copies of a tenant's webhook endpoints and signing secret in every D1 shard its work may be in (its spread,
 * docs/scale.md "A tenant over several shards"). An ending writes its event and fans it out to the subscribed
 * endpoints in its own transaction, in the shard of its record (./outbox.ts), and the delivery signs with the
 * secret it finds there (./deliver.ts): so each shard of the spread holds a copy, written when the home shard's
 * row changes (copy on write), never read from the home shard per event. The home shard's row is the one the API
 * reads and the cap counts; a copy is the whole row, so writing it again mends a copy a failure left behind.
 *
 * Cost: an endpoint or secret write is one more D1 batch per other shard of the tenant's largest spread (up to 63,
 * in parallel); an event costs nothing more. Raising the spread copies them into the new shards (src/admin/).
 */
import type { Bindings } from '../config/bindings.js';
import { tenantDb } from '../config/d1-shards.js';
import { spreadDbs } from '../tenants/rows.js';

const ENDPOINT_COLUMNS = [
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
] as const;

const SECRET_COLUMNS = [
  'tenant',
  'secret',
  'previous_secret',
  'previous_expires_at',
  'created_at',
  'updated_at',
] as const;

type Row = Record<string, string | number | null>;

/** `row` written into `table` of `db` whole: inserted, or every column but the key replaced. */
function upsert(db: D1Database, table: string, columns: readonly string[], key: string, row: Row): D1PreparedStatement {
  const sets = columns
    .filter((c) => c !== key)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  return db
    .prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
       ON CONFLICT (${key}) DO UPDATE SET ${sets}`,
    )
    .bind(...columns.map((c) => row[c] ?? null));
}

/**
 * The databases other than the home shard that hold copies: each shard of the tenant's largest spread, read
 * from the control database now (not as auth loaded it), so a spread raised meanwhile is seen: the raise writes
 * the control row before it copies from the home shard, and a write here reads the spread after its home write,
 * so one of the two copies a new row into a new shard.
 */
async function copyDbs(env: Bindings, tenant: string): Promise<D1Database[]> {
  const home = tenantDb(env, tenant);
  return (await spreadDbs(env, tenant)).filter((db) => db !== home);
}

/** The tenant's rows of `table` in its home shard (`where` binding the tenant, then `binds`). */
async function homeRows(env: Bindings, tenant: string, table: string, where: string, binds: string[]): Promise<Row[]> {
  const { results } = await tenantDb(env, tenant)
    .prepare(`SELECT * FROM ${table} WHERE ${where}`)
    .bind(tenant, ...binds)
    .all<Row>();
  return results;
}

/**
 * Writes the home shard's endpoint `id` (or, with no id, every endpoint of the tenant and its signing secret)
 * into each other shard of its spread, with `extra(db)` in the same batch there (e.g. failing the pending
 * deliveries of an endpoint just disabled). A no-op for a tenant of spread 1.
 */
export async function copyWebhookRecipients(
  env: Bindings,
  tenant: string,
  only: { endpoint: string; extra?: (db: D1Database) => D1PreparedStatement[] } | { secret: true } | null = null,
): Promise<void> {
  const dbs = await copyDbs(env, tenant);
  if (dbs.length === 0) return;
  const endpoints =
    only === null
      ? await homeRows(env, tenant, 'webhook_endpoints', 'tenant = ?', [])
      : 'endpoint' in only
        ? await homeRows(env, tenant, 'webhook_endpoints', 'tenant = ? AND id = ?', [only.endpoint])
        : [];
  const secrets =
    only === null || 'secret' in only ? await homeRows(env, tenant, 'webhook_signing_secrets', 'tenant = ?', []) : [];
  const extra = only !== null && 'endpoint' in only ? only.extra : undefined;
  await Promise.all(
    dbs.map(async (db) => {
      const statements = [
        ...endpoints.map((r) => upsert(db, 'webhook_endpoints', ENDPOINT_COLUMNS, 'id', r)),
        ...secrets.map((r) => upsert(db, 'webhook_signing_secrets', SECRET_COLUMNS, 'tenant', r)),
        ...(extra?.(db) ?? []),
      ];
      if (statements.length > 0) await db.batch(statements);
    }),
  );
}

/**
 * Runs `statements(db)` as one batch in the tenant's home shard, then in each other shard of its spread (in
 * parallel): a change every copy takes the same way (deleting an endpoint with its deliveries, which are in the
 * shard of their event).
 */
export async function inEveryCopy(
  env: Bindings,
  tenant: string,
  statements: (db: D1Database) => D1PreparedStatement[],
): Promise<void> {
  const home = tenantDb(env, tenant);
  await home.batch(statements(home));
  await Promise.all((await copyDbs(env, tenant)).map((db) => db.batch(statements(db))));
}
