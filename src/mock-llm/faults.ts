/**
 * @module
 * What a model name makes the mock do besides answering (./model-name.ts): the latency it waits, the faults it
 * answers with (scheduled, or drawn at a rate), and the OpenAI-style error response for a status.
 */
import { unitFromHash } from '../llm/hash53.js';
import type { MockDirectives, MockFault } from './model-name.js';
import { openAiError } from './responses.js';

/** Waits `ms`, or less when `signal` aborts (a client that hung up). */
export function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done);
  });
}

/** A request's latency in ms: the model name's, else the server's default (fixed, or seeded in its range). */
export function latencyOf(
  d: MockDirectives,
  fallback: number | [number, number] | undefined,
  key: string,
  attempt: number,
): number {
  const l = d.latency ?? fallback ?? 0;
  if (typeof l === 'number') return l;
  return Math.round(l[0] + unitFromHash(`${key}\u0000latency\u0000${attempt}`) * (l[1] - l[0]));
}

/**
 * An OpenAI-style error response for `status`. With `echoKey`, the message quotes the request's key and
 * its header, as careless providers do.
 */
export function statusError(status: number, d: MockDirectives, model: string, key: string): Response {
  const echo = d.echoKey ? ` Incorrect API key provided: ${key}. Request header: "Authorization: Bearer ${key}".` : '';
  switch (status) {
    case 429: {
      const headers: Record<string, string> =
        d.retryAfterMs !== undefined
          ? { 'retry-after-ms': String(d.retryAfterMs) }
          : { 'retry-after': String(d.retryAfterSeconds) };
      return openAiError(
        429,
        `Rate limit reached for requests (mock). Please try again later.${echo}`,
        'requests',
        'rate_limit_exceeded',
        headers,
      );
    }
    case 400:
      return openAiError(400, `Invalid request (mock fault).${echo}`, 'invalid_request_error', null);
    case 401:
      return openAiError(401, `Incorrect API key provided (mock).${echo}`, 'invalid_request_error', 'invalid_api_key');
    case 403:
      return openAiError(
        403,
        `You are not allowed to use this model (mock).${echo}`,
        'invalid_request_error',
        'model_not_allowed',
      );
    case 404:
      return openAiError(
        404,
        `The model \`${model}\` does not exist or you do not have access to it (mock).${echo}`,
        'invalid_request_error',
        'model_not_found',
      );
    default:
      return openAiError(
        status,
        `The server had an error while processing your request (mock ${status}).${echo}`,
        status >= 500 ? 'server_error' : 'invalid_request_error',
        null,
      );
  }
}

/** The fault attempt `attempt` (1-based) of this key meets: scheduled by `failSequence`, else drawn at `rate`, else none. */
export function faultFor(d: MockDirectives, key: string, attempt: number): MockFault | undefined {
  const scheduled = d.failSequence[attempt - 1];
  if (scheduled) return scheduled;
  if (d.rate > 0 && unitFromHash(`${d.seed}\u0000${key}\u0000fault\u0000${attempt}`) < d.rate) return d.rateFault;
  return undefined;
}
