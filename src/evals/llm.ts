/**
 * @module
 * What graders and samplers reach through the deployment's LLM settings: the LLM function (the same client,
 * retries and provider table as every evaluation) and embeddings (`POST {baseUrl}/embeddings` at the
 * default provider, for `cosine`, over the same wire and timeout). Built lazily, so graders that need neither work without LLM settings.
 */
import type { Bindings } from '../config/bindings.js';
import type { LlmFunction } from '../engine/call.js';
import { ApiError } from '../http/errors.js';
import { createLlm } from '../llm/client.js';
import { llmEnvOf, LlmSettingsError, settingsFromEnv, settingsRedactor } from '../llm/settings.js';
import type { LlmSettings } from '../llm/settings.js';
import { transportOf } from '../llm/routing.js';
import { sendToProvider, timedSend, wireTarget } from '../llm/wire.js';
import type { GraderDeps } from './graders.js';

/** The embedding model `cosine` asks for (OpenAI's text similarity grader uses it too). */
export const EMBEDDING_MODEL = 'text-embedding-3-large';

function settingsOf(env: Bindings): LlmSettings {
  try {
    return settingsFromEnv(llmEnvOf(env));
  } catch (err) {
    if (err instanceof LlmSettingsError) throw new ApiError(503, 'llm_not_configured', err.message);
    throw err;
  }
}

/**
 * The embeddings of `texts` from the default provider, sent as chat completions are (`sendToProvider`: the
 * provider's headers, the settings' `timeoutMs`, a failure named by its status and the provider's message),
 * with the providers' keys and the deployment's secrets removed from any message. Not retried: a failure
 * is the grader's `other_error`.
 * @throws Error naming what went wrong.
 */
async function embed(settings: LlmSettings, texts: readonly string[]): Promise<number[][]> {
  const providerId = settings.defaultProvider;
  const provider = settings.providers[providerId];
  if (!provider) throw new Error('the deployment has no default LLM provider');
  const redact = settingsRedactor(settings);
  const { fetch: fetchImpl, base } = transportOf(provider, {});
  const { send, done } = timedSend(fetchImpl, settings.timeoutMs, Date.now);
  try {
    const sent = await sendToProvider(
      providerId,
      `${base.replace(/\/+$/, '')}/embeddings`,
      {
        method: 'POST',
        headers: wireTarget(provider, base).headers,
        body: JSON.stringify({ model: EMBEDDING_MODEL, input: texts }),
      },
      send,
    );
    if (sent.kind !== 'ok') throw new Error(`embeddings: ${redact(sent.error.message)}`);
    const body = JSON.parse(sent.text) as { data?: { index: number; embedding: number[] }[] };
    const data = [...(body.data ?? [])].sort((a, b) => a.index - b.index);
    if (data.length !== texts.length)
      throw new Error('embeddings: the provider answered a different number of vectors');
    return data.map((d) => d.embedding);
  } finally {
    done();
  }
}

/**
 * Grader dependencies over `env`'s LLM settings (read on first use; 503 `llm_not_configured` if unusable).
 * @param tier the tier of every call (`standard` by default; `flex` falls back to `standard` when refused)
 */
export function graderDeps(env: Bindings, tier: 'standard' | 'flex' = 'standard'): GraderDeps & { llm: LlmFunction } {
  let llm: LlmFunction | undefined;
  return {
    llm: (request) => {
      llm ??= createLlm(settingsOf(env), {}, { tier });
      return llm(request);
    },
    embed: (texts) => embed(settingsOf(env), texts),
  };
}
