import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { AnyMethod } from '../../src/engine/method.js';
import { moreConfigSchema, moreMethod, morePresets } from '../../src/engine/methods/more/index.js';
import { CODE_MORE_DEFEND, GROUP_ADVOCATE_PROMPT, MAX_SCORE_GAP } from '../../src/engine/methods/bandi/index.js';
import type { EngineState } from '../../src/engine/state.js';
import { createEvaluation, plannedCalls } from '../../src/engine/protocol.js';
import { EngineInputError } from '../../src/engine/errors.js';
import type { Task } from '../../src/engine/task.js';
import type { Script } from '../support/waves.js';
import { driveByWaves, promptText } from '../support/waves.js';

const method = moreMethod as unknown as AnyMethod;

/** The prompt of a call: its last (user) message, after the role's system message. */
function userText(request: LlmCallRequest | undefined): string {
  return request?.messages.at(-1)?.content ?? '';
}

const task: Task = {
  kind: 'pairwise',
  question: 'What is the boiling point of water at sea level?',
  answerA: 'ANSWER-ONE: 100 °C.',
  answerB: 'ANSWER-TWO: 90 °C.',
};

function configOf(input: Record<string, unknown> = {}): EngineState['config'] {
  return moreConfigSchema.parse({ method: 'more', ...input });
}

/** Advocates and aggregators echo their id; the judge answers with `judge`. */
function scriptWith(judge: (req: LlmCallRequest) => string): Script {
  return (req) => {
    if (req.agent === 'judge') return judge(req);
    return `TEXT<${req.id}>`;
  };
}

const JUDGE_REPLY =
  'Relevance: [18, 15]\nAccuracy: [19, 12]\nFeedback for Advocate 1: good.\nFeedback for Advocate 2: weak.\nFinal tally: (95, 87)';

function run(config: EngineState['config'], script: Script, roundTrip = false) {
  return driveByWaves(method, createEvaluation(method, config, task), script, { roundTrip });
}

describe('MORE config', () => {
  it("fills the code's defaults", () => {
    const c = moreConfigSchema.parse({ method: 'more' });
    expect(c).toMatchObject({ advocatesPerSide: 3, groupOrder: 'sequential', promptSource: 'code', parseRetries: 3 });
    expect(c.calibration).toEqual({ enabled: false, combine: 'agree-or-tie' });
    // Unset templates follow `promptSource`.
    expect(c.templates.advocate).toBeUndefined();
  });

  it('rejects unknown keys and unknown template placeholders', () => {
    expect(moreConfigSchema.safeParse({ method: 'more', rounds: 2 }).success).toBe(false);
    const bad = moreConfigSchema.safeParse({ method: 'more', templates: { judge: 'Score {{defense1}} vs {{nope}}' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('{{nope}}');
    const ok = moreConfigSchema.parse({ method: 'more', templates: { judge: 'Score {{defense1}} vs {{defense2}}' } });
    expect(ok.templates.judge).toBe('Score {{defense1}} vs {{defense2}}');
    expect(ok.templates.aggregate).toBeUndefined();
  });

  it('presets validate and name the paper section', () => {
    const preset = morePresets.find((p) => p.id === 'more-mtbench');
    expect(preset?.paper).toContain('§3.1');
    const { waves } = run(
      configOf(preset?.config),
      scriptWith(() => JUDGE_REPLY),
    );
    // Group 1's advocates first, then its aggregator, then group 2.
    expect(waves.map((w) => w.length)).toEqual([3, 1, 3, 1, 1]);
  });

  it('refuses pointwise tasks', () => {
    const pointwise: Task = {
      kind: 'pointwise',
      source: 's',
      output: 'o',
      aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
    };
    expect(() => createEvaluation(method, configOf(), pointwise)).toThrow(EngineInputError);
  });
});

describe('MORE protocol', () => {
  it("code order: group 1's advocates, its aggregator, group 2's advocates, theirs, the scorer; the tuple decides", () => {
    const { waves, outcome } = run(
      configOf(),
      scriptWith(() => JUDGE_REPLY),
    );
    expect(waves.map((w) => w.map((r) => r.id))).toEqual([
      ['advocate/a/0', 'advocate/a/1', 'advocate/a/2'],
      ['aggregate/a'],
      ['advocate/b/0', 'advocate/b/1', 'advocate/b/2'],
      ['aggregate/b'],
      ['judge'],
    ]);
    expect(outcome.status).toBe('succeeded');
    if (outcome.status !== 'succeeded') return;
    const v = outcome.verdict;
    expect(v.winner).toBe('A');
    expect(v.scores).toEqual({ a: 95, b: 87 });
    expect(v.confidence).toBeCloseTo(8 / MAX_SCORE_GAP, 10);
    expect(v.calls).toBe(9);
    expect(v.unparsed).toEqual([]);
    expect(v.votes).toEqual([{ agent: 'judge', label: 'Judge', parsed: true, winner: 'A', scores: { a: 95, b: 87 } }]);
    expect(v.details).toEqual({
      advocatesPerSide: 3,
      groupOrder: 'sequential',
      judgeScores: { a: 95, b: 87 },
      judgeParsed: true,
    });
  });

  it("renders the code's prompts: group 2 sees group 1's aggregate, team arguments as a Python list", () => {
    const { waves } = run(
      configOf(),
      scriptWith(() => JUDGE_REPLY),
    );
    const [advA, aggA, advB, aggB, judges] = waves;
    // Every call is [system, user]: MetaGPT's role prefix of the code's role name, then the prompt.
    const systems = waves.flat().map((r) => [r.messages.length, r.messages[0]?.role, r.messages[0]?.content]);
    expect(systems).toEqual([
      ...[1, 2, 3].map((i) => [2, 'system', `You are a , named AdvocateGroup1_Advocate${i}, your goal is . `]),
      [2, 'system', 'You are a , named AdvocateGroup1_Aggregator, your goal is . '],
      ...[1, 2, 3].map((i) => [2, 'system', `You are a , named AdvocateGroup2_Advocate${i}, your goal is . `]),
      [2, 'system', 'You are a , named AdvocateGroup2_Aggregator, your goal is . '],
      [2, 'system', 'You are a , named Scorer, your goal is . '],
    ]);
    expect(aggB).toHaveLength(1);
    const a0 = userText(advA?.[0]);
    expect(a0).toBe(
      CODE_MORE_DEFEND.replace('{{advocate_id}}', '1')
        .replace('{{answer}}', 'ANSWER-ONE: 100 °C.')
        .replace('{{question}}', 'What is the boiling point of water at sea level?')
        .replace('{{opponent_answer}}', 'ANSWER-TWO: 90 °C.')
        .replace('{{feedback}}', '')
        .replace('{{opponent_argument}}', '')
        .replace('{{team_arguments}}', "['', '', '']"),
    );
    const b1 = userText(advB?.[1]);
    expect(b1).toContain('(Advocate 2) in a group defending this answer: ANSWER-TWO: 90 °C. to the question');
    expect(b1).toContain("Opponent's last argument: TEXT<aggregate/a>\n");
    const agg = userText(aggA?.[0]);
    expect(agg).toContain(
      'Individual defenses:\n    TEXT<advocate/a/0>\nTEXT<advocate/a/1>\nTEXT<advocate/a/2>\n\n    Latest feedback from the judge: \n',
    );
    const judge = judges?.[0] as LlmCallRequest;
    const text = userText(judge);
    expect(text).toContain('Defense for 1st answer: TEXT<aggregate/a>\n    Defense for 2nd answer: TEXT<aggregate/b>');
    expect(text).toContain('Total rounds: 1\n    Previous scores: []');
    expect(judge.messages).toHaveLength(2);
    expect(judge.parser).toEqual({ type: 'bandi-tuple', rule: 'first-int' });
  });

  it("groupOrder 'parallel' and promptSource 'paper' (Alg. 1, Appendix E): both groups at once, last tuple read", () => {
    const { waves } = run(
      configOf({ groupOrder: 'parallel', promptSource: 'paper' }),
      scriptWith(() => JUDGE_REPLY),
    );
    expect(waves.map((w) => w.length)).toEqual([6, 2, 1]);
    // Appendix E's reading sends the prompt alone: the role prefix is MetaGPT's, not the paper's.
    expect(waves.flat().every((r) => r.messages.length === 1 && r.messages[0]?.role === 'user')).toBe(true);
    expect(promptText(waves[0]?.[0] as LlmCallRequest)).toBe(
      GROUP_ADVOCATE_PROMPT.replace('{{advocate_id}}', '1')
        .replace('{{answer}}', 'ANSWER-ONE: 100 °C.')
        .replace('{{question}}', 'What is the boiling point of water at sea level?')
        .replace('{{opponent_answer}}', 'ANSWER-TWO: 90 °C.')
        .replace(/\{\{(feedback|opponent_argument|team_arguments)\}\}/g, ''),
    );
    expect(waves[2]?.[0]?.parser).toEqual({ type: 'score-tuple', min: 1, max: 120 });
  });

  it('reads the first round-bracket tuple as the code does, and equal totals are a tie', () => {
    const b = run(
      configOf(),
      scriptWith(() => 'Relevance: [20, 1]\n(60, 90) so far... Final score tuple: (80, 70)'),
    ).outcome;
    expect(b.status === 'succeeded' && b.verdict.winner).toBe('B');
    expect(b.status === 'succeeded' && b.verdict.scores).toEqual({ a: 60, b: 90 });
    const tie = run(
      configOf(),
      scriptWith(() => 'Final: (70, 70)'),
    ).outcome;
    expect(tie.status === 'succeeded' && tie.verdict.winner).toBe('tie');
    expect(tie.status === 'succeeded' && tie.verdict.confidence).toBe(0);
  });

  it('an unreadable judge gives a zero-confidence tie, never a made-up score', () => {
    const { waves, outcome } = run(
      configOf(),
      scriptWith(() => 'Both advocates argued well.'),
    );
    // The judge is re-asked parseRetries (3) times: four judge waves after the four earlier ones.
    expect(waves.map((w) => w.map((r) => r.id)).slice(4)).toEqual([['judge'], ['judge#1'], ['judge#2'], ['judge#3']]);
    expect(outcome.status).toBe('succeeded');
    if (outcome.status !== 'succeeded') return;
    expect(outcome.verdict.winner).toBe('tie');
    expect(outcome.verdict.confidence).toBe(0);
    expect(outcome.verdict.scores).toBeUndefined();
    expect(outcome.verdict.unparsed.map((u) => u.callId)).toEqual(['judge']);
    expect(outcome.verdict.votes).toEqual([{ agent: 'judge', label: 'Judge', parsed: false }]);
    expect(outcome.verdict.details).toMatchObject({ judgeParsed: false, judgeScores: null });
  });

  it('a repaired judge reply counts', () => {
    const { outcome } = run(
      configOf(),
      scriptWith((req) => (req.id === 'judge' ? 'no tuple' : 'Fixed: (60, 75)')),
    );
    expect(outcome.status === 'succeeded' && outcome.verdict.scores).toEqual({ a: 60, b: 75 });
    expect(outcome.status === 'succeeded' && outcome.verdict.unparsed).toEqual([]);
  });

  it('gives the same outcome with a JSON round trip after every result', () => {
    const plain = run(
      configOf(),
      scriptWith(() => JUDGE_REPLY),
    );
    const trip = run(
      configOf(),
      scriptWith(() => JUDGE_REPLY),
      true,
    );
    expect(trip.waves.map((w) => w.map((r) => r.id))).toEqual(plain.waves.map((w) => w.map((r) => r.id)));
    expect(trip.outcome).toEqual(plain.outcome);
  });

  it('routes per-role models and keeps temperature 0', () => {
    const config = configOf({
      advocatesPerSide: 2,
      defaults: { model: 'base-model' },
      advocates: { model: 'advocate-model' },
      judge: { model: 'judge-model', provider: 'judge-provider' },
    });
    expect(plannedCalls(method, createEvaluation(method, config, task))).toBe(7);
    const { waves } = run(
      config,
      scriptWith(() => JUDGE_REPLY),
    );
    expect(waves.map((w) => w.length)).toEqual([2, 1, 2, 1, 1]);
    expect(waves[0]?.map((r) => [r.model, r.temperature, r.maxTokens])).toEqual(
      Array(2).fill(['advocate-model', 0, 4096]),
    );
    expect(waves[1]?.map((r) => r.model)).toEqual(['base-model']);
    expect(waves[4]?.[0]).toMatchObject({
      model: 'judge-model',
      provider: 'judge-provider',
      temperature: 0,
      maxTokens: 4096,
    });
  });

  it('with calibration runs both orders and maps the swapped scores back', () => {
    const config = configOf({ calibration: { enabled: true, combine: 'sum-scores' } });
    // The judge always prefers ANSWER-ONE, wherever it is shown.
    const judge = (req: LlmCallRequest) =>
      promptText(req).includes('Answer 1: "ANSWER-ONE') ? '(95, 87)' : '(87, 95)';
    expect(morePresets[0]?.config).toMatchObject({ parseRetries: 0 });
    const { waves, outcome } = run(config, scriptWith(judge));
    expect(waves.map((w) => w.length)).toEqual([6, 2, 6, 2, 2]);
    expect(waves[4]?.map((r) => r.id)).toEqual(['ab/judge', 'ba/judge']);
    expect(outcome.status).toBe('succeeded');
    if (outcome.status !== 'succeeded') return;
    expect(outcome.verdict.winner).toBe('A');
    expect(outcome.verdict.scores).toEqual({ a: 190, b: 174 });
    expect(outcome.verdict.positionFlip).toBe(false);
  });
});
