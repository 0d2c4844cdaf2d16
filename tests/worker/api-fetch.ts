/**
 * Test access to the HTTP API inside workerd through the Worker entry (`exports.default.fetch`), so the
 * queue consumer and Durable Object behind it are the real ones. {@link apiWith} calls the app directly
 * to override bindings (e.g. `API_KEYS`), which the entry cannot.
 *
 * Every response passes the served OpenAPI document (`GET /openapi.json`, compiled once per run) on its
 * way to the test: an undocumented status or content type, or a body that fails its schema, fails the
 * test that received it with the method, path, status and first schema error
 * (tests/support/response-contract.ts). So every request of the worker project goes through this file:
 * {@link api}, {@link apiWith}, {@link apiWithSettled}, and {@link workerFetch} / {@link appFetch} for
 * clients that take a `fetch` (hono's `hc`, the OpenAI SDK, `tribunal/client`).
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { app } from '../../src/app.js';
import type { Bindings } from '../../src/config/bindings.js';
import { d1Override } from './d1-shards-override.js';
import type { ContractDocument } from '../support/response-contract.js';
import { ResponseContract } from '../support/response-contract.js';

/** The origin requests are addressed to (never resolved: they go to the Worker in-process). */
export const ORIGIN = 'http://tribunal.test';

let contract: Promise<ResponseContract> | undefined;

/** The document the Worker serves, as a contract (fetched and built once per run: the files share one module cache). */
export function servedContract(): Promise<ResponseContract> {
  contract ??= (async () => {
    const r = await exports.default.fetch(new Request(`${ORIGIN}/openapi.json`));
    if (r.status !== 200) throw new Error(`GET /openapi.json answered ${r.status}`);
    return new ResponseContract(await r.json<ContractDocument>());
  })();
  return contract;
}

/** `response` to `request`, checked against the served document (rejects with the violation). */
export async function checked(request: Request, response: Response): Promise<Response> {
  return (await servedContract()).check({ method: request.method, url: request.url, response });
}

/** Sends a request to the API; `path` starts with `/`. */
export async function api(path: string, init?: RequestInit): Promise<Response> {
  const request = new Request(`${ORIGIN}${path}`, init);
  return checked(request, await exports.default.fetch(request.clone()));
}

/** A `fetch` for clients (the OpenAI SDK, `tribunal/client`, hono's `hc`): through the Worker entry, checked. */
export async function workerFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  return checked(request, await exports.default.fetch(request.clone()));
}

/** A `fetch` for clients through the app with bindings overridden (`API_KEYS`, …), checked. */
export function appFetch(
  overrides: Partial<Bindings>,
): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await app.fetch(
      request.clone(),
      { ...(env as unknown as Bindings), ...d1Override(), ...overrides },
      createExecutionContext(),
    );
    return checked(request, response);
  };
}

/** Sends a request to the app with bindings overridden (e.g. `API_KEYS`), bypassing the entry. */
export async function apiWith(overrides: Partial<Bindings>, path: string, init?: RequestInit): Promise<Response> {
  return appFetch(overrides)(`${ORIGIN}${path}`, init);
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
  const request = new Request(`${ORIGIN}${path}`, init);
  const ctx = createExecutionContext();
  const res = await app.fetch(request.clone(), { ...(env as unknown as Bindings), ...d1Override(), ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return checked(request, res);
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
