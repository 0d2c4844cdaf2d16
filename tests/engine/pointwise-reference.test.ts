/**
 * A pointwise task's expected output (`reference`) goes where a template has a `{{reference}}` slot and nowhere
 * else: the single judge renders it there (`(none)` without one), a preset's template, which has no such slot,
 * keeps the authors' text and refuses the field (never ignoring it), and so does every other method.
 */
import { describe, expect, it } from 'vitest';
import { EngineInputError } from '../../src/engine/errors.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import type { PointwiseTask } from '../../src/engine/task.js';
import { readableReply } from '../support/replies.js';
import { driveByWaves } from '../support/waves.js';
import { thrownBy } from '../support/thrown.js';

const TASK: PointwiseTask = {
  kind: 'pointwise',
  source: 'What is the capital of Canada?',
  output: 'Toronto.',
  aspect: { name: 'correctness', description: 'Agrees with the expected answer.', scale: { min: 1, max: 5 } },
};
const EXPECTED = 'EXPECTED ANSWER: Ottawa.';
const TEMPLATE =
  'Rate the {{aspect}} of the answer from {{min}} to {{max}}.\nQuestion: {{source}}\nExpected: {{reference}}\nAnswer: {{output}}\nScore:';

/** The text of every message the judge sends for `task`. */
function prompts(preset: string, overrides: Record<string, unknown> | undefined, task: PointwiseTask): string[] {
  const config = resolveMethodConfig(preset, overrides);
  const method = getMethod(config.method);
  const { waves } = driveByWaves(method, createEvaluation(method, config, task), readableReply);
  return waves.flat().flatMap((r) => r.messages.map((m) => m.content));
}

const refusal = (fn: () => unknown): EngineInputError => thrownBy(EngineInputError, fn);

const own = { samples: 1, templatesByAspect: { correctness: TEMPLATE } };

describe("a pointwise task's expected output", () => {
  it("stands in the template's {{reference}} slot, once, and nowhere else", () => {
    const sent = prompts('geval-summeval', own, { ...TASK, reference: EXPECTED });
    expect(sent.join('\n').split(EXPECTED)).toHaveLength(2);
    expect(sent.join('\n')).toContain(`Expected: ${EXPECTED}\nAnswer: Toronto.`);
  });

  it('renders (none) in the slot when the task has none', () => {
    expect(prompts('geval-summeval', own, TASK).join('\n')).toContain('Expected: (none)\nAnswer: Toronto.');
  });

  it("is refused by a preset's template, which has no slot for it, and the preset's prompt is unchanged without it", () => {
    const coherence = { ...TASK, aspect: { name: 'coherence', scale: { min: 1, max: 5 } } };
    const err = refusal(() => prompts('geval-summeval', undefined, { ...coherence, reference: EXPECTED }));
    expect(err.code).toBe('invalid_task');
    expect(err.message).toMatch(/^task\.reference: .*\{\{reference\}\}/);
    expect(prompts('geval-summeval', undefined, coherence).join('\n')).not.toContain('(none)');
  });

  it('is refused, naming the field, by every method other than the single judge', () => {
    for (const preset of ['chateval-topical-chat', 'debate-summeval', 'ensemble-topical-chat']) {
      const aspect = { name: 'naturalness', scale: { min: 1, max: 3 } };
      const err = refusal(() => prompts(preset, undefined, { ...TASK, aspect, context: 'fact', reference: EXPECTED }));
      expect(err.message, preset).toMatch(/^task\.reference: method "\w+" has no slot/);
    }
  });
});
