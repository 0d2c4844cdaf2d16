/**
 * Conversations (`messages`) and references. FastChat's judges take a two-turn conversation with their
 * multi-turn templates, byte for byte as `common.py` `run_judge_pair(multi_turn=True)` formats
 * `judge_prompts.jsonl` (lm-sys/FastChat @ 0e6d3e4b): each expected SHA-256 below is of FastChat's own
 * `prompt_template.format(...)` for the same texts, computed from that file at that commit (shipped as
 * datasets/mt_bench/judge_prompts.jsonl, also read here). The other methods show the conversation where the
 * question (or the source) stands, one rendering for all; a one-message conversation is the question itself.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { renderConversation } from '../../src/engine/judged.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import type { Task } from '../../src/engine/task.js';
import { PairwiseTaskSchema, PointwiseTaskSchema, TaskSchema } from '../../src/engine/task.js';
import { driveByWaves, verdictOf } from '../support/waves.js';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** MT-Bench's second turn: both questions, each model's two answers, GPT-4's reference to each turn. */
const TWO_TURNS: Task = {
  kind: 'pairwise',
  messages: [
    { role: 'user', content: 'QUESTION ONE TEXT' },
    { role: 'assistant', answerA: 'ANSWER A ONE', answerB: 'ANSWER B ONE', reference: 'REFERENCE ONE' },
    { role: 'user', content: 'QUESTION TWO TEXT' },
  ],
  answerA: 'ANSWER A TWO',
  answerB: 'ANSWER B TWO',
};

/** Every request a preset makes for a task, by id (replies: FastChat's tie, ChatEval's score lines). */
function sent(preset: string, task: Task): Map<string, LlmCallRequest> {
  const config = resolveMethodConfig(preset, undefined);
  const method = getMethod(config.method);
  const { waves } = driveByWaves(method, createEvaluation(method, config, task), (r) =>
    r.parser.type === 'fastchat-verdict' ? '[[C]]' : 'x\nThe score of Assistant 1: 7\nThe score of Assistant 2: 5',
  );
  return new Map(waves.flat().map((r) => [r.id, r]));
}

const hashes = (r: LlmCallRequest | undefined) => r?.messages.map((m) => `${m.role}:${sha(m.content)}`);

/** FastChat's judge prompt by name, from the shipped file, filled as Python's `str.format` fills it. */
function fastchat(name: string, vars: Record<string, string>): { system: string; user: string } {
  const line = readFileSync(new URL('../../datasets/mt_bench/judge_prompts.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .find((l) => l.includes(`"name": "${name}"`));
  const j = JSON.parse(line ?? '{}') as { system_prompt: string; prompt_template: string };
  return { system: j.system_prompt, user: j.prompt_template.replace(/\{(\w+)\}/g, (_m, k: string) => vars[k] ?? '') };
}

describe("FastChat's multi-turn judges for a two-turn conversation (lm-sys/FastChat @ 0e6d3e4b)", () => {
  it('pair-v2-multi-turn in both orders, as run_judge_pair formats it', () => {
    const { reference: _r, ...noReference } = { ...TWO_TURNS, reference: undefined };
    const r = sent('fastchat-pair', noReference);
    expect(hashes(r.get('ab/sample0'))).toEqual([
      'system:af4a7431af51d6d7807be08b8093e6eb4975bf790d1a1086decd9d0e39eac7fc',
      'user:786a6033dcdd194132a027ccff0ee2853d91a59917dcb80b331f26af4615a734',
    ]);
    // The swapped order swaps each model's whole conversation, its first answers too.
    expect(hashes(r.get('ba/sample0'))).toEqual([
      'system:af4a7431af51d6d7807be08b8093e6eb4975bf790d1a1086decd9d0e39eac7fc',
      'user:5a1094bb1d90edd955c54a4f12150eca1fdc26df9126bd3e29ee953b66889212',
    ]);
    const expected = fastchat('pair-v2-multi-turn', {
      question_1: 'QUESTION ONE TEXT',
      question_2: 'QUESTION TWO TEXT',
      answer_a_1: 'ANSWER A ONE',
      answer_b_1: 'ANSWER B ONE',
      answer_a_2: 'ANSWER A TWO',
      answer_b_2: 'ANSWER B TWO',
    });
    expect(r.get('ab/sample0')?.messages).toEqual([
      { role: 'system', content: expected.system },
      { role: 'user', content: expected.user },
    ]);
  });

  it('pair-math-v1-multi-turn when the task has a reference, with the reference to each turn', () => {
    const r = sent('fastchat-pair', { ...TWO_TURNS, reference: 'REFERENCE TWO' });
    expect(hashes(r.get('ab/sample0'))).toEqual([
      'system:79adeb31a7f50510b052a18af4e1905ff8dd3d56ea424bc4359342d82a288e9e',
      'user:3a404d026560cf916a78dea415783f6576a10b9ba16a590479e77cfa064949cc',
    ]);
    const config = resolveMethodConfig('fastchat-pair', undefined);
    const v = verdictOf(
      driveByWaves(
        getMethod('single'),
        createEvaluation(getMethod('single'), config, { ...TWO_TURNS, reference: 'R' }),
        (r) => (r.id.startsWith('ab/') ? '[[A]]' : '[[B]]'),
      ).outcome,
    );
    expect(v.details.orders).toMatchObject({
      AB: { usedReference: true, multiTurn: true },
      BA: { usedReference: true, multiTurn: true },
    });
    expect(v.winner).toBe('A');
  });

  it('PoLL sends the same multi-turn judge', () => {
    const r = sent('poll-3', TWO_TURNS);
    expect(hashes(r.get('ab/juror0/sample0'))?.[1]).toBe(
      hashes(sent('fastchat-pair', TWO_TURNS).get('ab/sample0'))?.[1],
    );
  });

  it('one reply both conversations share stands for both first answers', () => {
    const shared: Task = {
      ...TWO_TURNS,
      messages: [
        { role: 'user', content: 'Q1' },
        { role: 'assistant', content: 'SHARED' },
        { role: 'user', content: 'Q2' },
      ],
    };
    const user = sent('fastchat-pair', shared).get('ab/sample0')?.messages[1]?.content ?? '';
    expect(user).toContain('### Assistant A:\nSHARED\n\n### User:\nQ2\n\n### Assistant A:\nANSWER A TWO');
    expect(user).toContain('### Assistant B:\nSHARED\n\n### User:\nQ2\n\n### Assistant B:\nANSWER B TWO');
  });

  it('any other conversation (three turns) goes where the question stands in pair-v2', () => {
    const three: Task = {
      ...TWO_TURNS,
      messages: [
        { role: 'user', content: 'Q1' },
        { role: 'assistant', content: 'R1' },
        { role: 'user', content: 'Q2' },
        { role: 'assistant', content: 'R2' },
        { role: 'user', content: 'Q3' },
      ],
    };
    const r = sent('fastchat-pair', three).get('ab/sample0');
    expect(r?.messages[1]?.content).toBe(
      "[User Question]\n### User:\nQ1\n\n### Assistant:\nR1\n\n### User:\nQ2\n\n### Assistant:\nR2\n\n### User:\nQ3\n\n[The Start of Assistant A's Answer]\nANSWER A TWO\n[The End of Assistant A's Answer]\n\n[The Start of Assistant B's Answer]\nANSWER B TWO\n[The End of Assistant B's Answer]",
    );
  });
});

describe('the other methods show the conversation where the question or source stands', () => {
  it('a one-message conversation sends exactly what the question sends', () => {
    const question: Task = { kind: 'pairwise', question: 'QUESTION', answerA: 'A', answerB: 'B' };
    const asMessages: Task = {
      kind: 'pairwise',
      messages: [{ role: 'user', content: 'QUESTION' }],
      answerA: 'A',
      answerB: 'B',
    };
    for (const preset of ['fastchat-pair', 'chateval-faireval', 'samre-mtbench'])
      expect([...sent(preset, asMessages).values()]).toEqual([...sent(preset, question).values()]);
  });

  it("ChatEval: the rendered conversation is the [Question]; each model's own turn follows its answer when swapped", () => {
    const r = sent('chateval-faireval', TWO_TURNS);
    const history = renderConversation(TWO_TURNS.messages ?? []);
    expect(history).toBe(
      '### User:\nQUESTION ONE TEXT\n\n### Assistant (in the conversation of the first answer):\nANSWER A ONE\n\n### Assistant (in the conversation of the second answer):\nANSWER B ONE\n\n### User:\nQUESTION TWO TEXT',
    );
    expect(r.get('ab/turn1/agent0')?.messages[0]?.content).toContain(
      `[Question]\n${history}\n[The Start of Assistant 1’s Answer]\nANSWER A TWO`,
    );
    // In the swapped order the first answer is B's, and so is the first model's earlier turn.
    expect(r.get('ba/turn1/agent0')?.messages[0]?.content).toContain(
      'conversation of the first answer):\nANSWER B ONE\n\n### Assistant (in the conversation of the second answer):\nANSWER A ONE',
    );
  });

  it('pointwise: the conversation is the source (G-Eval-style Topical-Chat form)', () => {
    const task: Task = {
      kind: 'pointwise',
      messages: [
        { role: 'user', content: 'Hi, any news on my refund?' },
        { role: 'assistant', content: 'Let me check.' },
        { role: 'user', content: 'Thanks.' },
      ],
      context: 'FACT',
      output: 'Your refund was sent today.',
      aspect: { name: 'naturalness', scale: { min: 1, max: 3 } },
    };
    const r = sent('geval-topical-chat', task);
    expect(r.get('sample0')?.messages[0]?.content).toContain(
      'Conversation History:\n\n### User:\nHi, any news on my refund?\n\n### Assistant:\nLet me check.\n\n### User:\nThanks.\n\nCorresponding Fact:',
    );
  });
});

describe('the task schema names the field', () => {
  const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

  it('question or messages, exactly one; the last message is the user turn being answered', () => {
    expect(issues(PairwiseTaskSchema.safeParse({ kind: 'pairwise', answerA: 'a', answerB: 'b' }))).toEqual([
      'question: give question or messages',
    ]);
    expect(
      issues(
        PairwiseTaskSchema.safeParse({
          kind: 'pairwise',
          question: 'q',
          messages: [{ role: 'user', content: 'q' }],
          answerA: 'a',
          answerB: 'b',
        }),
      ),
    ).toEqual(['messages: give question or messages, not both']);
    expect(
      issues(
        TaskSchema.safeParse({
          kind: 'pointwise',
          messages: [
            { role: 'user', content: 'q' },
            { role: 'assistant', content: 'r' },
          ],
          output: 'o',
        }),
      ),
    ).toEqual(['messages.1.role: the last message is the user turn the judged reply answers: its role must be "user"']);
    expect(
      issues(
        PointwiseTaskSchema.safeParse({
          kind: 'pointwise',
          source: 's',
          output: 'o',
          messages: Array(65).fill({ role: 'user', content: 'q' }),
        }),
      ),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/^messages: /)]));
  });

  it("an assistant turn: content, or each answer's own", () => {
    const task = (assistant: Record<string, unknown>) => ({
      kind: 'pairwise',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', ...assistant },
        { role: 'user', content: 'q2' },
      ],
      answerA: 'a',
      answerB: 'b',
    });
    expect(TaskSchema.safeParse(task({ content: 'r' })).success).toBe(true);
    expect(TaskSchema.safeParse(task({ answerA: 'ra', answerB: 'rb', reference: 'ref' })).success).toBe(true);
    expect(issues(TaskSchema.safeParse(task({ answerA: 'ra' })))).toEqual([
      'messages.1.answerB: answerA and answerB go together',
    ]);
    expect(issues(TaskSchema.safeParse(task({ content: 'r', answerA: 'ra', answerB: 'rb' })))).toEqual([
      'messages.1.content: give content, or answerA and answerB, not both',
    ]);
    // A scored output's history has one assistant: no per-answer turns.
    expect(
      TaskSchema.safeParse({
        kind: 'pointwise',
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', answerA: 'x', answerB: 'y' },
          { role: 'user', content: 'q2' },
        ],
        output: 'o',
      }).success,
    ).toBe(false);
  });

  it('aspect or aspects; aspect names unique', () => {
    const base = { kind: 'pointwise', source: 's', output: 'o' };
    const a = { name: 'x', scale: { min: 1, max: 5 } };
    expect(issues(TaskSchema.safeParse({ ...base, aspect: a, aspects: [a] }))).toEqual([
      'aspects: give aspect or aspects, not both',
    ]);
    expect(issues(TaskSchema.safeParse({ ...base, aspects: [a, { ...a, weight: 2 }] }))).toEqual([
      'aspects.1.name: aspect name "x" is used twice',
    ]);
    expect(issues(TaskSchema.safeParse({ ...base, aspects: [{ ...a, weight: 0 }] }))?.[0]).toMatch(
      /^aspects\.0\.weight: /,
    );
    // Neither: only a rubric can say what is scored, which the engine checks.
    expect(() =>
      createEvaluation(getMethod('single'), resolveMethodConfig('rubric-judge', undefined), {
        kind: 'pointwise',
        source: 's',
        output: 'o',
      }),
    ).toThrow(/^task\.aspect: give aspect, aspects or a rubric/);
  });
});
