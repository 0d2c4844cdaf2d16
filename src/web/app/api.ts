/**
 * @module
 * The viewer's calls to the API (same origin): JSON in and out, the key from ./key.ts as a bearer token,
 * and every error as an {@link ApiFailure} carrying the API's stable `code`, message and field issues.
 */
import { getKey } from './key.js';
import type { ErrorBody } from './types.js';

/** A failed API call: the HTTP status and the API's error body (or a network failure, status 0). */
export class ApiFailure extends Error {
  override readonly name = 'ApiFailure';
  constructor(
    readonly status: number,
    /** The API's stable error code (`unauthorized`, `invalid_request`…), or `network` / `bad_response`. */
    readonly code: string,
    message: string,
    /** Field-level issues of an `invalid_request` (paths like `task.answerA`). */
    readonly issues: readonly { path: string; message: string }[] = [],
  ) {
    super(message);
  }

  /** True for a missing or rejected key: the viewer asks for one. */
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

function headersWith(extra: Record<string, string> = {}): Headers {
  const headers = new Headers(extra);
  const key = getKey();
  if (key) headers.set('Authorization', `Bearer ${key}`);
  return headers;
}

async function failureOf(response: Response): Promise<ApiFailure> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's HTML page): reported by status below.
  }
  const error = (body as Partial<ErrorBody> | null)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ApiFailure(response.status, error.code, error.message, error.issues ?? []);
  }
  return new ApiFailure(response.status, 'bad_response', `HTTP ${response.status} ${response.statusText}`.trim());
}

/** `fetch` with the key; network errors become an {@link ApiFailure} with status 0. */
export async function request(
  path: string,
  init: RequestInit & { headers?: Record<string, string> } = {},
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers: headersWith(init.headers) });
  } catch (e) {
    if (init.signal?.aborted) throw e;
    throw new ApiFailure(0, 'network', `the API could not be reached (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!response.ok) throw await failureOf(response);
  return response;
}

/** GET a JSON resource. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const r = await request(path, { headers: { Accept: 'application/json' }, ...(signal ? { signal } : {}) });
  return (await r.json()) as T;
}

/** POST a JSON body; resolves to the JSON answer. */
export async function postJson<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const r = await request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await r.json()) as T;
}

/** Opens an event stream (`Accept: text/event-stream`) with the key in the Authorization header. */
export function openStream(path: string, signal: AbortSignal): Promise<Response> {
  return request(path, { headers: { Accept: 'text/event-stream' }, signal, cache: 'no-store' });
}

/** A one-line, human description of any error the viewer shows. */
export function describeError(e: unknown): string {
  if (e instanceof ApiFailure) return e.status > 0 ? `${e.message} (${e.code}, HTTP ${e.status})` : e.message;
  return e instanceof Error ? e.message : String(e);
}
