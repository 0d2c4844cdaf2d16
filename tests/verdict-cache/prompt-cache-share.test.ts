/**
 * The estimate's cacheable share (src/estimates/prompt-cache-share.ts): a debate whose calls repeat a long
 * prefix of calls that ended before them has one; a single judge whose calls all go out at once has none; the
 * OpenAI rule (1,024 tokens, 128-token steps) applies.
 */
import { describe, expect, it } from 'vitest';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import type { Task } from '../../src/engine/task.js';
import { createCallMeter } from '../../src/budgets/meter.js';
import { createPromptCounter, loadTokenizer } from '../../src/budgets/prompt-tokens.js';
import { settingsFromEnv } from '../../src/llm/settings.js';
import { cachedTokensOf, promptCacheShare } from '../../src/estimates/prompt-cache-share.js';

const long = (text: string) => Array.from({ length: 20 }, (_, i) => `(${i + 1}) ${text}`).join(' ');
const TASK: Task = {
  kind: 'pairwise',
  question: 'Explain why the sky is blue to a ten-year-old, in a few sentences.',
  answerA: long(
    'Sunlight has all colours. Air scatters blue light the most, so blue comes at us from every direction.',
  ),
  answerB: long('Because the ocean reflects onto the sky.'),
};

async function shareOf(preset: string) {
  const config = resolveMethodConfig(preset, {});
  const settings = settingsFromEnv({ LLM_MODEL: 'gpt-4o-mini', LLM_BASE_URL: 'https://api.openai.com/v1' });
  const counter = createPromptCounter(await loadTokenizer());
  return promptCacheShare(getMethod(config.method), config, TASK, {
    counter,
    meter: createCallMeter(settings, counter),
  });
}

describe('estimate: cacheable share', () => {
  it("counts OpenAI's rule: 1,024 tokens at least, 128-token steps", () => {
    expect(cachedTokensOf(1000, 1000)).toBe(0);
    expect(cachedTokensOf(3000, 1000)).toBe(0);
    expect(cachedTokensOf(3000, 1100)).toBe(1024);
    expect(cachedTokensOf(3000, 1300)).toBe(1280);
    expect(cachedTokensOf(1200, 5000)).toBe(1152);
  });

  it('a debate has a cacheable share; a single judge whose calls go out together has none', async () => {
    const debate = await shareOf('chateval-faireval');
    expect(debate.promptTokens).toBeGreaterThan(0);
    expect(debate.cacheableTokens / debate.promptTokens).toBeGreaterThan(0.3);
    const single = await shareOf('fastchat-pair');
    expect(single.promptTokens).toBeGreaterThan(0);
    expect(single.cacheableTokens).toBe(0);
  }, 30_000);
});
