/**
 * @module
 * One outbound POST: the signed body to the receiver, with a timeout, redirects never followed, and at
 * most {@link RESPONSE_READ_LIMIT_BYTES} of the answer read (a receiver cannot make the consumer
 * download a large body). Never throws: timeouts and network errors come back as an outcome.
 */
import { configOf } from '../config/vars.js';

/** Most bytes of a receiver's answer read, 4 KiB; the rest is cancelled unread. */
export const RESPONSE_READ_LIMIT_BYTES = 4096;

/** Most bytes of the answer kept in the delivery log, 1 KiB. */
export const EXCERPT_BYTES = 1024;

/** `User-Agent` of every delivery. */
export const USER_AGENT = 'Tribunal-Webhooks/1.0 (+https://www.standardwebhooks.com)';

/** How long a delivery attempt holds its lease, ms: the attempt's timeout (`WEBHOOK_TIMEOUT_MS`) plus 30 s of slack. */
export function deliveryLeaseMs(env: object): number {
  return configOf(env).WEBHOOK_TIMEOUT_MS + 30_000;
}

/** What one POST came to. `statusCode` null: no answer (`error` says why). */
export interface SendOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The answer's first bytes, decoded leniently (at most {@link EXCERPT_BYTES}), or null. */
  excerpt: string | null;
}

/** Reads at most `limit` bytes of a body, then cancels the rest. */
async function readSome(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    // Unread bytes are dropped; a cancel failure (stream already closed) does not matter.
    await reader.cancel().catch(() => undefined);
  }
  const out = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const c of chunks) {
    const take = Math.min(c.byteLength, out.length - offset);
    out.set(c.subarray(0, take), offset);
    offset += take;
    if (offset >= out.length) break;
  }
  return out;
}

/**
 * POSTs `body` to `url` with `headers` (plus our user agent, and a JSON content type unless `headers` names
 * another): `redirect: 'manual'` (a 3xx is an answer like any other, its target never fetched), aborted after
 * `timeoutMs`.
 */
export async function postWebhook(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<SendOutcome> {
  const started = Date.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...headers },
      redirect: 'manual',
      signal,
    });
    let excerpt: string | null = null;
    try {
      const bytes = await readSome(res.body, RESPONSE_READ_LIMIT_BYTES);
      excerpt = bytes.length > 0 ? new TextDecoder().decode(bytes.subarray(0, EXCERPT_BYTES)) : null;
    } catch {
      // The status decides the outcome; a body that breaks off (or times out) is only not logged.
    }
    const redirect =
      res.status >= 300 && res.status < 400 ? `redirect not followed (${res.status}${locationOf(res)})` : null;
    return {
      statusCode: res.status,
      error: redirect ?? (res.ok ? null : `HTTP ${res.status}`),
      durationMs: Date.now() - started,
      excerpt,
    };
  } catch (e) {
    const timedOut = signal.aborted;
    // The runtime's own text ("Network connection lost.") does not say where: the host (never the path or query,
    // which may hold a token) tells the receiver's owner which of their endpoints is down.
    const message = timedOut
      ? `timed out after ${timeoutMs} ms`
      : `network error: no answer from ${hostOf(url)} (${e instanceof Error ? e.message : String(e)}); is the receiver running and reachable?`;
    return { statusCode: null, error: message, durationMs: Date.now() - started, excerpt: null };
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the receiver';
  }
}

function locationOf(res: Response): string {
  const to = res.headers.get('location');
  return to ? ` to ${to.slice(0, 200)}` : '';
}
