/**
 * A rubric's criteria replace each template's criteria and nothing else. For every preset (every method,
 * the jury and the cascade through their stages, the papers' other readings as config overrides) the same
 * task runs with scripted replies twice, without and with a rubric, and each request's messages are compared:
 * cut at the template's own criteria texts (listed here from the papers' wording, not read from the engine's
 * slot tables), every piece between them must be byte-identical, and the rubric's criteria must stand in a
 * cut. A message that holds no criteria text must not change at all.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { EngineInputError } from '../../src/engine/errors.js';
import { BANDI_BASELINE_PAPER_TEMPLATE } from '../../src/engine/methods/single/index.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { createJob, getMethod, PRESETS, resolveMethodConfig } from '../../src/engine/registry.js';
import type { RubricContent } from '../../src/engine/rubric.js';
import type { PointwiseTask, Task } from '../../src/engine/task.js';
import { readableReply } from '../support/replies.js';
import { driveByWaves } from '../support/waves.js';
import { thrownBy } from '../support/thrown.js';

/** The rubric's criteria: a text that appears in no template and no reply. */
const MARK = 'RUBRIC CRITERIA: the reply follows the refund policy (refunds within 30 days, no questions asked).';

const PAIR: Task = {
  kind: 'pairwise',
  question: 'QUESTION TEXT',
  answerA: 'ANSWER ONE TEXT',
  answerB: 'ANSWER TWO TEXT',
};
const pointwise = (name: string, min: number, max: number): PointwiseTask => ({
  kind: 'pointwise',
  source: 'SOURCE TEXT',
  context: 'CONTEXT TEXT',
  output: 'OUTPUT TEXT',
  aspect: { name, scale: { min, max } },
});

/** Every request a config makes for a task (and rubric), by id. */
function requests(
  preset: string,
  overrides: Record<string, unknown> | undefined,
  task: Task,
  rubric?: RubricContent,
): Map<string, LlmCallRequest> {
  const config = resolveMethodConfig(preset, overrides);
  const method = getMethod(config.method);
  const { waves } = driveByWaves(method, createEvaluation(method, config, task, rubric), readableReply);
  return new Map(waves.flat().map((r) => [r.id, r]));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text strictly between the first `start` and the next `end` in `text` (empty when absent). */
function between(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  if (from < 0) return '';
  const to = text.indexOf(end, from + start.length);
  return to < 0 ? '' : text.slice(from + start.length, to);
}

/**
 * Checks `after` is `before` with only its criteria texts replaced; returns whether the rubric's criteria
 * stand in one of the replaced places.
 */
function onlySlotsChanged(before: string, after: string, slots: readonly string[]): boolean {
  const present = slots.filter((s) => s !== '' && before.includes(s));
  if (present.length === 0) {
    expect(after).toBe(before);
    return false;
  }
  const pieces = before.split(new RegExp(present.map(escape).join('|')));
  const match = new RegExp(`^${pieces.map(escape).join('([\\s\\S]*?)')}$`).exec(after);
  expect(match, `outside the criteria: ${JSON.stringify(after)}`).not.toBeNull();
  return (match ?? []).slice(1).some((g) => g.includes(MARK));
}

/** Runs a case and checks every request (see the file note). */
function check(c: Case): void {
  const task = c.task;
  const rubric: RubricContent =
    task.kind === 'pairwise'
      ? { kind: 'pairwise', criteria: MARK }
      : { kind: 'pointwise', criteria: MARK, scale: task.aspect?.scale ?? { min: 1, max: 5 } };
  const without = requests(c.preset, c.config, task);
  const withRubric = requests(c.preset, c.config, c.rubricTask ?? task, rubric);
  expect([...withRubric.keys()]).toEqual([...without.keys()]);
  let landed = 0;
  for (const [id, before] of without) {
    const after = withRubric.get(id);
    expect(after?.messages.map((m) => m.role)).toEqual(before.messages.map((m) => m.role));
    before.messages.forEach((m, i) => {
      if (onlySlotsChanged(m.content, after?.messages[i]?.content ?? '', c.slots(m.content))) landed += 1;
    });
    // Nothing but the messages changes: ids, parsers and model settings stay.
    expect({ ...after, messages: [] }).toEqual({ ...before, messages: [] });
  }
  expect(landed, 'the rubric stands in some prompt').toBeGreaterThan(0);
  for (const r of withRubric.values())
    for (const m of r.messages) if (m.content.includes(MARK)) expect(m.content.split(MARK)).toHaveLength(2);
}

interface Case {
  preset: string;
  config?: Record<string, unknown>;
  task: Exclude<Task, { kind: 'trajectory' }>;
  /** The task the rubric run sends, when the plain run needs what a rubric replaces (an aspect description). */
  rubricTask?: Task;
  /** The template's own criteria texts in a message (the slot), as the papers word them. */
  slots: (message: string) => string[];
}

const CHATEVAL_SENTENCE =
  'Please consider the helpfulness, relevance, accuracy, and level of detail of their responses.';
const SINGLE_SENTENCE = 'Please rate the helpfulness, relevance, accuracy, and level of detail of their responses.';
const FAIREVAL_SENTENCE = 'Please rate the helpfulness, relevance, accuracy, level of details of their responses. ';
const FASTCHAT_V2 =
  'Your evaluation should consider factors such as the helpfulness, relevance, accuracy, depth, creativity, and level of detail of their responses. ';
const FASTCHAT_MATH = 'Your evaluation should consider correctness and helpfulness. ';
const SIX = [
  '1. Relevance to the question',
  '2. Accuracy of information and use of credible sources',
  '3. Depth of analysis and completeness of argument',
  '4. Clarity of expression and logical flow',
  '5. Strength of reasoning and factual support',
];
const BANDI_CODE = [...SIX, "6. Effectiveness in addressing opponent's points"].join('\n    ');
const BANDI_PAPER = [...SIX, '6. Effectiveness in addressing opponent’s points'].join('\n');
const BANDI_FORM_CODE =
  "Relevance:\n  Accuracy:\n  Depth:\n  Clarity:\n  Logic and Factuality:\n  Addressing opponent's points:";
const BANDI_FORM_PAPER =
  'Relevance:\nAccuracy:\nDepth:\nClarity:\nLogic and Factuality:\nAddressing opponent’s points:';
const ADVOCATE_CODE = [
  "1. Relevance: Show how your answer directly addresses the question and why your opponent's doesn't.",
  "2. Accuracy: Highlight the precision of your answer and point out any inaccuracies in your opponent's.",
  "3. Depth: Demonstrate the profound insights in your answer and expose the superficiality of your opponent's.",
  "4. Clarity: Emphasize the clarity of your answer and criticize any vagueness in your opponent's.",
  "5. Logic and Factuality: Stress the solid logic and facts in your answer while identifying logical fallacies or factual errors in your opponent's.",
].join('\n    ');
const ADVOCATE_PAPER = '1. Relevance\n2. Accuracy\n3. Depth\n4. Clarity\n5. Logic and Factuality';

/** G-Eval-shaped forms: the criteria paragraph and the evaluation steps. */
const gevalSlots = (m: string) => [
  between(m, 'Evaluation Criteria:\n\n', '\n\nEvaluation Steps:'),
  between(m, 'Evaluation Steps:\n\n', '\n\n\nExample:') || between(m, 'Evaluation Steps:\n\n', '\n\nExample:'),
];
/** ChatEval's Topical-Chat configs: the criteria block ("Crieteria" sic) and the evaluation steps. */
const topicalSlots = (m: string) => [
  between(m, 'Evaluation Crieteria:\n\n', '\n\nEvaluation Steps:'),
  between(m, 'Evaluation Steps:\n\n', '\n\nExample:'),
];
/** Our generic pointwise prompt (ChatEval's and the ensemble's): its criteria line after the scale. */
const genericPointwise = (m: string) => [between(m, ') ', '\n\nSource:')];

const fixed =
  (...slots: string[]) =>
  () =>
    slots;

const CASES: Case[] = [
  { preset: 'chateval-faireval', task: PAIR, slots: fixed(CHATEVAL_SENTENCE) },
  { preset: 'chateval-faireval', config: { promptSource: 'paper' }, task: PAIR, slots: fixed(CHATEVAL_SENTENCE) },
  { preset: 'chateval-simultaneous-talk', task: PAIR, slots: fixed(CHATEVAL_SENTENCE) },
  { preset: 'chateval-summarizer', task: PAIR, slots: fixed(CHATEVAL_SENTENCE) },
  { preset: 'chateval-same-role', task: PAIR, slots: fixed(CHATEVAL_SENTENCE) },
  { preset: 'chateval-topical-chat', task: pointwise('naturalness', 1, 3), slots: topicalSlots },
  { preset: 'chateval-topical-chat', task: pointwise('groundedness', 0, 1), slots: topicalSlots },
  {
    preset: 'chateval-topical-chat',
    task: {
      ...pointwise('specificity', 1, 5),
      aspect: { name: 'specificity', description: 'DESC', scale: { min: 1, max: 5 } },
    },
    rubricTask: pointwise('specificity', 1, 5),
    slots: genericPointwise,
  },
  { preset: 'chateval-single', task: PAIR, slots: fixed(SINGLE_SENTENCE) },
  { preset: 'ensemble-chateval-roles', task: PAIR, slots: fixed(SINGLE_SENTENCE) },
  { preset: 'ensemble-topical-chat', task: pointwise('engagingness', 1, 3), slots: topicalSlots },
  { preset: 'faireval-mec-bpc', task: PAIR, slots: fixed(FAIREVAL_SENTENCE) },
  { preset: 'fastchat-pair', task: PAIR, slots: fixed(FASTCHAT_V2) },
  { preset: 'fastchat-pair', task: { ...PAIR, reference: 'REFERENCE TEXT' }, slots: fixed(FASTCHAT_MATH) },
  { preset: 'poll-3', task: PAIR, slots: fixed(FASTCHAT_V2) },
  { preset: 'geval-summeval', task: pointwise('coherence', 1, 5), slots: gevalSlots },
  { preset: 'geval-summeval', task: pointwise('consistency', 1, 5), slots: gevalSlots },
  {
    preset: 'geval-summeval',
    task: pointwise('fluency', 1, 3),
    slots: (m) => [between(m, 'Evaluation Criteria:\n\n', '\n\n\nExample:')],
  },
  { preset: 'geval-summeval', task: pointwise('relevance', 1, 5), slots: gevalSlots },
  { preset: 'geval-topical-chat', task: pointwise('naturalness', 1, 3), slots: gevalSlots },
  {
    preset: 'rubric-judge',
    task: {
      ...pointwise('helpfulness', 1, 5),
      aspect: { name: 'helpfulness', description: 'DESC', scale: { min: 1, max: 5 } },
    },
    rubricTask: pointwise('helpfulness', 1, 5),
    slots: gevalSlots,
  },
  {
    // A pointwise task through the trajectory judge's single-aspect form (its one-call form: trajectory.test.ts).
    preset: 'trajectory-judge',
    task: {
      ...pointwise('helpfulness', 1, 5),
      aspect: { name: 'helpfulness', description: 'DESC', scale: { min: 1, max: 5 } },
    },
    rubricTask: pointwise('helpfulness', 1, 5),
    slots: gevalSlots,
  },
  { preset: 'bandi-baseline', task: PAIR, slots: fixed(BANDI_CODE, BANDI_FORM_CODE) },
  {
    preset: 'bandi-baseline',
    config: { template: BANDI_BASELINE_PAPER_TEMPLATE },
    task: PAIR,
    slots: fixed(BANDI_PAPER, BANDI_FORM_PAPER),
  },
  { preset: 'more-mtbench', task: PAIR, slots: fixed(BANDI_CODE) },
  { preset: 'more-mtbench', config: { promptSource: 'paper' }, task: PAIR, slots: fixed(BANDI_PAPER) },
  { preset: 'samre-mtbench', task: PAIR, slots: fixed(BANDI_CODE, ADVOCATE_CODE) },
  { preset: 'samre-mtbench', config: { flow: 'paper' }, task: PAIR, slots: fixed(BANDI_PAPER, ADVOCATE_PAPER) },
  { preset: 'samre-no-jury', task: PAIR, slots: fixed(BANDI_CODE, ADVOCATE_CODE) },
  { preset: 'samre-early-stop', task: PAIR, slots: fixed(BANDI_CODE, ADVOCATE_CODE) },
  { preset: 'debate-summeval', task: pointwise('coherence', 1, 5), slots: gevalSlots },
  { preset: 'debate-summeval-moderate', task: pointwise('consistency', 1, 5), slots: gevalSlots },
  { preset: 'debate-summeval-weak', task: pointwise('relevance', 1, 5), slots: gevalSlots },
  { preset: 'debate-summeval-plain', task: pointwise('coherence', 1, 5), slots: gevalSlots },
  { preset: 'debate-topical-chat', task: pointwise('naturalness', 1, 3), slots: gevalSlots },
  { preset: 'debate-tie-breaker', task: pointwise('coherence', 1, 5), slots: gevalSlots },
  { preset: 'cascade-fastchat-chateval', task: PAIR, slots: fixed(FASTCHAT_V2, CHATEVAL_SENTENCE) },
];

describe("a rubric's criteria replace the template's criteria and nothing else", () => {
  it('covers every preset', () => {
    expect(new Set(CASES.map((c) => c.preset))).toEqual(new Set(PRESETS.map((p) => p.id)));
  });

  const name = (c: Case) =>
    [c.preset, c.config ? 'paper' : '', c.task.kind === 'pointwise' ? c.task.aspect?.name : c.task.reference]
      .filter((x): x is string => typeof x === 'string' && x !== '')
      .join(' ');
  it.each(CASES.map((c) => [name(c), c] as const))('%s', (_name, c) => {
    check(c);
  });
});

/** The EngineInputError `fn` throws. */
function thrown(fn: () => unknown): EngineInputError {
  return thrownBy(EngineInputError, fn);
}

describe('rubric errors name the field', () => {
  const single = resolveMethodConfig('geval-summeval', undefined);

  it('a pairwise rubric on a pointwise task, or the reverse: rubric.kind', () => {
    const pointwiseMethod = getMethod('single');
    expect(() =>
      createEvaluation(pointwiseMethod, single, pointwise('coherence', 1, 5), { kind: 'pairwise', criteria: MARK }),
    ).toThrow(/^rubric\.kind: a pairwise rubric cannot judge a pointwise task/);
    const fastchat = resolveMethodConfig('fastchat-pair', undefined);
    const err = thrown(() =>
      createEvaluation(getMethod('single'), fastchat, PAIR, {
        kind: 'pointwise',
        criteria: MARK,
        scale: { min: 1, max: 5 },
      }),
    );
    expect(err.code).toBe('rubric_task_mismatch');
    expect(err.message).toMatch(/^rubric\.kind: a pointwise rubric cannot judge a pairwise task/);
  });

  it('invalid content: each issue names its field under rubric.', () => {
    const m = getMethod('single');
    expect(() =>
      createEvaluation(m, single, pointwise('coherence', 1, 5), {
        kind: 'pointwise',
        criteria: ' ',
        scale: { min: 5, max: 5 },
      }),
    ).toThrow(
      /rubric\.criteria: must not be only whitespace; rubric\.scale\.max: scale\.max must be greater than scale\.min/,
    );
  });

  it("a template of the config's own without a slot is refused, naming it; {{criteria}} marks one", () => {
    const m = getMethod('single');
    const own = resolveMethodConfig('chateval-single', {
      template: 'Which is better?\n{{question}}\n{{answer_a}}\n{{answer_b}}',
    });
    const refused = thrown(() => createEvaluation(m, own, PAIR, { kind: 'pairwise', criteria: MARK }));
    expect(refused.code).toBe('rubric_unsupported');
    expect(refused.message).toContain('config.template');
    const marked = resolveMethodConfig('chateval-single', {
      template: 'Judge by {{criteria}}\n{{question}}\n{{answer_a}}\n{{answer_b}}',
    });
    const sent = requests(
      'chateval-single',
      { template: 'Judge by {{criteria}}\n{{question}}\n{{answer_a}}\n{{answer_b}}' },
      PAIR,
      {
        kind: 'pairwise',
        criteria: MARK,
      },
    );
    expect(sent.get('ab/sample0')?.messages[0]?.content).toBe(
      `Judge by ${MARK}\nQUESTION TEXT\nANSWER ONE TEXT\nANSWER TWO TEXT`,
    );
    // Without a rubric, {{criteria}} has nothing to hold.
    expect(thrown(() => createEvaluation(m, marked, PAIR)).code).toBe('template_task_mismatch');
  });

  it('a ChatEval or ensemble pairwise template of your own keeping {{criteria}} or {{aspect_description}} takes a rubric there', () => {
    const own = (slot: string) =>
      `Judge by {{${slot}}}\n{{question}}\n{{answer_1}}\n{{answer_2}}\n{{role_description}}\n{{final_prompt}}`;
    for (const preset of ['chateval-faireval', 'ensemble-chateval-roles']) {
      for (const slot of ['criteria', 'aspect_description']) {
        const overrides = { templates: { pairwise: own(slot) } };
        const sent = [...requests(preset, overrides, PAIR, { kind: 'pairwise', criteria: MARK }).values()];
        expect(sent.length).toBeGreaterThan(0);
        for (const r of sent) expect(r.messages.at(-1)?.content).toMatch(new RegExp(`^Judge by ${escape(MARK)}\n`));
        // Without a rubric the slot has nothing to hold: refused at creation, naming the field.
        const config = resolveMethodConfig(preset, overrides);
        const refused = thrown(() => createEvaluation(getMethod(config.method), config, PAIR));
        expect(refused.message).toMatch(/^rubric: the template in config\.templates\.pairwise uses/);
      }
      // A template of your own without a slot is still refused with a rubric, and the message names both marks.
      const plain = resolveMethodConfig(preset, { templates: { pairwise: '{{question}} {{answer_1}} {{answer_2}}' } });
      const refused = thrown(() =>
        createEvaluation(getMethod(plain.method), plain, PAIR, { kind: 'pairwise', criteria: MARK }),
      );
      expect(refused.code).toBe('rubric_unsupported');
      expect(refused.message).toContain('{{criteria}} or {{aspect_description}}');
    }
  });

  it("a scale the authors' one-digit readers would misread is refused, naming rubric.scale", () => {
    const ten: RubricContent = { kind: 'pointwise', criteria: MARK, scale: { min: 1, max: 10 } };
    for (const preset of ['chateval-topical-chat', 'ensemble-topical-chat', 'debate-summeval']) {
      const c = resolveMethodConfig(preset, undefined);
      const err = thrown(() => createEvaluation(getMethod(c.method), c, pointwise('naturalness', 1, 10), ten));
      expect(err.message).toMatch(/^rubric\.scale: .* a scale of 1-10 cannot be read/);
    }
    const labelled = resolveMethodConfig('chateval-topical-chat', { pointwiseRead: 'labelled' });
    expect(() => createEvaluation(getMethod('chateval'), labelled, pointwise('naturalness', 1, 10), ten)).not.toThrow();
  });

  it('a job is a preset, config overrides, a task and a rubric beside them', () => {
    const job = createJob({
      preset: 'fastchat-pair',
      config: { samples: 1 },
      task: PAIR,
      rubric: { kind: 'pairwise', criteria: MARK },
    });
    expect(job.method.method).toBe('single');
    expect(job.state.rubric).toEqual({ kind: 'pairwise', criteria: MARK });
    expect(job.state.config).toBe(job.config);
    // Without a rubric the state carries none: exactly the state of before.
    const plain = createJob({ preset: 'fastchat-pair', task: PAIR });
    expect('rubric' in plain.state).toBe(false);
    expect(plain.state).toEqual(
      createEvaluation(getMethod('single'), resolveMethodConfig('fastchat-pair', undefined), PAIR),
    );
  });

  it("a rubric's own braces are never read as placeholders", () => {
    const sent = requests('fastchat-pair', undefined, PAIR, {
      kind: 'pairwise',
      criteria: 'Cite {{question}} and $& verbatim.',
    });
    expect(sent.get('ab/sample0')?.messages[0]?.content).toContain('Cite {{question}} and $& verbatim.');
  });
});
