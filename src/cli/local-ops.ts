/**
 * @module
 * The local runtime's own way into workerd's D1 for the terminal (reading an ended evaluation or batch,
 * ./ended.ts), plain HTTP: a small Worker of its own beside Tribunal's in the same Miniflare instance,
 * bound to the same D1 databases and answering on a loopback socket of its own. (The crons take plain HTTP
 * too, from the parent: ./cron.ts `httpTrigger`.)
 *
 * Why not Miniflare's bindings from Node (`getD1Database`, `getWorker`): their proxy answers property
 * reads and most calls synchronously, blocking the runtime child's only thread in `Atomics.wait` until
 * workerd answers. That thread is also what drains workerd's stdout; when workerd's log lines fill the
 * pipe meanwhile, workerd blocks writing them and never answers: both wait for ever (npm start went
 * silent within seconds of a 200-item batch). A fetch waits without holding the thread. Node only.
 */
import { randomBytes } from 'node:crypto';
import type { D1Reader } from './ended.js';
import type { MiniflareOptions } from './worker-options.js';

/** The helper Worker's name in the Miniflare instance (never a user's: Tribunal's is wrangler.toml's). */
const LOCAL_OPS_WORKER = 'tribunal-local-ops';

/** Header carrying the per-runtime secret: another local process reaching the socket is refused. */
const SECRET_HEADER = 'x-tribunal-local-ops';

/** The helper Worker: `POST /d1/first` `{ binding, sql, params }` → `{ row }` (the first row, or null); a failure → 500 `{ error }`. */
const LOCAL_OPS_SCRIPT = `export default {
  async fetch(request, env) {
    if (request.headers.get(${JSON.stringify(SECRET_HEADER)}) !== env.SECRET) return new Response(null, { status: 403 });
    if (new URL(request.url).pathname !== '/d1/first') return new Response(null, { status: 404 });
    try {
      const { binding, sql, params } = await request.json();
      return Response.json({ row: await env[binding].prepare(sql).bind(...params).first() });
    } catch (e) {
      return Response.json({ error: String(e?.message ?? e) }, { status: 500 });
    }
  },
};`;

/** A fresh secret for one runtime's helper Worker (hex, 128 bits). */
export function localOpsSecret(): string {
  return randomBytes(16).toString('hex');
}

/**
 * `options` (one Worker's Miniflare options, shared options included) with the helper Worker beside it:
 * the same D1 databases (the same ids, so the same data) and compatibility date, and a loopback socket
 * on a free port ({@link localOpsUrl}).
 */
export function withLocalOps(options: MiniflareOptions, secret: string): MiniflareOptions {
  const ops: MiniflareOptions = {
    name: LOCAL_OPS_WORKER,
    modules: true,
    script: LOCAL_OPS_SCRIPT,
    compatibilityDate: options.compatibilityDate,
    d1Databases: options.d1Databases,
    bindings: { SECRET: secret },
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
  };
  return { ...options, workers: [options, ops] };
}

/** Where the helper Worker of a started instance answers. */
export async function localOpsUrl(mf: { unsafeGetDirectURL(workerName: string): Promise<URL> }): Promise<string> {
  return (await mf.unsafeGetDirectURL(LOCAL_OPS_WORKER)).origin;
}

/**
 * Exchanges one read takes at most when they break: workerd closes a kept-alive connection idle for 5 s, and a
 * process starved for longer sends its next request on the closed socket ("fetch failed: other side closed").
 */
export const READ_EXCHANGES = 4;

/**
 * POSTs `body` to the helper Worker and reads its answer's status and text. Only reads go through it, so an
 * exchange that broke (no answer read) is sent again, at most {@link READ_EXCHANGES} times in all.
 */
async function exchange(url: string, secret: string, path: string, body: unknown): Promise<[Response, string]> {
  for (let n = 1; ; n++)
    try {
      const r = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SECRET_HEADER]: secret },
        body: JSON.stringify(body),
      });
      return [r, await r.text()];
    } catch (e) {
      if (n >= READ_EXCHANGES)
        throw new Error(`${path}: no answer from the local runtime: ${e instanceof Error ? e.message : String(e)}`, {
          cause: e,
        });
    }
}

async function call<T>(url: string, secret: string, path: string, body: unknown): Promise<T> {
  const [r, text] = await exchange(url, secret, path, body);
  const answer = JSON.parse(text) as T | { error: string };
  if (!r.ok)
    throw new Error(`${path}: ${'error' in (answer as object) ? (answer as { error: string }).error : r.status}`);
  return answer as T;
}

/** The D1 database bound as `binding`, read through the helper Worker at `url` (statements' first rows only). */
export function d1ReaderOver(url: string, secret: string, binding: string): D1Reader {
  return {
    prepare: (sql) => ({
      bind: (...params) => ({
        first: async <T>() => (await call<{ row: T | null }>(url, secret, '/d1/first', { binding, sql, params })).row,
      }),
    }),
  };
}
