/**
 * @module
 * The tenant's export settings in its own database (`otlp_exports`, migrations/0029_otlp_exports.sql), copied
 * into every shard of its spread (./copies.ts): read with the header names only, replaced, removed. The header values are secrets: this module writes them and the
 * delivery (./delivery.ts) reads them; nothing returns or logs them.
 */
import type { Bindings } from '../config/bindings.js';
import { tenantDb } from '../config/d1-shards.js';
import { spreadDbs } from '../tenants/rows.js';
import { inOtherCopies } from '../spread-copies/copies.js';
import { copyOtlpExport } from './copies.js';
import { requireWebhookUrl } from '../webhooks/url-checks.js';
import { isoOrNull } from '../webhooks/url-checks.js';
import type { Exports, ExportsRequest, OtlpExport, OtlpProtocol } from './schemas.js';

/** An `otlp_exports` row. */
export interface OtlpExportRow {
  endpoint: string;
  protocol: OtlpProtocol;
  headers: string;
  last_attempt_at: number | null;
  last_success_at: number | null;
  last_error: string | null;
  last_error_at: number | null;
  last_status_code: number | null;
  created_at: number;
  updated_at: number;
}

/** The path OTLP/HTTP sends logs to. */
const LOGS_PATH = '/v1/logs';

/** Where records go: `endpoint` with `/v1/logs` added to its path, unless it already ends so. */
export function logsUrlOf(endpoint: string): string {
  const url = new URL(endpoint);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(LOGS_PATH) ? path : `${path}${LOGS_PATH}`;
  return url.toString();
}

/** The header names of a stored `headers` column, sorted. */
function headerNames(stored: string): string[] {
  return Object.keys(JSON.parse(stored) as Record<string, string>).sort();
}

function view(row: OtlpExportRow): OtlpExport {
  return {
    endpoint: row.endpoint,
    logsUrl: logsUrlOf(row.endpoint),
    protocol: row.protocol,
    headers: headerNames(row.headers),
    delivery: {
      lastAttemptAt: isoOrNull(row.last_attempt_at),
      lastSuccessAt: isoOrNull(row.last_success_at),
      lastStatusCode: row.last_status_code,
      lastError:
        row.last_error !== null && row.last_error_at !== null
          ? { at: new Date(row.last_error_at).toISOString(), message: row.last_error }
          : null,
    },
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The tenant's OTLP export row, or null. */
export function otlpExportRow(db: D1Database, tenant: string): Promise<OtlpExportRow | null> {
  return db.prepare('SELECT * FROM otlp_exports WHERE tenant = ?').bind(tenant).first<OtlpExportRow>();
}

/** The latest of some epoch-ms values, or null. */
function latest(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length > 0 ? Math.max(...known) : null;
}

/**
 * The home row with the delivery figures of every copy of the same settings merged in: each shard's deliveries
 * record their attempts in their own shard (./copies.ts), so the latest attempt, success and error of any.
 */
function merged(home: OtlpExportRow, copies: readonly OtlpExportRow[]): OtlpExportRow {
  const all = [home, ...copies.filter((r) => r.updated_at === home.updated_at)];
  const lastAttempt = all.reduce((a, r) => ((r.last_attempt_at ?? -1) > (a.last_attempt_at ?? -1) ? r : a));
  const lastError = all.reduce((a, r) => ((r.last_error_at ?? -1) > (a.last_error_at ?? -1) ? r : a));
  return {
    ...home,
    last_attempt_at: lastAttempt.last_attempt_at,
    last_status_code: lastAttempt.last_status_code,
    last_success_at: latest(all.map((r) => r.last_success_at)),
    last_error: lastError.last_error,
    last_error_at: lastError.last_error_at,
  };
}

/** The tenant's export settings (`GET /v1/exports`), with the delivery figures of every shard of its spread. */
export async function getExports(env: Bindings, tenant: string): Promise<Exports> {
  const home = tenantDb(env, tenant);
  const row = await otlpExportRow(home, tenant);
  if (!row) return { otlp: null };
  const others = (await spreadDbs(env, tenant)).filter((db) => db !== home);
  const copies = await Promise.all(others.map((db) => otlpExportRow(db, tenant)));
  return {
    otlp: view(
      merged(
        row,
        copies.filter((r): r is OtlpExportRow => r !== null),
      ),
    ),
  };
}

/**
 * Replaces the tenant's export settings (`PUT /v1/exports`); `otlp: null` removes the OTLP export (deliveries
 * still pending then fail: their receiver is gone). The delivery figures start again with the new settings.
 * @throws ApiError 400 `url_not_allowed` naming `otlp.endpoint`.
 */
export async function putExports(env: Bindings, tenant: string, body: ExportsRequest): Promise<Exports> {
  const db = tenantDb(env, tenant);
  if (body.otlp === null) {
    // The copies first: a failure leaves the home row, so the answer is a 500 and a retry removes them all.
    const remove = (d: D1Database) => [d.prepare('DELETE FROM otlp_exports WHERE tenant = ?').bind(tenant)];
    await inOtherCopies(env, tenant, remove);
    await db.batch(remove(db));
    return { otlp: null };
  }
  const endpoint = requireWebhookUrl(env, body.otlp.endpoint, 'otlp.endpoint');
  const now = Date.now();
  await db
    .prepare(
      `INSERT INTO otlp_exports (tenant, endpoint, protocol, headers, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant) DO UPDATE SET endpoint = excluded.endpoint, protocol = excluded.protocol,
         headers = excluded.headers, updated_at = excluded.updated_at, last_attempt_at = NULL, last_success_at = NULL,
         last_error = NULL, last_error_at = NULL, last_status_code = NULL`,
    )
    .bind(tenant, endpoint, body.otlp.protocol ?? 'http/protobuf', JSON.stringify(body.otlp.headers ?? {}), now, now)
    .run();
  // Every shard of the spread takes the new settings (a retried PUT writes them again).
  await copyOtlpExport(env, tenant);
  // The home row answers: the new settings cleared the delivery figures, so no copy has any to merge in.
  const row = await otlpExportRow(db, tenant);
  return { otlp: row ? view(row) : null };
}
