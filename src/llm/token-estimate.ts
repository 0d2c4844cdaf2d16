/**
 * @module
 * A cheap, deterministic token-count approximation for when a provider omits `usage`, and the mock's
 * token stream for prompt-cache accounting.
 *
 * How it approximates BPE tokenizers (cl100k/o200k): text is split like their pre-tokenizer into
 * words with their leading space, runs of up to 3 digits, single punctuation marks and whitespace runs;
 * each piece is one token, except long words, which count one token per 4 characters (BPE splits rare
 * long words). On English prose this lands within roughly ±15% of cl100k, which is enough for cost
 * estimates flagged `estimated: true`. No vocabulary is downloaded: a real tokenizer would add
 * megabytes to a Worker bundle for a figure that is only used when the provider does not report one.
 */
import type { ChatMessage } from '../engine/call.js';

/** Pre-tokenizer pieces: a word with its leading space, a digit run (≤3), one other symbol, or whitespace. */
const PIECE = / ?[\p{L}\p{M}]+| ?\p{N}{1,3}| ?[^\s\p{L}\p{M}\p{N}]|\s+/gu;

/** Characters per token inside a long word. */
const CHARS_PER_TOKEN = 4;

/**
 * The text as approximate tokens (strings that concatenate back to the input).
 * Deterministic; linear in the text length.
 */
export function approximateTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PIECE)) {
    const piece = m[0];
    // Long words: BPE splits them; 4 characters per token is the usual English average.
    if (piece.length > 2 * CHARS_PER_TOKEN) {
      for (let i = 0; i < piece.length; i += CHARS_PER_TOKEN) out.push(piece.slice(i, i + CHARS_PER_TOKEN));
    } else {
      out.push(piece);
    }
  }
  return out;
}

/** Approximate token count of a text (see the module notes). */
export function estimateTokens(text: string): number {
  return approximateTokens(text).length;
}

/** Tokens OpenAI's chat format adds per message (role and separators), per their cookbook. */
export const TOKENS_PER_MESSAGE = 3;
/** Tokens that prime the assistant's reply. */
export const TOKENS_REPLY_PRIMING = 3;

/** Approximate prompt tokens of a chat request: content plus per-message overhead. */
export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  let n = TOKENS_REPLY_PRIMING;
  for (const m of messages) n += TOKENS_PER_MESSAGE + estimateTokens(m.content) + (m.name ? 1 : 0);
  return n;
}
