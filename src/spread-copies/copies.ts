/**
 * @module
 * Copy on write of what a tenant sets up once and its work reads in every D1 shard of its spread (docs/scale.md
 * "A tenant over several shards"): its webhook endpoints and signing secret (src/webhooks/copies.ts), its OTLP
 * export (src/exports/copies.ts). The home shard's row is the one the API reads and the cap counts; each other
 * shard of the spread holds a copy, written when the home row changes, never read from the home shard per event.
 * A copy is the whole row, so writing it again mends a copy a failure left behind; a failed copy marks the tenant
 * as owing one, and the maintenance cron copies its home rows again (src/admin/spread-copies.ts).
 *
 * Cost: a write of a copied row is one more D1 batch per other shard of the tenant's largest spread (up to 63, in
 * parallel); reading it costs nothing more.
 */
import type { Bindings } from '../config/bindings.js';
import { controlDb, tenantDb } from '../config/d1-shards.js';
import { log, messageOf } from '../log/log.js';
import { markCopiesOwed, spreadDbs } from '../tenants/rows.js';

/**
 * A table a tenant sets up once and its work reads in every shard of its spread: its rows are copied from the
 * home shard. `columns` are the copied ones (`key` among them); `local` ones are the shard's own (what its
 * deliveries wrote): kept when a copy finds the row unchanged (same `updated_at`), cleared when it changed.
 */
export interface CopiedTable {
  table: string;
  key: string;
  columns: readonly string[];
  local?: readonly string[];
}

type Row = Record<string, string | number | null>;

/** `row` written into `t` of `db` whole: inserted, or every copied column but the key replaced. */
function upsert(db: D1Database, t: CopiedTable, row: Row): D1PreparedStatement {
  const sets = [
    // Evaluated against the row as it was (SQLite's SET), so `updated_at` here is the copy's old one.
    ...(t.local ?? []).map(
      (c) => `${c} = CASE WHEN ${t.table}.updated_at IS excluded.updated_at THEN ${t.table}.${c} ELSE NULL END`,
    ),
    ...t.columns.filter((c) => c !== t.key).map((c) => `${c} = excluded.${c}`),
  ].join(', ');
  return db
    .prepare(
      `INSERT INTO ${t.table} (${t.columns.join(', ')}) VALUES (${t.columns.map(() => '?').join(', ')})
       ON CONFLICT (${t.key}) DO UPDATE SET ${sets}`,
    )
    .bind(...t.columns.map((c) => row[c] ?? null));
}

/**
 * Runs `statements(db)` as one batch in each database of the tenant's spread but `except` (default: its home
 * shard), in parallel (up to 63): a change every copy takes the same way. A database given no statement is
 * skipped. When one fails the tenant is marked as owing a copy (the cron then copies its home rows again) and
 * the error is thrown on. The spread is read from the control database now (not as auth loaded it), so a spread raised
 * meanwhile is seen: the raise writes the control row before it copies from the home shard, and a write here
 * reads the spread after its home write, so one of the two copies a new row into a new shard.
 */
export async function inOtherCopies(
  env: Bindings,
  tenant: string,
  statements: (db: D1Database) => D1PreparedStatement[],
  except: D1Database = tenantDb(env, tenant),
): Promise<void> {
  const dbs = (await spreadDbs(env, tenant)).filter((db) => db !== except);
  try {
    await Promise.all(
      dbs.map(async (db) => {
        const batch = statements(db);
        if (batch.length > 0) await db.batch(batch);
      }),
    );
  } catch (e) {
    // Some shard missed the change: the maintenance cron copies the home shard's rows again
    // (src/admin/spread-copies.ts), whether or not the caller retries.
    await oweCopies(env, tenant, e);
    throw e;
  }
}

/** The failures whose tenant is already marked as owing a copy, so a caller catching one marks it no more. */
const owed = new WeakSet<object>();

/**
 * Marks `tenant` as owing a copy for the failure `e` (once per failure): the maintenance cron then copies its
 * home rows again. A failed mark is logged, never thrown (the failure being handled is the one to report).
 */
async function oweCopies(env: Bindings, tenant: string, e: unknown): Promise<void> {
  if (typeof e === 'object' && e !== null) {
    if (owed.has(e)) return;
    owed.add(e);
  }
  await markCopiesOwed(controlDb(env), tenant, Date.now()).catch((m: unknown) => {
    log('error', 'spread.copies_mark_failed', { tenant, error: messageOf(m) });
  });
}

/**
 * Writes the tenant's rows of `t` from its home shard (`where` binding the tenant, then `binds`) into each other
 * shard of its spread, with `extra(db)` in the same batch there. A no-op for a tenant of spread 1.
 */
export async function copyFromHome(
  env: Bindings,
  tenant: string,
  copies: readonly { t: CopiedTable; where: string; binds?: readonly string[] }[],
  extra?: (db: D1Database) => D1PreparedStatement[],
): Promise<void> {
  const home = tenantDb(env, tenant);
  const rows = await Promise.all(
    copies.map(
      async ({ t, where, binds = [] }) =>
        [
          t,
          (
            await home
              .prepare(`SELECT * FROM ${t.table} WHERE ${where}`)
              .bind(tenant, ...binds)
              .all<Row>()
          ).results,
        ] as const,
    ),
  );
  await inOtherCopies(env, tenant, (db) => [
    ...rows.flatMap(([t, found]) => found.map((r) => upsert(db, t, r))),
    ...(extra?.(db) ?? []),
  ]);
}

/**
 * Runs `statements(db)` as one batch in each other shard of the tenant's spread (in parallel), then in its home
 * shard: a change every copy takes the same way (deleting an endpoint with its deliveries, which are in the
 * shard of their event). The home shard goes last, so a failure leaves its row (a 500): the retry finds it
 * and repeats the whole, where the other order would answer the retry 404 and leave a copy that still gets
 * events.
 */
export async function inEveryCopy(
  env: Bindings,
  tenant: string,
  statements: (db: D1Database) => D1PreparedStatement[],
): Promise<void> {
  await inOtherCopies(env, tenant, statements);
  const home = tenantDb(env, tenant);
  await home.batch(statements(home));
}

/**
 * Runs `copy` (a copy from the home shard after its write); a failure is logged and left to the maintenance
 * cron, which copies the tenant's home rows again (the tenant is marked as owing a copy), instead of failing
 * the request. For writes that show a secret once (a signing secret created, a secret rotated): a 500 there
 * would hide a secret the home shard already signs with, and the retry would rotate again, dropping the old
 * secret from its grace period. Until the cron runs (a minute), a shard the copy missed signs with the secrets
 * it had, which the receiver refuses and the delivery retries.
 */
export async function copyOrOwe(env: Bindings, tenant: string, copy: () => Promise<void>): Promise<void> {
  try {
    await copy();
  } catch (e) {
    log('warn', 'spread.copy_owed', { tenant, error: messageOf(e) });
    // Marked already when a shard's write failed (inOtherCopies); not when reading the home rows did.
    await oweCopies(env, tenant, e);
  }
}
