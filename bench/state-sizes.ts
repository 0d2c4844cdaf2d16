/**
 * @module
 * What a local stack's state holds, read from the outside (whatever the schema): the local D1 databases' bytes
 * and rows per table (every D1 file summed: the control database and the shards), and each Durable Object
 * class's SQLite files (objects and bytes). Files are copied (with their WAL) and checkpointed in the copy with
 * the `sqlite3` command-line tool, so a running runtime is not disturbed; bytes are the pages in use
 * (`page_count - freelist_count`, times the page size), and a table's bytes are its pages and its indexes'
 * (`dbstat`).
 *
 * Layout read (Miniflare's persist folder): `<state>/v3/d1/<D1 object class>/<id>.sqlite` for D1 databases,
 * `<state>/v3/do/<script>-<Class>/<id>.sqlite` for Durable Objects.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** One table of the D1 database. */
export interface TableSize {
  rows: number;
  /** Pages of the table and its indexes, bytes. */
  bytes: number;
}

/** The D1 database: bytes in use and each table. */
export interface D1Size {
  bytes: number;
  tables: Record<string, TableSize>;
}

/** One Durable Object class's files. */
export interface ObjectClassSize {
  objects: number;
  bytes: number;
  /** The largest single object, bytes. */
  largest: number;
}

/** The state folder's stores. */
export interface StateSizes {
  d1: D1Size;
  /** By class directory name without the script prefix (`EvaluationDO`, `ProviderGateDO`, …). */
  objects: Record<string, ObjectClassSize>;
}

function sqlite(file: string, sql: string): string {
  return execFileSync('sqlite3', ['-batch', '-noheader', '-separator', '\t', file, sql], { encoding: 'utf8' });
}

function sqliteFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sqlite'))
    .map((f) => join(dir, f));
}

/** A copy of `file` and its WAL in `scratch`, checkpointed; answers the copy's path. */
function checkpointedCopy(file: string, scratch: string): string {
  const copy = join(scratch, basename(file));
  copyFileSync(file, copy);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
  sqlite(copy, 'PRAGMA wal_checkpoint(TRUNCATE);');
  return copy;
}

const USED_BYTES =
  'SELECT (SELECT page_count FROM pragma_page_count) - (SELECT freelist_count FROM pragma_freelist_count), (SELECT page_size FROM pragma_page_size);';

function usedBytes(copy: string): number {
  const [pages, size] = sqlite(copy, USED_BYTES).trim().split('\t').map(Number);
  return (pages ?? 0) * (size ?? 0);
}

function d1Size(copy: string): D1Size {
  const tables: Record<string, TableSize> = {};
  const names = sqlite(
    copy,
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%';",
  )
    .split('\n')
    .filter((n) => n !== '');
  const bytesByTable = new Map<string, number>();
  for (const line of sqlite(
    copy,
    'SELECT COALESCE(m.tbl_name, s.name), SUM(s.pgsize) FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY 1;',
  ).split('\n')) {
    const [name, bytes] = line.split('\t');
    if (name) bytesByTable.set(name, Number(bytes));
  }
  for (const name of names) {
    const rows = Number(sqlite(copy, `SELECT count(*) FROM "${name.replaceAll('"', '""')}";`).trim());
    tables[name] = { rows, bytes: bytesByTable.get(name) ?? 0 };
  }
  return { bytes: usedBytes(copy), tables };
}

/**
 * The sizes of the stores in state folder `state` (the one given to `startLocalStack` as `persistTo`).
 * @throws Error when the `sqlite3` tool is missing (Debian: `apt-get install sqlite3`).
 */
export function stateSizes(state: string): StateSizes {
  const scratch = mkdtempSync(join(tmpdir(), 'tribunal-state-sizes-'));
  try {
    // Folders only: D1's folder also holds the runtime's migration marker (src/cli/local-migrations.ts).
    const d1Dirs = existsSync(join(state, 'v3', 'd1'))
      ? readdirSync(join(state, 'v3', 'd1'), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => d.name)
      : [];
    const d1Files = d1Dirs.flatMap((d) => sqliteFiles(join(state, 'v3', 'd1', d)));
    // Every D1 file summed: the control database and the shards (D1_SHARDS), whichever holds the tenant's rows;
    // a file's data may still be in its WAL, so its own size says nothing (Miniflare's metadata file adds no table).
    const d1: D1Size = { bytes: 0, tables: {} };
    for (const file of d1Files) {
      const one = d1Size(checkpointedCopy(file, scratch));
      d1.bytes += one.bytes;
      for (const [name, t] of Object.entries(one.tables)) {
        const sum = d1.tables[name] ?? { rows: 0, bytes: 0 };
        d1.tables[name] = { rows: sum.rows + t.rows, bytes: sum.bytes + t.bytes };
      }
    }
    const objects: Record<string, ObjectClassSize> = {};
    const doRoot = join(state, 'v3', 'do');
    for (const dir of existsSync(doRoot) ? readdirSync(doRoot) : []) {
      const cls = dir.includes('-') ? dir.slice(dir.lastIndexOf('-') + 1) : dir;
      const size: ObjectClassSize = { objects: 0, bytes: 0, largest: 0 };
      for (const file of sqliteFiles(join(doRoot, dir))) {
        const copy = checkpointedCopy(file, scratch);
        const bytes = usedBytes(copy);
        rmSync(copy, { force: true });
        size.objects += 1;
        size.bytes += bytes;
        size.largest = Math.max(size.largest, bytes);
      }
      objects[cls] = size;
    }
    return { d1, objects };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
