/**
 * The task conventions of a chat message (src/openai/task-text.ts) on their own: JSON (bare or fenced)
 * and plain text with markers, every way a message can fail to be a task, and the round trip of the
 * renderer the docs and clients use.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.js';
import type { PairwiseTask, PointwiseTask, Task } from '../../src/engine/task.js';
import { taskFromText, taskToText } from '../../src/openai/task-text.js';

const AT = 'messages.0.content';

function refusal(text: string): string[] {
  try {
    taskFromText(text, AT);
  } catch (err) {
    if (err instanceof ApiError) {
      expect(err.status).toBe(400);
      expect(err.code).toBe('invalid_request');
      return (err.issues ?? []).map((i) => `${i.path}: ${i.message}`);
    }
    throw err;
  }
  throw new Error('expected a refusal');
}

const pairwise: PairwiseTask = {
  kind: 'pairwise',
  question: 'Q?\nSecond line.',
  answerA: 'A one.',
  answerB: 'B one.',
  reference: 'Ref.',
};
const pointwise: PointwiseTask = {
  kind: 'pointwise',
  source: 'A source text.',
  context: 'Some fact.',
  output: 'An output.',
  aspect: { name: 'groundedness', scale: { min: 0, max: 1 }, description: 'Uses the fact.\nOr not.' },
};

describe('a task in a chat message', () => {
  it.each([pairwise, pointwise, { kind: 'pairwise', question: 'q', answerA: 'a', answerB: 'b' } satisfies Task])(
    'round-trips through the marker form ($kind)',
    (task) => {
      expect(taskFromText(taskToText(task), AT)).toEqual({ task, form: 'markers' });
    },
  );

  it('reads JSON bare or in one ```json fence', () => {
    expect(taskFromText(JSON.stringify(pairwise), AT)).toEqual({ task: pairwise, form: 'json' });
    expect(taskFromText(`\n\`\`\`json\n${JSON.stringify(pointwise, null, 2)}\n\`\`\`\n`, AT)).toEqual({
      task: pointwise,
      form: 'json',
    });
  });

  it('markers are case-insensitive, take text on their own line, and spell ANSWER A loosely', () => {
    const { task } = taskFromText('[question] Why?\n[Answer_A]   Because.\n[ANSWER-B]\nNo idea.\n', AT);
    expect(task).toEqual({ kind: 'pairwise', question: 'Why?', answerA: 'Because.', answerB: 'No idea.' });
  });

  it('keeps lines that only look like markers as text', () => {
    const { task } = taskFromText('[QUESTION]\nSee [1].\n[ANSWER A]\n[NOTE] a\n[ANSWER B]\nb', AT);
    expect(task).toMatchObject({ question: 'See [1].', answerA: '[NOTE] a' });
  });

  it.each([
    ['[QUESTION]\nq\n[ANSWER A]\na', /missing \[ANSWER B\]/],
    ['[SOURCE]\ns\n[OUTPUT]\no', /pointwise task is missing \[ASPECT\]/],
    ['Judge this.\n[QUESTION]\nq\n[ANSWER A]\na\n[ANSWER B]\nb', /text before the first marker would be ignored/],
    ['[QUESTION]\nq\n[QUESTION]\nq2\n[ANSWER A]\na\n[ANSWER B]\nb', /\[QUESTION\] appears more than once/],
    ['[QUESTION]\nq\n[OUTPUT]\no', /pairwise markers \(\[QUESTION\]\) and pointwise markers \(\[OUTPUT\]\) are mixed/],
    [
      '[SOURCE]\ns\n[OUTPUT]\no\n[ASPECT]\ncoherence',
      /\[ASPECT\] needs its name and scale on its first line, e\.g\. "coherence \(1-5\)"; got "coherence"/,
    ],
    ['[SOURCE]\ns\n[OUTPUT]\no\n[ASPECT]\ncoherence (5-1)', /\[ASPECT\]: scale\.max must be greater than scale\.min/],
    ['[QUESTION]\nq\n[ANSWER A]\n   \n[ANSWER B]\nb', /\[ANSWER A\]: answerA must not be empty/],
    ['{"kind":"pairwise",', /the task is not valid JSON/],
    ['{"kind":"pairwise","question":"q","answerA":"a"}', /answerB/],
    ['Is A better than B?', /no task found/],
  ])('refuses %j', (text, message) => {
    const issues = refusal(text);
    expect(issues.join('\n')).toMatch(message);
    expect(issues.every((i) => i.startsWith(AT))).toBe(true);
  });
});
