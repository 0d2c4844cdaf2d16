/**
 * @module
 * Embeddings from a provider (`POST {baseUrl}/embeddings`, OpenAI's wire), for `cosine` similarity: sent over
 * the same transport as chat completions (./routing.ts), with the settings' timeout, failures classified as a
 * chat-completions attempt's (./wire.ts), and retried under the same policy (./retry.ts). A reply that is not
 * one finite vector per input (a body that is not JSON, no `data` list, a missing or non-numeric `embedding`,
 * indexes or lengths that do not match) is a `malformed` attempt, retried like any other: when the attempts
 * run out the call fails naming that cause, never with a made-up vector (which would be a score). Messages
 * hold no provider key or deployment secret.
 */
import type { LlmError } from '../engine/call.js';
import type { FailedAttempt } from './attempts.js';
import { callError } from './attempts.js';
import type { AttemptFailure } from './outcome.js';
import { afterFailure } from './retry.js';
import type { TransportDeps } from './routing.js';
import { transportOf } from './routing.js';
import type { LlmSettings, LlmSettingsInput } from './settings.js';
import { resolveSettings, settingsRedactor } from './settings.js';
import { sendJson, timedSend, wireTarget } from './wire.js';

/** Injectable effects of {@link createEmbedder}; every default is the real thing. */
export interface EmbedDeps extends TransportDeps {
  /** Waits between attempts, ms. Default: a `setTimeout` promise. */
  sleep?: (ms: number) => Promise<void>;
  /** Uniform [0, 1) source for backoff jitter. Default `Math.random`. */
  random?: () => number;
  /** Clock, ms since epoch. Default `Date.now`. */
  now?: () => number;
}

/** The embeddings of a call's inputs (in input order), or the LLM failure that ended it. */
export type EmbedResult = { ok: true; vectors: number[][] } | { ok: false; error: LlmError };

/** Embeds `texts` with `model`; never throws for provider trouble. */
export type EmbedFunction = (texts: readonly string[], model: string) => Promise<EmbedResult>;

type Read = { kind: 'vectors'; vectors: number[][] } | AttemptFailure;

/** The vectors of an embeddings body, checked: one finite, non-empty vector per input, all of one length. */
function readEmbeddings(body: unknown, providerId: string, count: number): Read {
  const malformed = (why: string): Read => ({
    kind: 'error',
    attemptKind: 'malformed',
    retryable: true,
    error: { code: 'provider_error', message: `provider "${providerId}" sent malformed embeddings: ${why}` },
  });
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return malformed('no data list');
  if (data.length !== count) return malformed(`${data.length} vectors for ${count} inputs`);
  const vectors: number[][] = [];
  for (const [i, item] of (data as unknown[]).entries()) {
    const { index, embedding } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const at = index === undefined ? i : index;
    if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= count || vectors[at] !== undefined)
      return malformed(`item ${i} has no index of its own below ${count}`);
    if (!Array.isArray(embedding) || embedding.length === 0) return malformed(`item ${i} has no embedding vector`);
    if (!embedding.every((x): x is number => typeof x === 'number' && Number.isFinite(x)))
      return malformed(`item ${i}'s embedding holds something other than finite numbers`);
    vectors[at] = embedding;
  }
  if (vectors.some((v) => v.length !== vectors[0]?.length)) return malformed('vectors of different lengths');
  return { kind: 'vectors', vectors };
}

/**
 * The embeddings function of the settings' default provider: per attempt `settings.timeoutMs`; transient
 * faults (429, 5xx, timeouts, network errors, malformed replies) retried under `settings.retry`, others
 * (401, 400, …) ending the call at once; the failure's code and message chosen as a chat call's are
 * (./attempts.ts).
 * @throws LlmSettingsError as `resolveSettings` does.
 */
export function createEmbedder(settingsInput: LlmSettings | LlmSettingsInput, deps: EmbedDeps = {}): EmbedFunction {
  const settings = resolveSettings(settingsInput);
  const providerId = settings.defaultProvider;
  const provider = settings.providers[providerId];
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = deps.random ?? Math.random;
  const now = deps.now ?? Date.now;
  const redact = settingsRedactor(settings);
  if (!provider)
    return () =>
      Promise.resolve({ ok: false, error: { code: 'bad_request', message: `unknown provider "${providerId}"` } });
  // Where and how every call sends: fixed by the settings, so worked out once.
  const { fetch: fetchImpl, base } = transportOf(provider, deps);
  const url = `${base.replace(/\/+$/, '')}/embeddings`;
  const { headers } = wireTarget(provider, base);
  return async (texts, model) => {
    const failures: FailedAttempt[] = [];
    for (;;) {
      const attempt = failures.length + 1;
      const t0 = now();
      const { send, done } = timedSend(fetchImpl, settings.timeoutMs, now);
      let out: Read;
      try {
        out = await sendJson(providerId, url, headers, { model, input: texts }, send, (parsed) =>
          readEmbeddings(parsed, providerId, texts.length),
        );
      } finally {
        done();
      }
      if (out.kind === 'vectors') return { ok: true, vectors: out.vectors };
      const { error } = out;
      const status = error.status !== undefined ? { status: error.status } : {};
      failures.push({
        record: { attempt, kind: out.attemptKind, code: error.code, ...status, latencyMs: now() - t0 },
        error,
        fallback: false,
      });
      const next = afterFailure(out, failures.length - 1, {
        policy: settings.retry,
        random,
        now,
        deadline: undefined,
        minAttemptMs: 0,
      });
      if (next.step !== 'wait')
        return { ok: false, error: callError(failures, next.step === 'fail' ? next.terminal : undefined, redact) };
      await sleep(next.delayMs);
    }
  };
}
