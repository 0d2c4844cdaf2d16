/**
 * A refusal of a task's kind for a task the service built itself (a comparison's pairs, a monitor's sample of
 * spans) names the caller's field that chose the judge, not `task.kind`, which is no field of the caller's; a
 * task the caller sent keeps its place (`items.3.task.kind`).
 */
import { describe, expect, it } from 'vitest';
import type { PairwiseTask, PointwiseTask } from '../../src/engine/task.js';
import { ApiError } from '../../src/http/errors.js';
import { thrownBy } from '../support/thrown.js';
import { planTask, resolveJudge } from '../../src/methods/resolve-judge.js';

const pair = { kind: 'pairwise', question: 'q', answerA: 'a', answerB: 'b' } as PairwiseTask;
const point: PointwiseTask = {
  kind: 'pointwise',
  source: 's',
  output: 'o',
  aspect: { name: 'quality', description: 'How good the output is.', scale: { min: 1, max: 5 } },
};

describe('a task kind the judge does not take', () => {
  it("names the caller's field for a task the service built, with why when given", () => {
    const e = thrownBy(ApiError, () =>
      planTask(resolveJudge('debate-summeval', undefined), pair, 'items.3', undefined, {
        field: 'preset',
        why: 'a comparison judges pairs of outputs',
      }),
    );
    expect(e.code).toBe('task_kind_unsupported');
    expect(e.message).toMatch(
      /^preset: method "\S+" judges pointwise tasks, not pairwise ones \(a comparison judges pairs of outputs\)$/,
    );
    expect(e.issues).toEqual([{ path: 'preset', message: expect.not.stringMatching(/task\.kind|items/) as string }]);
    const monitor = thrownBy(ApiError, () =>
      planTask(resolveJudge('fastchat-pair', undefined), point, 'task', undefined, { field: 'judge.preset' }),
    );
    expect(monitor.code).toBe('task_kind_unsupported');
    expect(monitor.message).toMatch(/^judge\.preset: (?!task\.kind)\S/);
    expect(monitor.issues?.map((i) => i.path)).toEqual(['judge.preset']);
  });

  it("keeps the task's place for a task the caller sent", () => {
    const e = thrownBy(ApiError, () => planTask(resolveJudge('debate-summeval', undefined), pair, 'items.3.task'));
    expect(e.code).toBe('task_kind_unsupported');
    expect(e.message).toMatch(/^items\.3\.task\.kind: /);
  });
});
