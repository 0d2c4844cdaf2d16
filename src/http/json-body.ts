/**
 * @module
 * Reads a JSON request body under the deployment's size limit before any validator sees it, so that
 * oversized bodies get 413 `payload_too_large` and malformed ones 400 `invalid_json` naming the problem
 * (hono's validator would only say "Malformed JSON"). The body is re-attached to the request, and its text
 * handed to hono's body cache, so `zValidator('json', ...)` downstream parses the same bytes without reading
 * them again.
 *
 * Keys named `__proto__`, `constructor` or `prototype` are refused anywhere in the body (400
 * `invalid_request` naming each path): assigned to a plain object they set or shadow its prototype, so
 * they would be silently dropped (e.g. `config.__proto__` merged over a preset) or worse, never used.
 */
import { createMiddleware } from 'hono/factory';
import { ApiError, ClientAbortedError, invalidRequest } from './errors.js';
import type { KernelEnv } from './kernel-env.js';
import { configOf } from '../config/vars.js';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'payload_too_large', `request body is larger than ${limit} bytes`);
}

/**
 * Reads the body (Content-Length checked first, then the bytes actually read, since the header can lie
 * or be absent with chunked encoding), decodes UTF-8 strictly and parses JSON.
 * @param options.optional when true, an empty body is accepted as `{}` (e.g. cancel without a reason). Default false.
 */
export const jsonBody = (options: { optional?: boolean } = {}) =>
  createMiddleware<KernelEnv>(async (c, next) => {
    const limit = configOf(c.env).MAX_BODY_BYTES;
    const declared = c.req.header('Content-Length');
    if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);

    const bytes = await readLimited(c.req.raw.body, limit);
    if (bytes.length === 0) {
      if (!options.optional) throw new ApiError(400, 'invalid_json', 'request body is empty; send a JSON object');
      c.req.raw = new Request(c.req.raw, { body: '{}', headers: withJsonType(c.req.raw.headers) });
      return next();
    }
    const type = (c.req.header('Content-Type') ?? '').split(';')[0]?.trim() ?? '';
    if (!JSON_TYPE.test(type)) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        `Content-Type must be application/json, got "${type || '(none)'}"`,
      );
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw new ApiError(400, 'invalid_json', 'request body is not valid UTF-8');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      throw new ApiError(400, 'invalid_json', `request body is not valid JSON: ${detail}`);
    }
    const forbidden = forbiddenKeyPaths(parsed);
    if (forbidden.length > 0) {
      throw invalidRequest(
        forbidden.map((path) => ({ path, message: `key "${path.split('.').at(-1) ?? path}" is not allowed` })),
        'request body',
      );
    }
    // The stream is consumed: the same bytes for whatever reads the raw request, and the text already decoded
    // in hono's body cache, where the validator's `c.req.json()` looks first (no second read and decode).
    c.req.raw = new Request(c.req.raw, { body: bytes });
    // hono keeps there the promise of each reading, though its `BodyCache` type names the resolved values.
    Object.assign(c.req.bodyCache, { text: Promise.resolve(text) });
    return next();
  });

/** Keys refused anywhere in a JSON body (see the module note). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Most forbidden-key paths reported for one body: 10. */
const MAX_REPORTED = 10;

/**
 * Dotted paths (`config.__proto__`, `items.0.task.constructor`) of every forbidden key in a parsed JSON
 * value, up to {@link MAX_REPORTED}. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function forbiddenKeyPaths(value: unknown): string[] {
  const found: string[] = [];
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const item = stack.pop();
    if (item === undefined || typeof item.value !== 'object' || item.value === null) continue;
    const entries: [string, unknown][] = Array.isArray(item.value)
      ? item.value.map((v: unknown, i) => [String(i), v])
      : Object.entries(item.value as Record<string, unknown>);
    for (const [key, child] of entries) {
      const path = item.path ? `${item.path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) found.push(path);
      else stack.push({ value: child, path });
    }
  }
  return found.slice(0, MAX_REPORTED).sort();
}

function withJsonType(headers: Headers): Headers {
  const h = new Headers(headers);
  h.set('Content-Type', 'application/json');
  h.delete('Content-Length');
  return h;
}

/**
 * Reads a stream fully, throwing 413 `payload_too_large` as soon as more than `limit` bytes have arrived,
 * and {@link ClientAbortedError} when the stream breaks off (the client disconnected mid-upload).
 */
export async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (e) {
      throw new ClientAbortedError(size, e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
