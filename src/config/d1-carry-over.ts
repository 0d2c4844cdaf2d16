/**
 * @module
 * The carry-over of a one-database state into the shards (docs/scale.md, "Carrying a one-database state
 * over"): with `D1_SHARDS` 0, `DB` held every tenant's rows; once the count is raised, each tenant's rows
 * belong in its shard ({@link shardOfBucket} of its bucket), where nothing would see them in `DB`. Free of
 * the Workers runtime: the Worker runs it through its bindings (src/config/d1-shards.ts, the admin API) and
 * `npm start` through its D1-only Miniflare instance before the Worker runs (src/cli/local-migrations.ts).
 *
 * Idempotent and resumable without a journal. A root row (a table with a `tenant` column) moves with its
 * children (rows that name it: an evaluation's transcript, a delivery's attempts, …) in two transactions:
 * `INSERT OR IGNORE` into the shard, then `DELETE` from `DB`. A crash between the two leaves the rows in both;
 * the next run copies them again (ignored: the shard keeps its copy) and deletes them, so nothing is lost or
 * doubled. The service's own tables stay; `tenants` rows and content stored by hash are copied, not moved.
 * When nothing is left, a row in `d1_carry_over` (migration 0021) records it, and later runs stop at once.
 */
import { bucketOf, shardOfBucket } from './d1-buckets.js';

/** One SQL statement and its bound values. */
export interface SqlStatement {
  sql: string;
  params: readonly unknown[];
}

/** A database the carry-over reads and writes: `batch` runs its statements as one transaction. */
export interface CarryOverDb {
  batch(statements: readonly SqlStatement[]): Promise<Record<string, unknown>[][]>;
}

/** How a table's rows are carried over. */
export type CarryOverRule =
  /** The service's own rows (keys, triggers): they stay in `DB`. */
  | { kind: 'control' }
  /** Copied into the shard of the tenant each row is (`tenants`: the shard's joins read its settings). */
  | { kind: 'mirror' }
  /** Content stored once by hash that any tenant's rows may name: copied into every shard. */
  | { kind: 'shared' }
  /** A tenant's rows (a `tenant` column): moved into the tenant's shard, in this table's order. */
  | { kind: 'tenant' }
  /**
   * Rows that name a row of `parent` (`column` = its `id`; a foreign key or not): moved with it, since D1
   * checks foreign keys, a parent can neither leave `DB` before its children nor reach a shard after them.
   * `copies`: rows of other tables this one's foreign keys name, copied into the shard first (moved later).
   */
  | { kind: 'child'; parent: string; column: string; copies?: { table: string; column: string }[] };

/**
 * Every table of the migrations and how it is carried over; a table missing here that holds rows stops the
 * carry-over (tests/worker/d1-carry-over.test.ts checks the list against the migrations). Tenant tables move
 * in this order: evaluations before meta-evaluations, whose items go with the evaluations they name.
 */
export const CARRY_OVER_RULES: Readonly<Record<string, CarryOverRule>> = {
  api_keys: { kind: 'control' },
  triggers: { kind: 'control' },
  d1_carry_over: { kind: 'control' },
  tenants: { kind: 'mirror' },
  method_configs: { kind: 'shared' },
  evaluations: { kind: 'tenant' },
  verdict_texts: { kind: 'child', parent: 'evaluations', column: 'evaluation_id' },
  evaluation_tasks: { kind: 'child', parent: 'evaluations', column: 'evaluation_id' },
  transcripts: { kind: 'child', parent: 'evaluations', column: 'evaluation_id' },
  usage: { kind: 'child', parent: 'evaluations', column: 'evaluation_id' },
  meta_evaluation_items: {
    kind: 'child',
    parent: 'evaluations',
    column: 'evaluation_id',
    copies: [{ table: 'meta_evaluations', column: 'meta_id' }],
  },
  meta_evaluations: { kind: 'tenant' },
  usage_rollup: { kind: 'tenant' },
  batches: { kind: 'tenant' },
  evaluation_task_groups: { kind: 'child', parent: 'batches', column: 'batch_id' },
  comparisons: { kind: 'tenant' },
  webhook_signing_secrets: { kind: 'tenant' },
  webhook_endpoints: { kind: 'tenant' },
  webhook_events: { kind: 'tenant' },
  webhook_deliveries: { kind: 'child', parent: 'webhook_events', column: 'event_id' },
  webhook_attempts: { kind: 'child', parent: 'webhook_deliveries', column: 'delivery_id' },
  rubrics: { kind: 'tenant' },
  rubric_contents: { kind: 'tenant' },
  rubric_versions: { kind: 'child', parent: 'rubrics', column: 'rubric_id' },
  rubric_tags: { kind: 'child', parent: 'rubrics', column: 'rubric_id' },
  evals: { kind: 'tenant' },
  eval_runs: { kind: 'tenant' },
  eval_run_items: { kind: 'child', parent: 'eval_runs', column: 'run_id' },
  eval_run_calls: { kind: 'child', parent: 'eval_runs', column: 'run_id' },
  eval_run_wave_calls: { kind: 'child', parent: 'eval_runs', column: 'run_id' },
  files: { kind: 'tenant' },
  annotation_queues: { kind: 'tenant' },
  annotation_items: { kind: 'child', parent: 'annotation_queues', column: 'queue_id' },
  annotation_labels: { kind: 'child', parent: 'annotation_queues', column: 'queue_id' },
  eval_verdict_cache: { kind: 'tenant' },
  grader_run_keys: { kind: 'tenant' },
  alignments: { kind: 'tenant' },
  traces: { kind: 'tenant' },
  trace_tombstones: { kind: 'tenant' },
  monitors: { kind: 'tenant' },
  monitor_days: { kind: 'tenant' },
  monitor_count_marks: { kind: 'tenant' },
  otlp_exports: { kind: 'tenant' },
};

/** Root rows read and moved per chunk (with their children): 50. */
export const CARRY_OVER_CHUNK_ROWS = 50;

/** The most JSON one insert or delete binds, in characters: under D1's 2 MB per value, as batch inserts are. */
const JSON_CHUNK_CHARS = 800_000;

/** What one {@link carryOver} call did. */
export interface CarryOverReport {
  /** Rows moved out of `DB` into a shard, by table. */
  moved: Record<string, number>;
  /** True when `DB` holds no tenant's row any more (recorded: later calls return at once). */
  done: boolean;
}

interface Table {
  name: string;
  columns: string[];
  key: string[];
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** `INSERT OR <mode>` of `rows` into `t`, as few statements as the JSON chunks allow. */
function insertStatements(
  t: Table,
  rows: readonly Record<string, unknown>[],
  mode: 'IGNORE' | 'REPLACE',
): SqlStatement[] {
  const picks = t.columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ');
  const sql = `INSERT OR ${mode} INTO ${quote(t.name)} (${t.columns.map(quote).join(', ')}) SELECT ${picks} FROM json_each(?)`;
  return jsonChunks(rows.map((r) => t.columns.map((c) => r[c] ?? null))).map((json) => ({ sql, params: [json] }));
}

/** `DELETE` of `rows` from `t` by their primary key. */
function deleteStatements(t: Table, rows: readonly Record<string, unknown>[]): SqlStatement[] {
  const keys = t.key.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ');
  const sql = `DELETE FROM ${quote(t.name)} WHERE (${t.key.map(quote).join(', ')}) IN (SELECT ${keys} FROM json_each(?))`;
  return jsonChunks(rows.map((r) => t.key.map((c) => r[c] ?? null))).map((json) => ({ sql, params: [json] }));
}

/** `values` as JSON arrays of at most {@link JSON_CHUNK_CHARS} each. */
function jsonChunks(values: readonly unknown[][]): string[] {
  const chunks: string[] = [];
  let parts: string[] = [];
  let size = 0;
  for (const v of values) {
    const s = JSON.stringify(v);
    if (parts.length > 0 && size + s.length > JSON_CHUNK_CHARS) {
      chunks.push(`[${parts.join(',')}]`);
      parts = [];
      size = 0;
    }
    parts.push(s);
    size += s.length + 1;
  }
  if (parts.length > 0) chunks.push(`[${parts.join(',')}]`);
  return chunks;
}

async function one(db: CarryOverDb, sql: string, ...params: unknown[]): Promise<Record<string, unknown>[]> {
  return (await db.batch([{ sql, params }]))[0] ?? [];
}

/** The tables of `db` with their columns and primary key, by name. */
async function tablesOf(db: CarryOverDb): Promise<Map<string, Table>> {
  const names = (
    await one(
      db,
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB 'sqlite_*' AND name NOT GLOB '_cf_*' AND name != 'd1_migrations'",
    )
  ).map((r) => String(r.name));
  const infos = await db.batch(
    names.map((n) => ({ sql: 'SELECT name, pk FROM pragma_table_info(?) ORDER BY cid', params: [n] })),
  );
  return new Map(
    names.map((name, i) => {
      const cols = infos[i] ?? [];
      const key = cols
        .filter((c) => Number(c.pk) > 0)
        .sort((a, b) => Number(a.pk) - Number(b.pk))
        .map((c) => String(c.name));
      return [name, { name, columns: cols.map((c) => String(c.name)), key }];
    }),
  );
}

/**
 * Moves every tenant's rows from `control` (`DB`) into `shards` (`DB_00` …, in order), at most `maxRows`
 * root rows per call when given (a Worker invocation's query budget: call again until `done`). A no-op
 * without shards. Throws when `DB` holds rows of a table {@link CARRY_OVER_RULES} does not know.
 * @param moved where the moves are counted as each group of rows is moved (default a fresh record), so a caller
 *   that takes the carry-over again after a throw keeps the count of what the broken take had moved: with the same
 *   record, the next take also counts a group whose move threw once its delete had run (read back from `DB`)
 */
export async function carryOver(
  control: CarryOverDb,
  shards: readonly CarryOverDb[],
  now: number,
  maxRows = Number.POSITIVE_INFINITY,
  moved: Record<string, number> = {},
): Promise<CarryOverReport> {
  const report: CarryOverReport = { moved, done: true };
  if (shards.length === 0) return report;
  // The groups an earlier take with this count left unsure (its move threw): counted now as the rows say.
  const unsure = unsureMoves.get(moved) ?? [];
  unsureMoves.set(moved, unsure);
  // Each leaves the list once its rows are read: a read that throws (D1 still failing) keeps it for the next take.
  while (unsure.length > 0) {
    const u = unsure[0] as (typeof unsure)[number];
    const left = await rowsLeft(control, u.table, u.rows);
    moved[u.table.name] = (moved[u.table.name] ?? 0) + u.rows.length - left;
    unsure.shift();
  }
  const finished = await one(control, 'SELECT 1 AS one FROM d1_carry_over WHERE shards = ?', shards.length);
  if (finished.length > 0) return report;
  const tables = await tablesOf(control);
  const shardOf = (tenant: unknown) => shards[shardOfBucket(bucketOf(String(tenant)), shards.length)] as CarryOverDb;

  for (const t of tables.values()) {
    const rule = CARRY_OVER_RULES[t.name];
    if (rule && (rule.kind === 'control' || t.key.length > 0)) continue;
    if ((await one(control, `SELECT 1 AS one FROM ${quote(t.name)} LIMIT 1`)).length > 0)
      throw new Error(
        `D1 carry-over: table ${t.name} has rows but no rule or no primary key (src/config/d1-carry-over.ts)`,
      );
  }
  for (const t of tables.values()) {
    const rule = CARRY_OVER_RULES[t.name];
    if (rule?.kind === 'mirror') await copyAll(control, t, (r) => [shardOf(r.id)], 'REPLACE');
    if (rule?.kind === 'shared') await copyAll(control, t, () => shards, 'IGNORE');
  }

  let budget = maxRows;
  for (const [name, rule] of Object.entries(CARRY_OVER_RULES)) {
    const root = tables.get(name);
    if (rule.kind !== 'tenant' || !root) continue;
    for (;;) {
      if (budget <= 0) return { ...report, done: false };
      const rows = await one(
        control,
        `SELECT * FROM ${quote(root.name)} LIMIT ?`,
        Math.min(CARRY_OVER_CHUNK_ROWS, budget),
      );
      if (rows.length === 0) break;
      budget -= rows.length;
      const byShard = new Map<CarryOverDb, Record<string, unknown>[]>();
      for (const r of rows) byShard.set(shardOf(r.tenant), [...(byShard.get(shardOf(r.tenant)) ?? []), r]);
      for (const [shard, group] of byShard) {
        // Unsure until it returns: a delete whose answer was lost has moved the rows all the same.
        const move = { table: root, rows: group };
        unsure.push(move);
        await moveGroup(control, shard, tables, root, group);
        unsure.splice(unsure.indexOf(move), 1);
        moved[root.name] = (moved[root.name] ?? 0) + group.length;
      }
    }
  }
  await control.batch([
    { sql: 'INSERT OR IGNORE INTO d1_carry_over (shards, finished_at) VALUES (?, ?)', params: [shards.length, now] },
  ]);
  return report;
}

/**
 * Per count of moves (the `moved` record a caller hands every take): the groups whose move threw, so a take that
 * follows with the same count counts those the rows say went (their delete ran, its answer lost) and no other.
 */
const unsureMoves = new WeakMap<Record<string, number>, { table: Table; rows: Record<string, unknown>[] }[]>();

/** How many of `rows` (by `t`'s key) are still in `db`: a move's delete is one transaction, so all or none. */
async function rowsLeft(db: CarryOverDb, t: Table, rows: readonly Record<string, unknown>[]): Promise<number> {
  const keys = t.key.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ');
  const sql = `SELECT count(*) AS n FROM ${quote(t.name)} WHERE (${t.key.map(quote).join(', ')}) IN (SELECT ${keys} FROM json_each(?))`;
  let n = 0;
  for (const json of jsonChunks(rows.map((r) => t.key.map((c) => r[c] ?? null))))
    n += Number((await one(db, sql, json))[0]?.n ?? 0);
  return n;
}

/** Copies every row of `t` into the databases `targets` names for it, a page at a time (keyset on the key). */
async function copyAll(
  control: CarryOverDb,
  t: Table,
  targets: (row: Record<string, unknown>) => readonly CarryOverDb[],
  mode: 'IGNORE' | 'REPLACE',
): Promise<void> {
  const key = t.key.map(quote).join(', ');
  let after: unknown[] | null = null;
  for (;;) {
    const where: string = after ? `WHERE (${key}) > (${after.map(() => '?').join(', ')})` : '';
    const rows = await one(
      control,
      `SELECT * FROM ${quote(t.name)} ${where} ORDER BY ${key} LIMIT ?`,
      ...(after ?? []),
      CARRY_OVER_CHUNK_ROWS * 4,
    );
    if (rows.length === 0) return;
    const byDb = new Map<CarryOverDb, Record<string, unknown>[]>();
    for (const r of rows) for (const db of targets(r)) byDb.set(db, [...(byDb.get(db) ?? []), r]);
    for (const [db, group] of byDb) await db.batch(insertStatements(t, group, mode));
    const last = rows.at(-1) ?? {};
    after = t.key.map((c) => last[c]);
  }
}

/** A table's rows in a move, in the order they go into a shard (parents first). */
interface Part {
  table: Table;
  rows: Record<string, unknown>[];
  /** Copied, not moved: rows a child's foreign key names, moved with their own table later. */
  copyOnly?: boolean;
}

/** `rows` of `table` and, depth first, every row that names one of them ({@link CARRY_OVER_RULES} children). */
async function withChildren(
  control: CarryOverDb,
  tables: ReadonlyMap<string, Table>,
  table: Table,
  rows: Record<string, unknown>[],
): Promise<Part[]> {
  const parts: Part[] = [{ table, rows }];
  if (rows.length === 0) return parts;
  const ids = JSON.stringify(rows.map((r) => r.id));
  for (const [name, rule] of Object.entries(CARRY_OVER_RULES)) {
    const child = tables.get(name);
    if (rule.kind !== 'child' || rule.parent !== table.name || !child) continue;
    const found = await one(
      control,
      `SELECT * FROM ${quote(name)} WHERE ${quote(rule.column)} IN (SELECT value FROM json_each(?))`,
      ids,
    );
    for (const ref of rule.copies ?? []) {
      const target = tables.get(ref.table);
      const named = JSON.stringify([...new Set(found.map((r) => r[ref.column]))]);
      if (target && found.length > 0)
        parts.unshift({
          table: target,
          rows: await one(
            control,
            `SELECT * FROM ${quote(ref.table)} WHERE id IN (SELECT value FROM json_each(?))`,
            named,
          ),
          copyOnly: true,
        });
    }
    parts.push(...(await withChildren(control, tables, child, found)));
  }
  return parts;
}

/**
 * Moves `rows` of `root` and every row that names them into `shard`: copied in one transaction (parents
 * first), then deleted from `DB` in one (children first), so each side's foreign keys hold throughout.
 */
async function moveGroup(
  control: CarryOverDb,
  shard: CarryOverDb,
  tables: ReadonlyMap<string, Table>,
  root: Table,
  rows: Record<string, unknown>[],
): Promise<void> {
  const parts = await withChildren(control, tables, root, rows);
  await shard.batch(parts.flatMap((p) => insertStatements(p.table, p.rows, 'IGNORE')));
  await control.batch(
    parts
      .filter((p) => !p.copyOnly)
      .reverse()
      .flatMap((p) => deleteStatements(p.table, p.rows)),
  );
}
