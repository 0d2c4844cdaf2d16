/**
 * @module
 * What graders and samplers reach through the deployment's LLM settings: the LLM function (the same client,
 * retries and provider table as every evaluation) and embeddings (`POST {baseUrl}/embeddings` at the
 * default provider, for `cosine`). Built lazily, so graders that need neither work without LLM settings.
 */
import type { Bindings } from '../config/bindings.js';
import type { LlmFunction } from '../engine/call.js';
import { ApiError } from '../http/errors.js';
import { createLlm } from '../llm/client.js';
import { llmEnvOf, LlmSettingsError, settingsFromEnv } from '../llm/settings.js';
import type { LlmSettings } from '../llm/settings.js';
import { wireTarget } from '../llm/wire.js';
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

/** The embeddings of `texts` from the default provider. @throws Error naming the provider's answer. */
async function embed(settings: LlmSettings, texts: readonly string[]): Promise<number[][]> {
  const provider = settings.providers[settings.defaultProvider];
  if (!provider) throw new Error('the deployment has no default LLM provider');
  const target = wireTarget(provider, provider.baseUrl);
  const res = await fetch(`${provider.baseUrl.replace(/\/+$/, '')}/embeddings`, {
    method: 'POST',
    headers: target.headers,
    body: JSON.stringify({ model: EMBEDDING_MODEL, input: texts }),
  });
  if (!res.ok) throw new Error(`embeddings: the provider answered ${String(res.status)}`);
  const body = await res.json<{ data?: { index: number; embedding: number[] }[] }>();
  const data = [...(body.data ?? [])].sort((a, b) => a.index - b.index);
  if (data.length !== texts.length) throw new Error('embeddings: the provider answered a different number of vectors');
  return data.map((d) => d.embedding);
}

/** Grader dependencies over `env`'s LLM settings (read on first use; 503 `llm_not_configured` if unusable). */
export function graderDeps(env: Bindings): GraderDeps & { llm: LlmFunction } {
  let llm: LlmFunction | undefined;
  return {
    llm: (request) => {
      llm ??= createLlm(settingsOf(env));
      return llm(request);
    },
    embed: (texts) => embed(settingsOf(env), texts),
  };
}
