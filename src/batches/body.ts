/**
 * @module
 * Reads the body of `POST /v1/batches`: JSON (`application/json`, the request object) or NDJSON
 * (`application/x-ndjson`: line 1 is the header, i.e. the request without `items`; every further
 * non-empty line is one item, so line n holds `items[n-2]`). Either becomes the same JSON request object
 * for the route's zod validator, so both forms are validated alike and errors name `items.3.task…`.
 *
 * The limit is `MAX_BATCH_BODY_BYTES` (default 16 MiB, src/config/vars.ts), not the evaluation
 * routes' `MAX_BODY_BYTES`. Malformed JSON is 400 `invalid_json` (NDJSON: naming the line), a body over the
 * limit 413, another Content-Type 415; keys `__proto__`, `constructor`, `prototype` are refused anywhere.
 */
import { z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { ApiError, invalidRequest } from '../http/errors.js';
import { forbiddenKeyPaths, readLimited } from '../http/json-body.js';
import type { TenantEnv } from '../tenants/auth.js';
import { configOf } from '../config/vars.js';

/** Media type of the NDJSON form. */
export const NDJSON_TYPE = 'application/x-ndjson';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** Parses one JSON text, or throws 400 `invalid_json` saying `where`. */
function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(
      400,
      'invalid_json',
      `${where} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** Keys an item has and the header never does: a first line with one is an item sent without its header. */
const ITEM_ONLY_KEYS = ['task', 'id'] as const;

/**
 * The request object of an NDJSON body: the header (line 1) with `items` from the following lines. Blank
 * lines (a trailing newline, `\r\n` endings) are skipped.
 * @throws ApiError 400 `invalid_json` naming the line, or `invalid_request` for a header that is not an
 *   object, is an item (no header line), or carries `items` itself.
 */
export function parseNdjson(text: string): Record<string, unknown> {
  let header: Record<string, unknown> | null = null;
  const items: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    if (header !== null) {
      items.push(parseJson(line, `line ${i + 1} (items.${items.length})`));
      continue;
    }
    const value = parseJson(line, `line ${i + 1} (the header)`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw invalidRequest(
        [{ path: '(root)', message: `line ${i + 1}: the header must be a JSON object (the request without items)` }],
        'request body',
      );
    }
    const itemKey = ITEM_ONLY_KEYS.find((k) => k in value);
    if (itemKey !== undefined) {
      throw invalidRequest(
        [
          {
            path: '(root)',
            message: `line ${i + 1} is an item (it has "${itemKey}"), but an NDJSON body starts with the header line: the request without items, e.g. {"preset":"fastchat-pair"} for a batch; then one item per line`,
          },
        ],
        'request body',
      );
    }
    if ('items' in value) {
      throw invalidRequest(
        [{ path: 'items', message: `line ${i + 1}: in NDJSON the items follow the header, one per line` }],
        'request body',
      );
    }
    header = value as Record<string, unknown>;
  }
  if (header === null)
    throw new ApiError(400, 'invalid_json', 'request body is empty; send the header line, then one item per line');
  return { ...header, items };
}

/** Reads, parses and checks the body (see the module note), then hands the request object on as JSON. */
export const batchBody = () =>
  createMiddleware<TenantEnv>(async (c, next) => {
    const limit = configOf(c.env).MAX_BATCH_BODY_BYTES;
    const declared = c.req.header('Content-Length');
    if (declared !== undefined && Number(declared) > limit)
      throw new ApiError(413, 'payload_too_large', `request body is larger than ${limit} bytes`);
    const bytes = await readLimited(c.req.raw.body, limit);
    if (bytes.length === 0)
      throw new ApiError(400, 'invalid_json', 'request body is empty; send a JSON object or NDJSON');
    const type = (c.req.header('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const ndjson = type === NDJSON_TYPE;
    if (!ndjson && !JSON_TYPE.test(type)) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        `Content-Type must be application/json or ${NDJSON_TYPE}, got "${type || '(none)'}"`,
      );
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw new ApiError(400, 'invalid_json', 'request body is not valid UTF-8');
    }
    const request = ndjson ? parseNdjson(text) : parseJson(text, 'request body');
    const forbidden = forbiddenKeyPaths(request);
    if (forbidden.length > 0) {
      throw invalidRequest(
        forbidden.map((path) => ({ path, message: `key "${path.split('.').at(-1) ?? path}" is not allowed` })),
        'request body',
      );
    }
    const headers = new Headers(c.req.raw.headers);
    headers.set('Content-Type', 'application/json');
    headers.delete('Content-Length');
    // The stream is consumed: hand the request object to the validator (the same bytes for JSON).
    c.req.raw = new Request(c.req.raw, { body: ndjson ? JSON.stringify(request) : bytes, headers });
    return next();
  });

/**
 * The 200 of a paged NDJSON read: one `line` per line, the next page's cursor in `X-Next-Cursor` and
 * `Link: <…>; rel="next"` (both absent on the last page).
 */
export function ndjsonPageResponse(line: z.ZodType, lineName: string) {
  return {
    description: `NDJSON: one \`${lineName}\` per line.`,
    headers: z.object({
      'X-Next-Cursor': z
        .string()
        .optional()
        .openapi({ description: 'Cursor of the next page; absent on the last page.' }),
      Link: z
        .string()
        .optional()
        .openapi({ description: 'RFC 8288 link to the next page (`rel="next"`); absent on the last page.' }),
    }),
    // A `string` key: the typed handler may return a plain Response (hono reads `…json` keys as JSON).
    content: { [NDJSON_TYPE as string]: { schema: line } },
  };
}

/** A page of NDJSON text as the response {@link ndjsonPageResponse} documents; `path` is the read's path. */
export function ndjsonPage(page: { ndjson: string; next: string | null }, path: string, limit: number): Response {
  const headers = new Headers({ 'Content-Type': `${NDJSON_TYPE}; charset=utf-8` });
  if (page.next !== null) {
    headers.set('X-Next-Cursor', page.next);
    headers.set('Link', `<${path}?cursor=${page.next}&limit=${limit}>; rel="next"`);
  }
  return new Response(page.ndjson, { status: 200, headers });
}
