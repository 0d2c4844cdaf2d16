/**
 * Certified mode's test fixtures (tests/worker/certify.test.ts, evals-certify.test.ts): pairs the mock's judge
 * decides surely (hidden quality tags: both orders agree) or by a hash of the prompt (orders may disagree), and a
 * stored pairwise rubric with labelled items to calibrate on.
 */
import { expect } from 'vitest';
import { qualityTag } from '../../src/mock-llm/judge-mode.js';
import { PAIRWISE_RUBRIC_EXAMPLE } from '../../src/rubrics/examples.js';
import { postJson } from './api-fetch.js';

/** A pair whose answer A the mock's judge prefers in both orders. */
export const clear = (tag: string) => ({
  kind: 'pairwise' as const,
  question: `(${tag}) What is 12 × 12?`,
  answerA: `144. ${qualityTag(1)}`,
  answerB: `154. ${qualityTag(0)}`,
});

/** A pair without tags: each order's verdict is a hash of its prompt. */
export const unsure = (tag: string) => ({
  kind: 'pairwise' as const,
  question: `(${tag}) Which reply is kinder?`,
  answerA: 'Thanks for asking, happy to help.',
  answerB: 'Fine.',
});

/** A stored pairwise rubric whose one annotation queue has `n` items labelled A (the mock's judge agrees). */
export async function labelledRubric(tag: string, n: number): Promise<string> {
  const r = await postJson('/v1/rubrics', { ...PAIRWISE_RUBRIC_EXAMPLE, name: tag });
  const { id } = await r.json<{ id: string }>();
  const items = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, task: clear(`${tag} ${i}`) }));
  const q = await (await postJson('/v1/annotation-queues', { name: tag, rubric: id, items })).json<{ id: string }>();
  for (const item of items)
    expect(
      (await postJson(`/v1/annotation-queues/${q.id}/items/${item.id}/labels`, { label: { winner: 'A' } })).status,
    ).toBe(200);
  return id;
}
