/**
 * @module
 * A queue's labels as files: the export (JSONL, one item per line with its task, labels and consensus; CSV, one
 * label per row) and the import body (JSONL, one label per line, or a CSV with a header row, such as the export's),
 * turned into the JSON request object the import route's zod schema checks, so errors name `labels.N.…`.
 */
import { createMiddleware } from 'hono/factory';
import { configOf } from '../config/vars.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import { forbiddenKeyPaths, readLimited } from '../http/json-body.js';
import type { TenantEnv } from '../tenants/auth.js';
import type { FoldedItem } from './labelled.js';
import { storedLabelView } from './labelled.js';
import type { QueueRecord } from './rows.js';
import type { ExportLine } from './schemas.js';

/** Media type of JSONL, as the API serves and takes it. */
export const JSONL_TYPE = 'application/x-ndjson';
/** Media type of CSV. */
export const CSV_TYPE = 'text/csv';

/** The CSV export's columns, in order: one row per label. */
export const CSV_COLUMNS = [
  'queue_id',
  'item_id',
  'item_status',
  'annotator',
  'role',
  'provenance',
  'winner',
  'score',
  'aspects',
  'comment',
  'updated_at',
] as const;

/** Columns an import reads; the export's others (`queue_id`, `item_status`, `provenance`, `updated_at`) are accepted and not read. */
const IMPORT_COLUMNS: ReadonlySet<string> = new Set([
  'item_id',
  'annotator',
  'role',
  'winner',
  'score',
  'aspects',
  'comment',
]);

/** One export line: the item with its task, labels and where it stands. */
export function exportLine(queue: QueueRecord, f: FoldedItem): ExportLine {
  return {
    queueId: queue.id,
    itemId: f.item.itemId,
    task: f.item.task,
    evaluationId: f.item.evaluationId,
    status: f.consensus.status,
    resolution: f.consensus.resolution,
    label: f.consensus.label,
    labels: f.labels.map(storedLabelView),
  };
}

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
function cell(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The CSV export: a header row, then one row per label (items without labels have none), CRLF line ends. */
export function exportCsv(queue: QueueRecord, items: readonly FoldedItem[]): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const f of items)
    for (const l of f.labels)
      rows.push(
        [
          queue.id,
          f.item.itemId,
          f.consensus.status,
          l.annotator,
          l.role,
          l.provenance,
          l.label.winner,
          l.label.score,
          l.label.aspects ? JSON.stringify(l.label.aspects) : null,
          l.comment,
          new Date(l.updatedAt).toISOString(),
        ]
          .map(cell)
          .join(','),
      );
  return `${rows.join('\r\n')}\r\n`;
}

/** RFC 4180 records of a CSV text (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (quoted) {
      if (ch === '"' && text.charAt(i + 1) === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text.charAt(i + 1) === '\n') i += 1;
      record.push(field);
      if (record.some((f) => f !== '')) records.push(record);
      record = [];
      field = '';
    } else field += ch;
  }
  record.push(field);
  if (record.some((f) => f !== '')) records.push(record);
  return records;
}

/** The import lines of a CSV with a header row (see {@link IMPORT_COLUMNS}). */
function csvLines(text: string): Record<string, unknown>[] {
  const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  if (!header)
    throw new ApiError(400, 'invalid_request', 'the CSV is empty; send a header row, then one label per row');
  const known = new Set<string>([...CSV_COLUMNS]);
  const unknown = header.filter((h) => !known.has(h));
  if (unknown.length > 0)
    throw invalidRequest(
      unknown.map((h) => ({
        path: '(root)',
        message: `unknown CSV column "${h}" (columns: ${CSV_COLUMNS.join(', ')})`,
      })),
      'request body',
    );
  return rows.map((row, r) => {
    const at = (name: string) => {
      const i = header.indexOf(name);
      const v = i < 0 || !IMPORT_COLUMNS.has(name) ? '' : (row[i] ?? '');
      return v === '' ? undefined : v;
    };
    const score = at('score');
    const aspects = at('aspects');
    let parsedAspects: unknown;
    try {
      parsedAspects = aspects === undefined ? undefined : JSON.parse(aspects);
    } catch {
      throw invalidRequest(
        [{ path: `labels.${r}.label.aspects`, message: `row ${r + 2}: aspects must be a JSON object` }],
        'request body',
      );
    }
    const label = {
      ...(at('winner') !== undefined ? { winner: at('winner') } : {}),
      ...(score !== undefined ? { score: Number(score) } : {}),
      ...(parsedAspects !== undefined ? { aspects: parsedAspects } : {}),
    };
    return {
      itemId: at('item_id'),
      label,
      ...(at('annotator') !== undefined ? { annotator: at('annotator') } : {}),
      ...(at('role') !== undefined ? { role: at('role') } : {}),
      ...(at('comment') !== undefined ? { comment: at('comment') } : {}),
    };
  });
}

/** The import lines of a JSONL text (blank lines skipped). */
function jsonlLines(text: string): unknown[] {
  const out: unknown[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    try {
      out.push(JSON.parse(line));
    } catch (err) {
      throw new ApiError(
        400,
        'invalid_json',
        `line ${i + 1} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  });
  return out;
}

/**
 * Reads an import body, JSONL (`application/x-ndjson`) or CSV (`text/csv`), under `MAX_BODY_BYTES`, and hands
 * `{labels: [...]}` on as JSON to the route's validator.
 * @throws ApiError 413 over the limit, 415 another Content-Type, 400 `invalid_json` naming a line, 400 an unknown CSV column.
 */
export const labelFileBody = () =>
  createMiddleware<TenantEnv>(async (c, next) => {
    const limit = configOf(c.env).MAX_BODY_BYTES;
    const declared = c.req.header('Content-Length');
    if (declared !== undefined && Number(declared) > limit)
      throw new ApiError(413, 'payload_too_large', `request body is larger than ${limit} bytes`);
    const bytes = await readLimited(c.req.raw.body, limit);
    const type = (c.req.header('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (type !== JSONL_TYPE && type !== CSV_TYPE)
      throw new ApiError(
        415,
        'unsupported_media_type',
        `Content-Type must be ${JSONL_TYPE} or ${CSV_TYPE}, got "${type || '(none)'}"`,
      );
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw new ApiError(400, 'invalid_json', 'request body is not valid UTF-8');
    }
    const labels = type === CSV_TYPE ? csvLines(text) : jsonlLines(text);
    const forbidden = forbiddenKeyPaths(labels);
    if (forbidden.length > 0)
      throw invalidRequest(
        forbidden.map((path) => ({ path: `labels.${path}`, message: 'key not allowed' })),
        'request body',
      );
    const headers = new Headers(c.req.raw.headers);
    headers.set('Content-Type', 'application/json');
    headers.delete('Content-Length');
    c.req.raw = new Request(c.req.raw, { body: JSON.stringify({ labels }), headers });
    return next();
  });
