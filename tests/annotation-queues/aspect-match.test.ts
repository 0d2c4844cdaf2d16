/**
 * When an evaluation's verdict stands as the judge's label of a queue's item (src/annotation-queues/aspect-match.ts):
 * only on exact evidence that it answered the rubric's question (its recorded rubric, or criteria word for word),
 * never on words the aspect and the criteria share. The HTTP path is tests/worker/annotation-queues-api.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { QueueRubric } from '../../src/annotation-queues/aspect-match.js';
import { judgesRubricQuestion } from '../../src/annotation-queues/aspect-match.js';
import type { Task } from '../../src/engine/task.js';

const scale = { min: 1, max: 5 };
const reply: Task = { kind: 'pointwise', source: 'Where is my parcel?', output: 'It ships today.' };
const rubric = (criteria: string, more: Partial<QueueRubric['content']> = {}): QueueRubric => ({
  id: 'rb_1',
  version: 2,
  hash: 'h-content',
  stepsHash: 'h-steps',
  content: { kind: 'pointwise', criteria, scale, ...more },
});
const onAspect = (name: string, description?: string): Task => ({
  ...reply,
  aspect: { name, ...(description !== undefined ? { description } : {}), scale },
});

describe('judgesRubricQuestion', () => {
  it('keeps no verdict whose aspect the criteria merely name, in either polarity', () => {
    const never = rubric('The reply helps the customer and is never toxic.');
    expect(judgesRubricQuestion({ task: onAspect('toxicity', 'How offensive it is'), rubric: null }, never)).toBe(
      false,
    );
    const harmless = rubric('The reply is harmless.');
    expect(judgesRubricQuestion({ task: onAspect('harmfulness'), rubric: null }, harmless)).toBe(false);
    const accurate = rubric('The reply is accurate and complete.');
    expect(judgesRubricQuestion({ task: onAspect('accuracy'), rubric: null }, accurate)).toBe(false);
  });

  it("keeps a verdict on an aspect described by the rubric's criteria word for word", () => {
    const accurate = rubric('The reply is accurate and complete.');
    const described = onAspect('accuracy', '  The reply is accurate and complete.\n');
    expect(judgesRubricQuestion({ task: described, rubric: null }, accurate)).toBe(true);
    // Case is part of the prompt the judge read.
    const shouted = onAspect('accuracy', 'THE REPLY IS ACCURATE AND COMPLETE.');
    expect(judgesRubricQuestion({ task: shouted, rubric: null }, accurate)).toBe(false);
  });

  it('keeps a verdict judged by the version (by id, by its content or its content with steps), no other', () => {
    const r = rubric('Helps the customer.');
    const judged = (stamp: { id?: string; version?: number; hash: string }) =>
      judgesRubricQuestion({ task: reply, rubric: stamp }, r);
    expect(judged({ id: 'rb_1', version: 2, hash: 'h-other' })).toBe(true);
    expect(judged({ hash: 'h-content' })).toBe(true);
    expect(judged({ id: 'rb_1', version: 2, hash: 'h-steps' })).toBe(true);
    expect(judged({ id: 'rb_1', version: 1, hash: 'h-v1' })).toBe(false);
    expect(judged({ id: 'rb_9', version: 2, hash: 'h-9' })).toBe(false);
    // Judged by another rubric: its aspect's description does not make it this one's question.
    const described = onAspect('help', 'Helps the customer.');
    expect(judgesRubricQuestion({ task: described, rubric: { hash: 'h-9' } }, r)).toBe(false);
  });

  it('keeps no verdict judged by no rubric and no described aspect', () => {
    const r = rubric('Helps the customer.');
    expect(judgesRubricQuestion({ task: reply, rubric: null }, r)).toBe(false);
    const pair: Task = { kind: 'pairwise', question: 'q', answerA: 'a', answerB: 'b' };
    expect(
      judgesRubricQuestion({ task: pair, rubric: null }, { ...r, content: { kind: 'pairwise', criteria: 'c' } }),
    ).toBe(false);
  });

  it("keeps a verdict on aspects only when each is described by the rubric's aspect of its name", () => {
    const aspects = [
      { name: 'tone', criteria: 'Is polite.', weight: 1 },
      { name: 'policy', criteria: 'States the policy.', weight: 1 },
    ];
    const r = rubric('A support reply.', { aspects });
    const task = (descriptions: string[]): Task => ({
      ...reply,
      aspects: ['policy', 'tone'].map((name, i) => ({ name, description: descriptions[i] ?? '', scale })),
    });
    expect(judgesRubricQuestion({ task: task(['States the policy.', 'Is polite.']), rubric: null }, r)).toBe(true);
    expect(judgesRubricQuestion({ task: task(['States the policy.', 'Is rude.']), rubric: null }, r)).toBe(false);
    expect(judgesRubricQuestion({ task: onAspect('tone', 'Is polite.'), rubric: null }, r)).toBe(false);
  });
});
