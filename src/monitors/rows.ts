/**
 * @module
 * The monitors' D1 statements, in the tenant's database (`tenantDb`): `monitors` (the definitions), `monitor_days`
 * (matched, sampled and skipped per UTC day, added exactly once from the trace objects' numbered count sets, with
 * `monitor_count_marks`: migrations/0035_monitor_count_marks.sql) and, read only, the evaluations a
 * monitor made (their `source.monitorId`, index `evaluations_tenant_source_monitor`: succeeded, failed, the day's
 * spend). migrations/0025_monitors_and_evaluation_sources.sql. Times are epoch ms.
 */
import type { MonitorCounts, MonitorDefinition } from './schemas.js';
import { MonitorDefinitionSchema } from './schemas.js';

/** A monitor as stored. */
export interface MonitorRecord {
  id: string;
  tenant: string;
  definition: MonitorDefinition;
  paused: boolean;
  createdAt: number;
  updatedAt: number;
}

interface MonitorRow {
  id: string;
  tenant: string;
  name: string;
  body: string;
  paused: number;
  created_at: number;
  updated_at: number;
}

function recordOf(r: MonitorRow): MonitorRecord {
  return {
    id: r.id,
    tenant: r.tenant,
    definition: MonitorDefinitionSchema.parse({ ...(JSON.parse(r.body) as object), name: r.name }),
    paused: r.paused !== 0,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function bodyOf(d: MonitorDefinition): string {
  const { name: _name, ...rest } = d;
  return JSON.stringify(rest);
}

/** Inserts a monitor unless the tenant already has {@link max}; true when inserted. */
export async function insertMonitor(db: D1Database, m: MonitorRecord, max: number): Promise<boolean> {
  const r = await db
    .prepare(
      `INSERT INTO monitors (tenant, id, name, body, paused, created_at, updated_at)
       SELECT ?, ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM monitors WHERE tenant = ?) < ?`,
    )
    .bind(
      m.tenant,
      m.id,
      m.definition.name,
      bodyOf(m.definition),
      m.paused ? 1 : 0,
      m.createdAt,
      m.updatedAt,
      m.tenant,
      max,
    )
    .run();
  return r.meta.changes > 0;
}

/** The tenant's monitor, or null. */
export async function getMonitor(db: D1Database, tenant: string, id: string): Promise<MonitorRecord | null> {
  const r = await db.prepare('SELECT * FROM monitors WHERE tenant = ? AND id = ?').bind(tenant, id).first<MonitorRow>();
  return r ? recordOf(r) : null;
}

/** The tenant's monitors, newest first; only the active ones with `activeOnly`. */
export async function listMonitors(db: D1Database, tenant: string, activeOnly = false): Promise<MonitorRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM monitors WHERE tenant = ? ${activeOnly ? 'AND paused = 0' : ''} ORDER BY created_at DESC, id DESC`,
    )
    .bind(tenant)
    .all<MonitorRow>();
  return results.map(recordOf);
}

/**
 * A page of the tenant's monitors, newest first: at most `limit` + 1 (the extra one says a next page exists),
 * after the keyset position `after` (the previous page's last `createdAt` and id) when given.
 */
export async function monitorsPage(
  db: D1Database,
  tenant: string,
  limit: number,
  after: { t: number; i: string } | null,
): Promise<MonitorRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM monitors WHERE tenant = ?1 AND (?2 IS NULL OR created_at < ?2 OR (created_at = ?2 AND id < ?3))
       ORDER BY created_at DESC, id DESC LIMIT ?4`,
    )
    .bind(tenant, after?.t ?? null, after?.i ?? null, limit + 1)
    .all<MonitorRow>();
  return results.map(recordOf);
}

/** Replaces a monitor's definition and pause flag; true when it exists. */
export async function updateMonitor(db: D1Database, m: MonitorRecord): Promise<boolean> {
  const r = await db
    .prepare('UPDATE monitors SET name = ?, body = ?, paused = ?, updated_at = ? WHERE tenant = ? AND id = ?')
    .bind(m.definition.name, bodyOf(m.definition), m.paused ? 1 : 0, m.updatedAt, m.tenant, m.id)
    .run();
  return r.meta.changes > 0;
}

/** Deletes a monitor and its day counters (its evaluations stay); true when it existed. */
export async function deleteMonitor(db: D1Database, tenant: string, id: string): Promise<boolean> {
  const [r] = await db.batch([
    db.prepare('DELETE FROM monitors WHERE tenant = ? AND id = ?').bind(tenant, id),
    db.prepare('DELETE FROM monitor_days WHERE tenant = ? AND monitor_id = ?').bind(tenant, id),
  ]);
  return (r?.meta.changes ?? 0) > 0;
}

/** What some decisions add to a monitor's day. */
export interface DayCounts {
  matched: number;
  sampled: number;
  skippedBudget: number;
  /** Sampled matches with nothing a judge can take (./match.ts `unjudgeable`). */
  skippedUnjudgeable: number;
}

/** The UTC day of `ms`, `YYYY-MM-DD`. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * What one call of a trace's object (a message's spans, an alarm) decided for one monitor and day, numbered: a
 * trace's sets have increasing `seq`, and D1 adds a set only when its number is above the trace's mark.
 */
export interface CountSet extends DayCounts {
  traceId: string;
  seq: number;
  monitorId: string;
  day: string;
}

/**
 * Adds count sets to their monitors' days exactly once, in one transaction: each set whose `seq` is above its
 * trace's mark (`monitor_count_marks`) is added (summed per monitor and day: one upsert each), then each trace's
 * mark moves to its highest `seq`. Sending a set again (a retry, or after the answer was lost) adds nothing.
 * The sets travel as one JSON parameter, so any number of traces and monitors costs two statements.
 */
export async function addCountSets(db: D1Database, tenant: string, sets: readonly CountSet[]): Promise<void> {
  if (sets.length === 0) return;
  const json = JSON.stringify(
    sets.map((c) => [
      c.traceId,
      c.seq,
      c.monitorId,
      c.day,
      c.matched,
      c.sampled,
      c.skippedBudget,
      c.skippedUnjudgeable,
    ]),
  );
  await db.batch([
    db
      .prepare(
        `INSERT INTO monitor_days (tenant, monitor_id, day, matched, sampled, skipped_budget, skipped_unjudgeable)
         SELECT ?1, s.monitor_id, s.day, SUM(s.matched), SUM(s.sampled), SUM(s.skipped), SUM(s.unjudgeable)
         FROM (SELECT json_extract(value, '$[0]') AS trace_id, json_extract(value, '$[1]') AS seq,
                 json_extract(value, '$[2]') AS monitor_id, json_extract(value, '$[3]') AS day,
                 json_extract(value, '$[4]') AS matched, json_extract(value, '$[5]') AS sampled,
                 json_extract(value, '$[6]') AS skipped, COALESCE(json_extract(value, '$[7]'), 0) AS unjudgeable
               FROM json_each(?2)) AS s
         WHERE s.seq > COALESCE((SELECT k.seq FROM monitor_count_marks k WHERE k.tenant = ?1 AND k.trace_id = s.trace_id), 0)
         GROUP BY s.monitor_id, s.day
         ON CONFLICT (tenant, monitor_id, day) DO UPDATE SET matched = matched + excluded.matched,
           sampled = sampled + excluded.sampled, skipped_budget = skipped_budget + excluded.skipped_budget,
           skipped_unjudgeable = skipped_unjudgeable + excluded.skipped_unjudgeable`,
      )
      .bind(tenant, json),
    db
      .prepare(
        `INSERT INTO monitor_count_marks (tenant, trace_id, seq)
         SELECT ?1, json_extract(value, '$[0]'), MAX(json_extract(value, '$[1]')) FROM json_each(?2) WHERE true
         GROUP BY json_extract(value, '$[0]')
         ON CONFLICT (tenant, trace_id) DO UPDATE SET seq = MAX(seq, excluded.seq)`,
      )
      .bind(tenant, json),
  ]);
}

/** Forgets a trace's mark (the trace is erased: its object's sets went with it). */
export async function deleteCountMark(db: D1Database, tenant: string, traceId: string): Promise<void> {
  await db.prepare('DELETE FROM monitor_count_marks WHERE tenant = ? AND trace_id = ?').bind(tenant, traceId).run();
}

/** A monitor's counts since it was created: its days summed, its evaluations counted by how they ended. */
export async function monitorCounts(db: D1Database, tenant: string, id: string): Promise<MonitorCounts> {
  const [days, ended] = await db.batch([
    db
      .prepare(
        `SELECT COALESCE(SUM(matched), 0) AS matched, COALESCE(SUM(sampled), 0) AS sampled,
           COALESCE(SUM(skipped_budget), 0) AS skipped, COALESCE(SUM(skipped_unjudgeable), 0) AS unjudgeable
         FROM monitor_days WHERE tenant = ? AND monitor_id = ?`,
      )
      .bind(tenant, id),
    db
      .prepare(
        `SELECT COALESCE(SUM(status = 'succeeded'), 0) AS succeeded, COALESCE(SUM(status IN ('failed', 'cancelled')), 0) AS failed
         FROM evaluations WHERE tenant = ? AND source IS NOT NULL AND json_extract(source, '$.monitorId') = ?`,
      )
      .bind(tenant, id),
  ]);
  const d = days?.results[0] as { matched: number; sampled: number; skipped: number; unjudgeable: number } | undefined;
  const e = ended?.results[0] as { succeeded: number; failed: number } | undefined;
  return {
    matched: d?.matched ?? 0,
    sampled: d?.sampled ?? 0,
    succeeded: e?.succeeded ?? 0,
    failed: e?.failed ?? 0,
    skippedBudget: d?.skipped ?? 0,
    skippedUnjudgeable: d?.unjudgeable ?? 0,
  };
}

/** What a monitor's evaluations created since `since` spent (ended ones) and how many still run. */
export interface DaySpend {
  spentUsd: number;
  ended: number;
  running: number;
}

/** A monitor's spend since `since` (epoch ms): the booked cost of its ended evaluations, and its running ones. */
export async function spendSince(db: D1Database, tenant: string, id: string, since: number): Promise<DaySpend> {
  const r = await db
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN finished_at IS NOT NULL THEN cost_usd ELSE 0 END), 0) AS spent,
         COALESCE(SUM(finished_at IS NOT NULL), 0) AS ended, COALESCE(SUM(finished_at IS NULL), 0) AS running
       FROM evaluations WHERE tenant = ? AND source IS NOT NULL AND json_extract(source, '$.monitorId') = ? AND created_at >= ?`,
    )
    .bind(tenant, id, since)
    .first<{ spent: number; ended: number; running: number }>();
  return { spentUsd: r?.spent ?? 0, ended: r?.ended ?? 0, running: r?.running ?? 0 };
}
