/**
 * @module
 * OpenAI-like prompt-cache accounting for the mock: a prompt of at least 1,024 tokens whose prefix was
 * seen before reports `cached_tokens` = the longest previously seen prefix, in 128-token steps from
 * 1,024 (as OpenAI documents). Prefixes are remembered as hashes in a bounded LRU, so prompt layouts
 * (stable instructions first, varying content last) can be measured offline.
 */
import { hash53 } from '../llm/hash53.js';
import { approximateTokens, TOKENS_REPLY_PRIMING } from '../llm/token-estimate.js';
import type { MockMessage } from './detect-format.js';

/** Shortest prompt (in tokens) the cache considers. */
export const CACHE_MIN_TOKENS = 1024;
/** Granularity of cached prefixes, in tokens. */
export const CACHE_STEP_TOKENS = 128;

/**
 * The prompt as the token stream the mock counts: per message three overhead tokens (start, role,
 * separator), the name if any, then the content's approximate tokens; three reply-priming tokens at
 * the end. Its length equals `estimatePromptTokens` of the same messages.
 */
export function promptTokenStream(messages: readonly (MockMessage & { name?: string })[]): string[] {
  const out: string[] = [];
  for (const m of messages) {
    out.push('<|start|>', m.role, '<|sep|>');
    if (m.name) out.push(m.name);
    for (const t of approximateTokens(m.content)) out.push(t);
  }
  for (let i = 0; i < TOKENS_REPLY_PRIMING; i++) out.push('<|prime|>');
  return out;
}

/** A bounded LRU of prompt-prefix hashes. */
export class PrefixCache {
  private readonly seen = new Map<string, true>();
  /** @param capacity prefix hashes kept; default 50,000 (a few MB at most). */
  constructor(private readonly capacity = 50_000) {}

  /**
   * Cached tokens for this prompt, then remembers its prefixes. `scope` separates caches (the model:
   * different models never share a cache).
   */
  lookupAndStore(scope: string, tokens: readonly string[]): number {
    if (tokens.length < CACHE_MIN_TOKENS) return 0;
    const keys: { len: number; key: string }[] = [];
    let h = hash53(scope);
    for (let end = CACHE_STEP_TOKENS; end <= tokens.length; end += CACHE_STEP_TOKENS) {
      // Chain the hash block by block so each key stands for the whole prefix up to `end`.
      h = hash53(`${h}\u0000${tokens.slice(end - CACHE_STEP_TOKENS, end).join('\u0001')}`);
      if (end >= CACHE_MIN_TOKENS) keys.push({ len: end, key: `${scope}\u0000${h}` });
    }
    let cached = 0;
    for (const k of keys) if (this.seen.has(k.key)) cached = k.len;
    for (const k of keys) {
      this.seen.delete(k.key);
      this.seen.set(k.key, true);
    }
    while (this.seen.size > this.capacity) {
      const oldest = this.seen.keys().next().value;
      if (oldest === undefined) break;
      this.seen.delete(oldest);
    }
    return cached;
  }

  /** Forgets everything. */
  clear(): void {
    this.seen.clear();
  }
}
