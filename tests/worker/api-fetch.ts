/**
 * Test access to the HTTP API inside workerd through the Worker entry (`exports.default.fetch`), so the
 * queue consumer and Durable Object behind it are the real ones. {@link apiWith} calls the app directly
 * to override bindings (e.g. `API_KEYS`), which the entry cannot.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { app } from '../../src/app.js';
import type { Bindings } from '../../src/config/bindings.js';

const ORIGIN = 'http://tribunal.test';

/** Sends a request to the API; `path` starts with `/`. */
export async function api(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, init));
}

/** Sends a request to the app with bindings overridden (e.g. `API_KEYS`), bypassing the entry. */
export async function apiWith(overrides: Partial<Bindings>, path: string, init?: RequestInit): Promise<Response> {
  return app.fetch(
    new Request(`${ORIGIN}${path}`, init),
    { ...(env as unknown as Bindings), ...overrides },
    createExecutionContext(),
  );
}

/**
 * Like {@link apiWith}, and also waits for everything the request left running (`waitUntil`, e.g. the
 * fast start), so a test can assert what did not happen without sleeping.
 */
export async function apiWithSettled(
  overrides: Partial<Bindings>,
  path: string,
  init?: RequestInit,
): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`${ORIGIN}${path}`, init),
    { ...(env as unknown as Bindings), ...overrides },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

/** POSTs `body` as JSON. */
export function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return api(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** The API's error body. */
export interface ErrorJson {
  error: { code: string; message: string; issues?: { path: string; message: string }[]; requestId?: string };
}
