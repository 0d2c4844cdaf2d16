/**
 * @module
 * The mock's `POST /v1/embeddings`: each input becomes a deterministic bag-of-words vector
 * ({@link mockEmbedding}: every lower-case word adds ±1 to one of {@link MOCK_EMBEDDING_DIMENSIONS} components
 * chosen by its hash), so texts that share words have a higher cosine, and a test can compute the same
 * vector itself. Usage counts the words as tokens.
 */
import { hash53 } from '../llm/hash53.js';

/** Length of a mock embedding. */
export const MOCK_EMBEDDING_DIMENSIONS = 64;

/** The words of a text as the mock embeds them: lower-case runs of letters and digits. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The mock's embedding of `text` (see the module note). */
export function mockEmbedding(text: string): number[] {
  const v = new Array<number>(MOCK_EMBEDDING_DIMENSIONS).fill(0);
  for (const word of wordsOf(text)) {
    const h = hash53(word);
    const i = h % MOCK_EMBEDDING_DIMENSIONS;
    v[i] = (v[i] ?? 0) + (Math.floor(h / MOCK_EMBEDDING_DIMENSIONS) % 2 === 0 ? 1 : -1);
  }
  return v;
}

function error(status: number, message: string): Response {
  return Response.json({ error: { message, type: 'invalid_request_error', param: 'input', code: null } }, { status });
}

/** Answers `POST /v1/embeddings` (`input`: a string or an array of strings; `model` any name). */
export async function embeddingsRoute(request: Request): Promise<Response> {
  const body = (await request.json().catch(() => null)) as { input?: unknown; model?: unknown } | null;
  const input = body?.input;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? input : null;
  if (!texts || texts.length === 0 || !texts.every((t): t is string => typeof t === 'string')) {
    return error(400, "'input' must be a string or a non-empty array of strings");
  }
  const tokens = texts.reduce((n, t) => n + wordsOf(t).length, 0);
  return Response.json({
    object: 'list',
    model: typeof body?.model === 'string' ? body.model : 'mock-embedding',
    data: texts.map((t, index) => ({ object: 'embedding', index, embedding: mockEmbedding(t) })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}
