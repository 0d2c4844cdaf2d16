/**
 * @module
 * What graders and samplers reach through the deployment's LLM settings: the LLM function (the same client,
 * retries and provider table as every evaluation) and embeddings (src/llm/embeddings.ts: `POST
 * {baseUrl}/embeddings` at the default provider, for `cosine`, over the same wire, timeout and retries; a
 * failure, a malformed reply's included, is the grader's `other_error` naming its cause). Built lazily, so graders that need neither work without LLM settings.
 */
import type { Bindings } from '../config/bindings.js';
import type { LlmFunction } from '../engine/call.js';
import { ApiError } from '../http/errors.js';
import { createLlm } from '../llm/client.js';
import { llmEnvOf, settingsFromEnv } from '../llm/settings.js';
import { LlmSettingsError } from '../llm/settings-error.js';
import type { LlmSettings } from '../llm/settings.js';
import type { EmbedFunction } from '../llm/embeddings.js';
import { createEmbedder } from '../llm/embeddings.js';
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
 * Grader dependencies over `env`'s LLM settings (read on first use; 503 `llm_not_configured` if unusable).
 * @param tier the tier of every call (`standard` by default; `flex` falls back to `standard` when refused)
 */
export function graderDeps(env: Bindings, tier: 'standard' | 'flex' = 'standard'): GraderDeps & { llm: LlmFunction } {
  let llm: LlmFunction | undefined;
  let embedder: EmbedFunction | undefined;
  return {
    llm: (request) => {
      llm ??= createLlm(settingsOf(env), {}, { tier });
      return llm(request);
    },
    embed: async (texts) => {
      embedder ??= createEmbedder(settingsOf(env));
      const r = await embedder(texts, EMBEDDING_MODEL);
      // The grader's `other_error`, naming the cause (the provider's status and message, or the malformed reply).
      if (!r.ok) throw new Error(`embeddings: ${r.error.message}`);
      return r.vectors;
    },
  };
}
