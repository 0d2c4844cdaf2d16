/**
 * Single-agent baselines: presets, waves, aggregation, calibration, unparsed handling, JSON round trips.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { AnyMethod } from '../../src/engine/method.js';
import type { SingleAgentConfig } from '../../src/engine/methods/single/index.js';
import {
  BANDI_BASELINE_PAPER_TEMPLATE,
  BANDI_BASELINE_TEMPLATE,
  FAIREVAL_SYSTEM,
  FAIREVAL_TEMPLATE,
  FASTCHAT_PAIR_MATH_SYSTEM,
  FASTCHAT_PAIR_MATH_TEMPLATE,
  FASTCHAT_PAIR_V2_SYSTEM,
  FASTCHAT_PAIR_V2_TEMPLATE,
  FASTCHAT_NEED_REF_CATS,
  fastChatJudgeFor,
  fastChatPairPrompt,
  GEVAL_SUMMEVAL_PROMPTS,
  singleAgentConfigSchema,
  singleAgentMethod,
  singleAgentPresets,
} from '../../src/engine/methods/single/index.js';
import { CHATEVAL_SINGLE_CODE, CODE_ROLES } from '../../src/engine/methods/chateval/index.js';
import { ensembleConfigSchema, ensembleMethod } from '../../src/engine/methods/ensemble/index.js';
import type { EngineState } from '../../src/engine/state.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { EngineInputError } from '../../src/engine/errors.js';
import type { JudgedPairwiseTask, JudgedPointwiseTask } from '../../src/engine/judged.js';
import { VerdictSchema } from '../../src/engine/verdict.js';
import type { Script } from '../support/waves.js';
import { driveByWaves, promptText } from '../support/waves.js';

const method = singleAgentMethod as unknown as AnyMethod;

function configOf(presetId: string | undefined, overrides: Record<string, unknown> = {}): SingleAgentConfig {
  const base = presetId ? singleAgentPresets.find((p) => p.id === presetId)?.config : { method: 'single' };
  if (!base) throw new Error(`no preset ${presetId}`);
  return singleAgentConfigSchema.parse({ ...base, ...overrides });
}

const start = (config: SingleAgentConfig, task: JudgedPairwiseTask | JudgedPointwiseTask): EngineState =>
  createEvaluation(method, config, task);

const pair: JudgedPairwiseTask = { kind: 'pairwise', question: 'Q?', answerA: 'ALPHA answer', answerB: 'BETA answer' };
const summary: JudgedPointwiseTask = {
  kind: 'pointwise',
  source: 'The article.',
  output: 'The summary.',
  aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
};

/** Which answer the judge sees first: ALPHA (normal order) or BETA (swapped). */
const firstShown = (req: LlmCallRequest): 'ALPHA' | 'BETA' => {
  const t = promptText(req);
  return t.indexOf('ALPHA') < t.indexOf('BETA') ? 'ALPHA' : 'BETA';
};

const scoreLines = (a: number, b: number) => `Reasons.\nThe score of Assistant 1: ${a}\nThe score of Assistant 2: ${b}`;

describe('config and presets', () => {
  it('every field is defaulted; presets validate; unknown keys and placeholders are rejected', () => {
    const c = singleAgentConfigSchema.parse({ method: 'single' });
    expect(c).toMatchObject({
      samples: 1,
      parseRetries: 3,
      parser: { type: 'chateval-scores', min: 1, max: 10, read: 'script' },
      systemPrompt: '',
      unparsed: 'drop',
    });
    for (const p of singleAgentPresets) expect(() => configOf(p.id), p.id).not.toThrow();
    expect(singleAgentPresets.map((p) => p.id)).toEqual([
      'chateval-single',
      'faireval-mec-bpc',
      'fastchat-pair',
      'geval-summeval',
      'geval-topical-chat',
      'bandi-baseline',
      'rubric-judge',
      'trajectory-judge',
    ]);
    expect(singleAgentConfigSchema.safeParse({ method: 'single', extra: 1 }).success).toBe(false);
    const bad = singleAgentConfigSchema.safeParse({ method: 'single', template: 'Judge {{answer_c}}' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('{{answer_c}}');
    expect(singleAgentConfigSchema.safeParse({ method: 'single', parser: { type: 'text' } }).success).toBe(false);
  });

  it("FastChat templates are FastChat's pair-v2 / pair-math-v1 from datasets/mt_bench/judge_prompts.jsonl", () => {
    const prompts = readFileSync(new URL('../../datasets/mt_bench/judge_prompts.jsonl', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { name: string; system_prompt: string; prompt_template: string });
    const toOurs = (t: string) =>
      t.replace(/\{(\w+)\}/g, (_m, n: string) => `{{${n === 'ref_answer_1' ? 'reference' : n}}}`);
    const v2 = prompts.find((p) => p.name === 'pair-v2');
    const math = prompts.find((p) => p.name === 'pair-math-v1');
    expect(FASTCHAT_PAIR_V2_SYSTEM).toBe(v2?.system_prompt);
    expect(FASTCHAT_PAIR_V2_TEMPLATE).toBe(toOurs(v2?.prompt_template ?? ''));
    expect(FASTCHAT_PAIR_MATH_SYSTEM).toBe(math?.system_prompt);
    expect(FASTCHAT_PAIR_MATH_TEMPLATE).toBe(toOurs(math?.prompt_template ?? ''));
  });

  it('rejects a config that does not fit the task kind, and unknown aspects without a description', () => {
    expect(() => start(configOf('chateval-single'), summary)).toThrow(EngineInputError);
    // A pairwise preset's prompts sent a pointwise task (and back): the judge does not take that kind.
    for (const [preset, task] of [
      ['geval-summeval', pair],
      ['fastchat-pair', summary],
    ] as const) {
      let caught: unknown;
      try {
        start(configOf(preset), task);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(EngineInputError);
      expect((caught as EngineInputError).code).toBe('task_kind_unsupported');
      expect((caught as EngineInputError).message).toMatch(/^task\.kind: /);
    }
    expect(() =>
      start(configOf('geval-summeval'), { ...summary, aspect: { name: 'wit', scale: { min: 1, max: 5 } } }),
    ).toThrow(/give aspect.description/);
    expect(() =>
      start(configOf('geval-summeval'), {
        ...summary,
        aspect: { name: 'wit', description: 'is it witty', scale: { min: 1, max: 5 } },
      }),
    ).not.toThrow();
  });
});

describe('ChatEval single agent', () => {
  it("one call per order with the authors' single-agent config prompt; scores summed over both orders", () => {
    // A judge biased to the first position: 8 for Assistant 1, 6 for Assistant 2, whatever they are.
    const { waves, outcome } = driveByWaves(method, start(configOf('chateval-single'), pair), () => scoreLines(8, 6));
    expect(waves.map((w) => w.map((r) => r.id))).toEqual([['ab/sample0', 'ba/sample0']]);
    const [ab, ba] = waves[0] as [LlmCallRequest, LlmCallRequest];
    expect(ab).toMatchObject({
      agent: 'judge',
      temperature: 0,
      maxTokens: 512,
      parser: { type: 'chateval-scores', read: 'script' },
    });
    expect(ab.messages).toEqual([
      {
        role: 'user',
        content: CHATEVAL_SINGLE_CODE.replace('{{question}}', 'Q?')
          .replace('{{answer_a}}', 'ALPHA answer')
          .replace('{{answer_b}}', 'BETA answer'),
      },
    ]);
    expect(firstShown(ba)).toBe('BETA');
    if (outcome.status !== 'succeeded') throw new Error('failed');
    // AB (8, 6) + BA mapped back (6, 8) = (14, 14): a tie, and the orders disagree.
    expect(outcome.verdict).toMatchObject({
      winner: 'tie',
      scores: { a: 14, b: 14 },
      positionFlip: true,
      calls: 2,
      unparsed: [],
    });
    expect(outcome.verdict.details).toMatchObject({ combinedBy: 'sum-scores' });
    expect(outcome.verdict.confidence).toBeCloseTo(1 / 9);
    expect(VerdictSchema.safeParse(outcome.verdict).success).toBe(true);

    // A judge preferring ALPHA by 2 wherever it stands: (8, 6) + (8, 6) = (16, 12) → A.
    const fair = driveByWaves(method, start(configOf('chateval-single'), pair), (req) =>
      firstShown(req) === 'ALPHA' ? scoreLines(8, 6) : scoreLines(6, 8),
    );
    if (fair.outcome.status !== 'succeeded') throw new Error('failed');
    expect(fair.outcome.verdict).toMatchObject({ winner: 'A', scores: { a: 16, b: 12 }, positionFlip: false });
  });

  it("its prompt is the ensemble's without the role description", () => {
    const single = driveByWaves(method, start(configOf('chateval-single'), pair), () => scoreLines(5, 5));
    const ensemble = ensembleMethod as unknown as AnyMethod;
    const cfg = ensembleConfigSchema.parse({
      method: 'ensemble',
      agents: [{ role: 'Critic' }],
    }) as unknown as EngineState['config'];
    const ens = driveByWaves(ensemble, createEvaluation(ensemble, cfg, pair), () => scoreLines(5, 5));
    expect(promptText(ens.waves[0]?.[0] as LlmCallRequest).replace(`${CODE_ROLES.Critic}\n`, '')).toBe(
      promptText(single.waves[0]?.[0] as LlmCallRequest),
    );
  });

  it('an unreadable reply is sent again as is (max_retry), then the item is a tie with no winner', () => {
    const cfg = configOf('chateval-single', { calibration: { enabled: false } });
    const { waves, outcome } = driveByWaves(method, start(cfg, pair), () => 'I like both.');
    expect(waves.map((w) => w.map((r) => r.id))).toEqual([['sample0'], ['sample0#1'], ['sample0#2']]);
    expect(waves[2]?.[0]?.messages).toEqual(waves[0]?.[0]?.messages);
    if (outcome.status !== 'succeeded') throw new Error('failed');
    expect(outcome.verdict).toMatchObject({ winner: 'tie', confidence: 0, calls: 3 });
    expect(outcome.verdict.scores).toBeUndefined();
    expect(outcome.verdict.unparsed).toEqual([
      {
        callId: 'sample0',
        agent: 'judge',
        stage: 'judge',
        reason: expect.stringContaining('The score of Assistant 1:') as unknown,
      },
    ]);
    expect(outcome.verdict.votes).toEqual([{ agent: 'judge', label: 'Judge', parsed: false }]);
  });

  it('the default repair sends the reply back with the expected format; a repaired reply counts', () => {
    const script: Script = (req) => (req.id.includes('#') ? scoreLines(3, 9) : 'no scores');
    const { waves, outcome } = driveByWaves(method, start(configOf(undefined), pair), script);
    const repair = waves[1]?.[0];
    expect(repair?.messages.at(-2)).toEqual({ role: 'assistant', content: 'no scores' });
    expect(repair?.messages.at(-1)?.content).toContain('The score of Assistant 1: <score>');
    if (outcome.status !== 'succeeded') throw new Error('failed');
    expect(outcome.verdict).toMatchObject({ winner: 'B', scores: { a: 3, b: 9 }, unparsed: [], calls: 2 });
  });
});

describe('FairEval MEC + BPC', () => {
  // Judge that favours whatever is shown first by 2 points, plus per-sample noise.
  const biased: Script = (req) => {
    const k = Number(/sample(\d)/.exec(req.id)?.[1]);
    const alphaFirst = firstShown(req) === 'ALPHA';
    const [alpha, beta] = [5 + k, 6 + k];
    return alphaFirst ? scoreLines(alpha + 2, beta) : scoreLines(beta + 2, alpha);
  };

  it("FairEval.py's messages; 3 samples per order in one wave at temperature 1; BPC averages both orders", () => {
    for (const roundTrip of [false, true]) {
      const { waves, outcome } = driveByWaves(method, start(configOf('faireval-mec-bpc'), pair), biased, { roundTrip });
      expect(waves).toHaveLength(1);
      expect(waves[0]?.map((r) => r.id)).toEqual([
        'ab/sample0',
        'ab/sample1',
        'ab/sample2',
        'ba/sample0',
        'ba/sample1',
        'ba/sample2',
      ]);
      expect(waves[0]?.every((r) => r.temperature === 1)).toBe(true);
      expect(waves[0]?.[0]?.messages).toEqual([
        { role: 'system', content: FAIREVAL_SYSTEM },
        {
          role: 'user',
          content: FAIREVAL_TEMPLATE.replace('{{question}}', 'Q?')
            .replace('{{answer_a}}', 'ALPHA answer')
            .replace('{{answer_b}}', 'BETA answer'),
        },
      ]);
      expect(waves[0]?.[0]?.parser).toEqual({ type: 'faireval-scores' });
      if (outcome.status !== 'succeeded') throw new Error('failed');
      const v = outcome.verdict;
      // AB means: alpha 8, beta 7 → A; BA (mapped back): alpha 6, beta 9 → B; BPC: alpha 7, beta 8.
      expect(v.positionFlip).toBe(true);
      expect(v.scores).toEqual({ a: 7, b: 8 });
      expect(v.winner).toBe('B');
      expect(v.votes).toHaveLength(6);
      expect(v.votes.filter((x) => x.order === 'BA')).toHaveLength(3);
      expect(v.details).toMatchObject({ combine: 'pooled-mean', orders: { AB: { samples: 3, parsedSamples: 3 } } });
    }
  });

  it('BPC pools the parsed samples: an order that lost samples weighs less (FairEval.py get_eval)', () => {
    // AB: three samples (10, 0). BA: one readable sample, (0, 10) once mapped back; two unreadable.
    let ba = 0;
    const script: Script = (req) =>
      firstShown(req) === 'ALPHA' ? scoreLines(10, 0) : ba++ === 0 ? scoreLines(10, 0) : 'garbled';
    const pooled = driveByWaves(method, start(configOf('faireval-mec-bpc'), pair), script);
    if (pooled.outcome.status !== 'succeeded') throw new Error('failed');
    expect(pooled.outcome.verdict).toMatchObject({ winner: 'A', scores: { a: 7.5, b: 2.5 } });
    ba = 0;
    const meanOfOrders = driveByWaves(
      method,
      start(configOf('faireval-mec-bpc', { calibration: { enabled: true, combine: 'mean-scores' } }), pair),
      script,
    );
    if (meanOfOrders.outcome.status !== 'succeeded') throw new Error('failed');
    expect(meanOfOrders.outcome.verdict).toMatchObject({ winner: 'tie', scores: { a: 5, b: 5 } });
  });

  it('an unparsed sample is excluded from the mean', () => {
    const cfg = configOf('faireval-mec-bpc', { parseRetries: 0, calibration: { enabled: false } });
    const script: Script = (req) =>
      req.id === 'sample1' ? 'garbled' : req.id === 'sample0' ? scoreLines(8, 4) : scoreLines(6, 4);
    const { outcome } = driveByWaves(method, start(cfg, pair), script);
    if (outcome.status !== 'succeeded') throw new Error('failed');
    expect(outcome.verdict).toMatchObject({ winner: 'A', scores: { a: 7, b: 4 }, details: { parsedSamples: 2 } });
    expect(outcome.verdict.unparsed.map((u) => u.callId)).toEqual(['sample1']);
  });
});

describe('FastChat pairwise', () => {
  it('system prompt + pair-v2 in both orders; agreement wins, disagreement is a tie', () => {
    const agree: Script = (req) => (firstShown(req) === 'ALPHA' ? 'A is better. [[A]]' : 'B is better. [[B]]');
    const r1 = driveByWaves(method, start(configOf('fastchat-pair'), pair), agree);
    expect(r1.waves.map((w) => w.map((r) => r.id))).toEqual([['ab/sample0', 'ba/sample0']]);
    const req = r1.waves[0]?.[0];
    expect(req?.messages[0]).toEqual({ role: 'system', content: FASTCHAT_PAIR_V2_SYSTEM });
    expect(req).toMatchObject({ maxTokens: 2048, temperature: 0, parser: { type: 'fastchat-verdict' } });
    if (r1.outcome.status !== 'succeeded') throw new Error('failed');
    expect(r1.outcome.verdict).toMatchObject({ winner: 'A', positionFlip: false, confidence: 1 });

    const firstWins: Script = () => '[[A]]';
    const r2 = driveByWaves(method, start(configOf('fastchat-pair'), pair), firstWins, { roundTrip: true });
    if (r2.outcome.status !== 'succeeded') throw new Error('failed');
    expect(r2.outcome.verdict).toMatchObject({ winner: 'tie', positionFlip: true, confidence: 0.5 });
    expect(r2.outcome.verdict.votes.map((v) => [v.order, v.winner])).toEqual([
      ['AB', 'A'],
      ['BA', 'B'],
    ]);
  });

  it('uses pair-math-v1 with the reference when the task has one', () => {
    const { waves } = driveByWaves(
      method,
      start(configOf('fastchat-pair'), { ...pair, reference: 'REF 42' }),
      () => '[[C]]',
    );
    const req = waves[0]?.[0];
    expect(req?.messages[0]?.content).toBe(FASTCHAT_PAIR_MATH_SYSTEM);
    expect(promptText(req as LlmCallRequest)).toContain('[The Start of Reference Answer]\nREF 42');
  });

  it('k samples: majority verdict, vote margin; unparsed samples excluded; all unparsed is a tie at 0', () => {
    const cfg = configOf('fastchat-pair', { samples: 5, parseRetries: 0, calibration: { enabled: false } });
    const replies = ['[[A]]', '[[B]]', '[[A]]', 'no verdict', '[[A]]'];
    const { waves, outcome } = driveByWaves(method, start(cfg, pair), (req) => replies[Number(req.id.slice(-1))] ?? '');
    expect(waves).toHaveLength(1);
    expect(waves[0]).toHaveLength(5);
    if (outcome.status !== 'succeeded') throw new Error('failed');
    expect(outcome.verdict).toMatchObject({ winner: 'A', confidence: 0.5 });
    expect(outcome.verdict.unparsed.map((u) => u.callId)).toEqual(['sample3']);

    const split = driveByWaves(
      method,
      start(configOf('fastchat-pair', { samples: 2, calibration: { enabled: false } }), pair),
      (req) => (req.id === 'sample0' ? '[[A]]' : '[[B]]'),
    );
    if (split.outcome.status !== 'succeeded') throw new Error('failed');
    expect(split.outcome.verdict).toMatchObject({ winner: 'tie', confidence: 0 });

    const none = driveByWaves(method, start(configOf('fastchat-pair', { parseRetries: 1 }), pair), () => 'hmm');
    if (none.outcome.status !== 'succeeded') throw new Error('failed');
    expect(none.outcome.verdict).toMatchObject({ winner: 'tie', confidence: 0, calls: 4 });
    expect(none.outcome.verdict.unparsed.map((u) => u.callId)).toEqual(['ab/sample0', 'ba/sample0']);
  });
});

describe("FastChat's judge choice (gen_judgment.py, common.py run_judge_pair)", () => {
  /** FastChat's own templates from the shipped judge_prompts.jsonl, filled as Python's str.format fills them. */
  const jsonl = readFileSync(new URL('../../datasets/mt_bench/judge_prompts.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { name: string; system_prompt: string; prompt_template: string });
  const fastchat = (name: string, vars: Record<string, string>) => {
    const p = jsonl.find((x) => x.name === name);
    if (!p) throw new Error(name);
    return { system: p.system_prompt, user: p.prompt_template.replace(/\{(\w+)\}/g, (_m, k: string) => vars[k] ?? '') };
  };
  const turn1 = { question: 'Q1', answerA: 'A1', answerB: 'B1', reference: 'R1' };
  const turn2 = { question: 'Q2', answerA: 'A2', answerB: 'B2', reference: 'R2' };

  it('NEED_REF_CATS get the reference-guided judge; turn 2 the multi-turn judges', () => {
    expect(FASTCHAT_NEED_REF_CATS).toEqual(['math', 'reasoning', 'coding', 'arena-hard-200']);
    const table = ['writing', 'math', 'reasoning', 'coding', 'stem'].map((c) => [
      c,
      fastChatJudgeFor(c, 1),
      fastChatJudgeFor(c, 2),
    ]);
    expect(table).toEqual([
      ['writing', 'pair-v2', 'pair-v2-multi-turn'],
      ['math', 'pair-math-v1', 'pair-math-v1-multi-turn'],
      ['reasoning', 'pair-math-v1', 'pair-math-v1-multi-turn'],
      ['coding', 'pair-math-v1', 'pair-math-v1-multi-turn'],
      ['stem', 'pair-v2', 'pair-v2-multi-turn'],
    ]);
  });

  it('both turns known: the multi-turn templates, exactly as FastChat formats them', () => {
    const vars = {
      question_1: 'Q1',
      question_2: 'Q2',
      answer_a_1: 'A1',
      answer_b_1: 'B1',
      answer_a_2: 'A2',
      answer_b_2: 'B2',
      ref_answer_1: 'R1',
      ref_answer_2: 'R2',
    };
    const math = fastChatPairPrompt('math', [turn1, turn2]);
    expect(math.judge).toBe('pair-math-v1-multi-turn');
    expect({ system: math.system, user: math.user }).toEqual(fastchat('pair-math-v1-multi-turn', vars));
    expect(math.user).toContain('### Reference answer:\nR2');
    const writing = fastChatPairPrompt('writing', [turn1, turn2]);
    expect(writing.judge).toBe('pair-v2-multi-turn');
    expect({ system: writing.system, user: writing.user }).toEqual(fastchat('pair-v2-multi-turn', vars));
    expect(writing.user).not.toContain('R1');
  });

  it('one turn: the single-turn judges, which are what the fastchat-pair preset sends', () => {
    for (const [category, name] of [
      ['math', 'pair-math-v1'],
      ['writing', 'pair-v2'],
    ] as const) {
      const vars = { question: 'Q1', answer_a: 'A1', answer_b: 'B1', ref_answer_1: 'R1' };
      const prompt = fastChatPairPrompt(category, [turn1]);
      expect({ system: prompt.system, user: prompt.user }).toEqual(fastchat(name, vars));
      const task: JudgedPairwiseTask = {
        kind: 'pairwise',
        question: 'Q1',
        answerA: 'A1',
        answerB: 'B1',
        ...(name === 'pair-math-v1' ? { reference: 'R1' } : {}),
      };
      const { waves } = driveByWaves(method, start(configOf('fastchat-pair'), task), () => '[[C]]');
      expect(waves[0]?.[0]?.messages).toEqual([
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ]);
    }
  });
});

describe('G-Eval', () => {
  it("SummEval: G-Eval's own prompt file as the system message, 20 samples at temperature 2, unreadable counts 0", () => {
    const replies = (req: LlmCallRequest) =>
      req.id === 'sample7' ? 'The summary is coherent.' : req.id === 'sample3' ? ' 3.5' : '4';
    const { waves, outcome } = driveByWaves(method, start(configOf('geval-summeval'), summary), replies);
    expect(waves).toHaveLength(1);
    expect(waves[0]).toHaveLength(20);
    const req = waves[0]?.[0] as LlmCallRequest;
    expect(req).toMatchObject({ temperature: 2, maxTokens: 5, parser: { type: 'geval-score' } });
    expect(req.messages).toEqual([
      {
        role: 'system',
        content: (GEVAL_SUMMEVAL_PROMPTS.coherence ?? '')
          .replace('{{Document}}', 'The article.')
          .replace('{{Summary}}', 'The summary.'),
      },
    ]);
    if (outcome.status !== 'succeeded') throw new Error('failed');
    // (18 × 4 + 3.5 + 0) / 20, as parse_output and the mean of meta_eval do.
    expect(outcome.verdict.score).toBeCloseTo(75.5 / 20);
    expect(outcome.verdict.unparsed.map((u) => u.callId)).toEqual(['sample7']);
  });

  it('SummEval aspects without a G-Eval file use the assembled form; fluency has no document', () => {
    const wit: JudgedPointwiseTask = {
      ...summary,
      aspect: { name: 'wit', description: 'is it witty', scale: { min: 1, max: 5 } },
    };
    const { waves } = driveByWaves(method, start(configOf('geval-summeval', { samples: 1 }), wit), () => '3');
    expect(promptText(waves[0]?.[0] as LlmCallRequest)).toContain('Wit (1-5) - is it witty');
    expect(GEVAL_SUMMEVAL_PROMPTS.fluency).not.toContain('{{Document}}');
  });

  it('Topical-Chat (our form with G-Eval settings): the fact and the 0-1 scale; samples average', () => {
    const task: JudgedPointwiseTask = {
      kind: 'pointwise',
      source: 'A: hi\nB: hello',
      context: 'FACT: cats sleep 16h',
      output: 'Did you know cats sleep 16 hours?',
      aspect: { name: 'groundedness', scale: { min: 0, max: 1 } },
    };
    const cfg = configOf('geval-topical-chat', { samples: 2 });
    const { waves, outcome } = driveByWaves(method, start(cfg, task), (req) =>
      req.id === 'sample0' ? '1' : '- Groundedness: 0',
    );
    const text = promptText(waves[0]?.[0] as LlmCallRequest);
    expect(text).toContain('Corresponding Fact:\n\nFACT: cats sleep 16h');
    expect(text).toContain('Groundedness (0-1) - given the fact');
    if (outcome.status !== 'succeeded') throw new Error('failed');
    // "- Groundedness: 0" does not start with a number: 0 by G-Eval's rule; (1 + 0) / 2.
    expect(outcome.verdict).toMatchObject({ score: 0.5, confidence: 0 });
  });

  it('a scale-checking parser re-asks out-of-scale replies; an all-unparsed verdict has no score', () => {
    const cfg = configOf('geval-summeval', {
      parser: { type: 'leading-number', min: 1, max: 5 },
      unparsed: 'drop',
      samples: 1,
      parseRetries: 1,
    });
    const { outcome } = driveByWaves(method, start(cfg, summary), () => '7');
    if (outcome.status !== 'succeeded') throw new Error('failed');
    expect(outcome.verdict.score).toBeUndefined();
    expect(outcome.verdict).toMatchObject({ confidence: 0, calls: 2 });
    expect(outcome.verdict.unparsed[0]?.reason).toBe('score 7 is outside the scale 1-5');
  });
});

describe('Bandi et al. baseline', () => {
  it("the code's prompt and read: the first (s1, s2) tuple, decimals allowed", () => {
    const reply = 'Relevance: [18, 15]\nAccuracy: [17, 16]\nFinal Scores: (95, 87.5)\nExplanation...\nFinal: (80, 83)';
    const { waves, outcome } = driveByWaves(method, start(configOf('bandi-baseline'), pair), () => reply);
    const req = waves[0]?.[0] as LlmCallRequest;
    expect(req.messages).toEqual([
      {
        role: 'user',
        content: BANDI_BASELINE_TEMPLATE.replace('{{question}}', 'Q?')
          .replace('{{answer_a}}', 'ALPHA answer')
          .replace('{{answer_b}}', 'BETA answer'),
      },
    ]);
    expect(req).toMatchObject({ temperature: 0, parser: { type: 'bandi-tuple', rule: 'first-decimal' } });
    if (outcome.status !== 'succeeded') throw new Error('failed');
    expect(outcome.verdict).toMatchObject({ winner: 'A', scores: { a: 95, b: 87.5 } });
    // Appendix E.3's text is the paper option.
    expect(BANDI_BASELINE_PAPER_TEMPLATE).toContain('Don’t overthink!');
  });
});

describe('protocol properties', () => {
  it('roundTrip gives the same outcome; plannedCalls counts samples per order', () => {
    const cfg = configOf('faireval-mec-bpc');
    const script: Script = (req) => scoreLines(firstShown(req) === 'ALPHA' ? 7 : 5, 6);
    const a = driveByWaves(method, start(cfg, pair), script);
    const b = driveByWaves(method, start(cfg, pair), script, { roundTrip: true });
    expect(b.outcome).toEqual(a.outcome);
    expect(singleAgentMethod.plannedCalls(cfg, pair)).toBe(3);
  });

  it('step is deterministic and reduce ignores unknown or repeated ids', () => {
    const cfg = configOf('chateval-single', { samples: 2 });
    const s0 = singleAgentMethod.init(cfg, pair);
    expect(singleAgentMethod.step(cfg, pair, s0)).toEqual(singleAgentMethod.step(cfg, pair, s0));
    const s1 = singleAgentMethod.reduce(cfg, pair, s0, {
      callId: 'sample0',
      ok: true,
      value: { kind: 'pair-scores', a: 1, b: 2 },
      content: '',
    });
    expect(singleAgentMethod.reduce(cfg, pair, s1, { callId: 'sample0', ok: false, reason: 'x', content: '' })).toBe(
      s1,
    );
    expect(singleAgentMethod.reduce(cfg, pair, s1, { callId: 'judge9', ok: false, reason: 'x', content: '' })).toBe(s1);
    const step = singleAgentMethod.step(cfg, pair, s1);
    expect(step.kind === 'calls' ? step.calls.map((c) => c.id) : []).toEqual(['sample1']);
  });
});
