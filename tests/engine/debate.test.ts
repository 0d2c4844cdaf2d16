import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { AnyMethod } from '../../src/engine/method.js';
import {
  COMMANDER_MESSAGE,
  CRITIC_PERSONAS,
  DEBATE_CODE_TEMPLATES,
  DEBATE_TEMPLATES,
  SCORER_SYSTEM,
  TIE_BREAKER_SYSTEM,
  TIE_BREAKER_SYSTEM_DIALOGUE,
  TIE_BREAKER_SYSTEM_GENERIC,
  debateConfigSchema,
  debateMethod,
  debatePresets,
} from '../../src/engine/methods/debate/index.js';
import {
  ASPECT_DESCRIPTIONS,
  GEVAL_SUMMEVAL_PROMPTS,
  singleAgentConfigSchema,
  singleAgentMethod,
} from '../../src/engine/methods/single/index.js';
import type { EngineState } from '../../src/engine/state.js';
import { applyResult, createEvaluation, outcome, readyCalls } from '../../src/engine/protocol.js';
import { EngineInputError } from '../../src/engine/errors.js';
import type { JudgedPointwiseTask } from '../../src/engine/judged.js';
import type { Task } from '../../src/engine/task.js';
import { TEST_MS } from '../support/patience.js';
import type { Script } from '../support/waves.js';
import { driveByWaves, promptText, toResult, verdictOf, waveIds } from '../support/waves.js';

const method = debateMethod as unknown as AnyMethod;

const TASK: JudgedPointwiseTask = {
  kind: 'pointwise',
  source: 'Paul Merson had a go at Andros Townsend after his appearance for Tottenham.',
  output: "paul merson was brought on with only seven minutes remaining in his team 's 0-0 draw.",
  aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
};

/** The paper's reading (Alg. 1, B.1): most tests below follow it; `code` tests pass `promptSource: 'code'`. */
const PAPER = { flow: 'paper', promptSource: 'paper', criticSees: 'latest-reply' } as const;

function start(overrides: Record<string, unknown> = {}, task: Task = TASK): EngineState {
  const config = debateConfigSchema.parse({ method: 'debate', domain: 'summeval', ...PAPER, ...overrides });
  return createEvaluation(method, config, task);
}

function run(script: Script, overrides: Record<string, unknown> = {}, roundTrip = false) {
  return driveByWaves(method, start(overrides), script, { roundTrip });
}

/** The i-th message's text of a request. */
function msg(r: LlmCallRequest | undefined, i: number): string {
  const m = r?.messages[i];
  if (!m) throw new Error(`no message ${i}`);
  return m.content;
}

/** Scorer scores by id (a repair `x#1` gets `x`'s reply unless scripted); the Critic disagrees unless `agreeAt` names its call. */
function debateScript(scores: Record<string, string>, agreeAt?: string, agreement = 'NO_ISSUE'): Script {
  return (r) => {
    if (r.agent === 'critic') return r.id === agreeAt ? agreement : `The score is too high (${r.id}).`;
    const s = scores[r.id] ?? scores[r.id.split('#')[0] ?? ''];
    if (s === undefined) throw new Error(`unexpected call ${r.id}`);
    return s;
  };
}

const DISAGREE = {
  score0: 'Rationale A.\nScore: 4',
  score1: 'Rationale B.\nScore: 2',
  score2: 'Rationale C.\nScore: 3',
};

describe('DEBATE call order', () => {
  it('runs score0, critic1, score1, critic2, score2 one per wave when the Critic never agrees (n = 2)', () => {
    const { waves, outcome } = run(debateScript(DISAGREE));
    expect(waveIds(waves)).toEqual([['score0'], ['critic1'], ['score1'], ['critic2'], ['score2']]);
    expect(waves.flat().map((r) => r.agent)).toEqual(['scorer', 'critic', 'scorer', 'critic', 'scorer']);
    const v = verdictOf(outcome);
    expect(v.score).toBe(3);
    expect(v.votes).toEqual([{ agent: 'scorer', label: 'Scorer', score: 3, parsed: true }]);
    // Scores 4, 2, 3 on 1-5: spread 2 of 4.
    expect(v.confidence).toBe(0.5);
    expect(v.calls).toBe(5);
    expect(v.unparsed).toEqual([]);
    expect(v.details).toEqual({
      flow: 'paper',
      promptSource: 'paper',
      iterations: 2,
      stoppedByNoIssue: false,
      tieBreakerUsed: false,
      scoreHistory: [4, 2, 3],
      finalFrom: 'scorer',
      finalMessage: 'score2',
    });
  });

  it('runs n iterations for a larger n', () => {
    const scores = { ...DISAGREE, score3: 'Score: 5' };
    const { waves, outcome } = run(debateScript(scores), { maxIterations: 3 });
    expect(waveIds(waves).flat()).toEqual(['score0', 'critic1', 'score1', 'critic2', 'score2', 'critic3', 'score3']);
    expect(verdictOf(outcome).score).toBe(5);
    expect(verdictOf(outcome).details.iterations).toBe(3);
  });

  it.each(['NO_ISSUE', 'NO ISSUE.', 'NO_ISSUES', 'After review: NO ISSUE'])(
    'stops at the first critique on %j',
    (agreement) => {
      const { waves, outcome } = run(debateScript(DISAGREE, 'critic1', agreement));
      expect(waveIds(waves)).toEqual([['score0'], ['critic1']]);
      const v = verdictOf(outcome);
      expect(v.score).toBe(4);
      expect(v.confidence).toBe(1);
      expect(v.details).toMatchObject({
        iterations: 1,
        stoppedByNoIssue: true,
        tieBreakerUsed: false,
        scoreHistory: [4],
      });
    },
  );

  it('stops at the second critique and keeps the re-score it approved', () => {
    const { waves, outcome } = run(debateScript(DISAGREE, 'critic2'));
    expect(waveIds(waves).flat()).toEqual(['score0', 'critic1', 'score1', 'critic2']);
    const v = verdictOf(outcome);
    expect(v.score).toBe(2);
    expect(v.details).toMatchObject({ iterations: 2, stoppedByNoIssue: true, scoreHistory: [4, 2] });
  });

  it('plans 1 + 2n calls (paper flow), plus one with the tie-breaker', () => {
    const plan = (c: Record<string, unknown>) =>
      debateMethod.plannedCalls(debateConfigSchema.parse({ method: 'debate', flow: 'paper', ...c }), TASK);
    expect(plan({})).toBe(5);
    expect(plan({ maxIterations: 4, useTieBreaker: true })).toBe(10);
  });

  it('judges pointwise tasks only', () => {
    const pairwise: Task = { kind: 'pairwise', question: 'q', answerA: 'a', answerB: 'b' };
    expect(() => start({}, pairwise)).toThrow(EngineInputError);
  });
});

describe('DEBATE tie-breaker (Appendix C.3)', () => {
  const withTie = { ...DISAGREE, tiebreaker: 'The Critic is right.\nScore: 2' };

  it('decides the score from the whole debate log when the Critic never agrees', () => {
    const { waves, outcome } = run(debateScript(withTie), { useTieBreaker: true });
    expect(waveIds(waves).flat()).toEqual(['score0', 'critic1', 'score1', 'critic2', 'score2', 'tiebreaker']);
    const tie = waves[5]?.[0];
    expect(tie?.agent).toBe('tiebreaker');
    expect(msg(tie, 0)).toBe(TIE_BREAKER_SYSTEM);
    const log = msg(tie, 1);
    expect(log).toContain('Debate Log of Other Agents:');
    expect(log).toContain(
      'Scorer: Rationale A.\nScore: 4\n\nCritic: The score is too high (critic1).\n\nScorer: Rationale B.',
    );
    expect(log).toContain('Critic: The score is too high (critic2).\n\nScorer: Rationale C.\nScore: 3');
    expect(log).toContain('Paul Merson had a go');
    const v = verdictOf(outcome);
    expect(v.score).toBe(2);
    expect(v.votes).toEqual([
      { agent: 'scorer', label: 'Scorer', score: 3, parsed: true },
      { agent: 'tiebreaker', label: 'Tie-breaker', score: 2, parsed: true },
    ]);
    expect(v.confidence).toBe(0.5);
    expect(v.details).toMatchObject({
      stoppedByNoIssue: false,
      tieBreakerUsed: true,
      tieBreakerScore: 2,
      scoreHistory: [4, 2, 3],
      finalFrom: 'tiebreaker',
    });
  });

  it('does not run when the Critic says NO_ISSUE', () => {
    const { waves, outcome } = run(debateScript(withTie, 'critic2'), { useTieBreaker: true });
    expect(waveIds(waves).flat()).toEqual(['score0', 'critic1', 'score1', 'critic2']);
    expect(verdictOf(outcome).score).toBe(2);
    expect(verdictOf(outcome).details.tieBreakerUsed).toBe(false);
  });

  it('uses a generic wording for the generic domain, not the SummEval one', () => {
    const { waves } = run(debateScript(withTie), { useTieBreaker: true, domain: 'generic' });
    const system = msg(waves[5]?.[0], 0);
    expect(system).toBe(TIE_BREAKER_SYSTEM_GENERIC);
    expect(system).not.toMatch(/summary|news article/);
    expect(system).toContain('You will be given a source text. You will then be given one output produced from it.');
  });

  it("uses the dialogue wording for Topical-Chat and keeps the Scorer's score if it never parses", () => {
    const script = debateScript({ ...DISAGREE, tiebreaker: 'I side with the Scorer.' });
    const { waves, outcome } = run(script, { useTieBreaker: true, domain: 'topical-chat', parseRetries: 0 });
    expect(msg(waves[5]?.[0], 0)).toBe(TIE_BREAKER_SYSTEM_DIALOGUE);
    const v = verdictOf(outcome);
    expect(v.score).toBe(3);
    expect(v.votes[1]).toEqual({ agent: 'tiebreaker', label: 'Tie-breaker', parsed: false });
    expect(v.unparsed).toEqual([
      { callId: 'tiebreaker', agent: 'tiebreaker', stage: 'tie-break', reason: 'no "Score: <score>" line found' },
    ]);
    expect(v.details).toMatchObject({ tieBreakerUsed: true, tieBreakerScore: null, finalFrom: 'scorer' });
  });
});

describe('DEBATE prompts', () => {
  it("opens the Scorer's prompt with the Commander's message (E.1); SummEval's P is G-Eval's prompt file", () => {
    const { waves } = run(debateScript(DISAGREE, 'critic1'));
    const s0 = waves[0]?.[0];
    expect(s0?.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(msg(s0, 0)).toBe(SCORER_SYSTEM);
    const p = msg(s0, 1);
    expect(p.startsWith(`${COMMANDER_MESSAGE}\n\n`)).toBe(true);
    expect(p).toContain(
      (GEVAL_SUMMEVAL_PROMPTS.coherence ?? '').replace('{{Document}}', TASK.source).replace('{{Summary}}', TASK.output),
    );
    expect(p).toContain('end your reply with a final line "Score: <score>"');
    expect(s0?.parser).toEqual({ type: 'labelled-score', label: 'Score', min: 1, max: 5 });
    expect(s0?.temperature).toBe(0);
    expect(s0?.maxTokens).toBe(512);
  });

  it('assembles P after E.2 for aspects without a G-Eval file', () => {
    const task: JudgedPointwiseTask = {
      ...TASK,
      aspect: { name: 'conciseness', description: 'Is it short?', scale: { min: 1, max: 5 } },
    };
    const { waves } = driveByWaves(method, start({}, task), (r) => (r.agent === 'critic' ? 'NO_ISSUE' : 'Score: 2'));
    const p = msg(waves[0]?.[0], 1);
    expect(p).toContain(
      'You will be given one summary written for a news article. Your task is to rate the summary on one metric.',
    );
    expect(p).toContain('Conciseness (1-5) - Is it short?');
    expect(p).toContain(
      '3. Assign a score for conciseness on a scale of 1 to 5, where 1 is the lowest and 5 is the highest',
    );
    expect(p).toContain(`Source Text:\n\n${TASK.source}\n\nSummary:\n\n${TASK.output}`);
    expect(p).toContain('- Conciseness:');
  });

  it("uses the task's description and scale, and the context block for Topical-Chat", () => {
    const task: JudgedPointwiseTask = {
      kind: 'pointwise',
      source: 'A: do you like space?',
      context: 'The UN appointed an ambassador to extraterrestrials.',
      output: 'do you believe in aliens?',
      aspect: { name: 'engagingness', description: 'Is it interesting?', scale: { min: 1, max: 3 } },
    };
    const state = start({ domain: 'topical-chat' }, task);
    const { waves } = driveByWaves(method, state, (r) => (r.agent === 'critic' ? 'NO_ISSUE' : 'Score: 2'));
    const p = msg(waves[0]?.[0], 1);
    expect(p).toContain('Engagingness (1-3) - Is it interesting?');
    expect(p).toContain('Conversation History:\n\nA: do you like space?\n\nCorresponding Fact:\n\nThe UN appointed');
    expect(p).toContain('Response:\n\ndo you believe in aliens?');
    expect(waves[0]?.[0]?.parser).toEqual({ type: 'labelled-score', label: 'Score', min: 1, max: 3 });
  });

  it('describes known aspects exactly as the G-Eval baselines do (single.ts ASPECT_DESCRIPTIONS)', () => {
    const baseline = singleAgentMethod as unknown as AnyMethod;
    const cases = [
      {
        domain: 'topical-chat',
        preset: 'topical-chat',
        task: {
          kind: 'pointwise',
          source: 'A: hi',
          context: 'A fact.',
          output: 'Hello!',
          aspect: { name: 'groundedness', scale: { min: 0, max: 1 } },
        },
      },
    ] as const;
    for (const c of cases) {
      const known = ASPECT_DESCRIPTIONS[c.preset][c.task.aspect.name];
      const { waves } = driveByWaves(method, start({ domain: c.domain }, c.task), (r) =>
        r.agent === 'critic' ? 'NO_ISSUE' : 'Score: 1',
      );
      const p = msg(waves[0]?.[0], 1);
      const cfg = singleAgentConfigSchema.parse({
        method: 'single',
        template: '{{aspect}} ({{min}}-{{max}}) - {{aspect_description}}\n\n{{evaluation_steps}}',
        parser: { type: 'leading-number', min: 0, max: 5 },
        aspectSet: c.preset,
      });
      const g = driveByWaves(baseline, createEvaluation(baseline, cfg, c.task), () => '1');
      const geval = promptText(g.waves[0]?.[0] as LlmCallRequest);
      expect(known).toBeDefined();
      // Criteria line and steps, character for character.
      expect(p).toContain(`Evaluation Criteria:\n\n${geval.replace('\n\n', '\n\nEvaluation Steps:\n\n')}\n\nExample:`);
    }
  });

  it("forwards the Scorer's response and score to the Critic, and the feedback back to the Scorer", () => {
    const { waves } = run(debateScript(DISAGREE));
    const [c1, s1, c2, s2] = [waves[1]?.[0], waves[2]?.[0], waves[3]?.[0], waves[4]?.[0]];
    expect(msg(c1, 0)).toBe(CRITIC_PERSONAS.strict);
    expect(c1?.label).toBe('Critic (strict)');
    expect(c1?.parser).toEqual({ type: 'critique' });
    expect(msg(c1, 1)).toContain("The Scorer's response:\n\nRationale A.\nScore: 4");
    expect(msg(c1, 1)).toContain("The Scorer's coherence score: 4 (scale 1-5).");
    expect(msg(c1, 1)).toContain('Source Text:');
    expect(msg(c1, 1)).toContain('If you find no issue with it, reply NO_ISSUE.');

    expect(s1?.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(msg(s1, 2)).toBe('Rationale A.\nScore: 4');
    expect(msg(s1, 3)).toContain(
      'The Critic reviewed your coherence score of 4 and replied:\n\nThe score is too high (critic1).',
    );

    expect(c2?.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(msg(c2, 2)).toBe('The score is too high (critic1).');
    expect(msg(c2, 3)).toContain('Rationale B.\nScore: 2');
    expect(msg(c2, 3)).toContain("The Scorer's coherence score is now: 2 (previously 4; scale 1-5).");

    expect(s2?.messages).toHaveLength(6);
    expect(msg(s2, 5)).toContain('coherence score of 2 and replied:\n\nThe score is too high (critic2).');
  });

  it.each(['moderate', 'weak', 'plain'] as const)('selects the %s persona', (persona) => {
    const { waves } = run(debateScript(DISAGREE, 'critic1'), { criticPersona: persona });
    expect(msg(waves[1]?.[0], 0)).toBe(CRITIC_PERSONAS[persona]);
    expect(waves[1]?.[0]?.label).toBe(`Critic (${persona})`);
  });

  it('takes overrides for system messages and templates', () => {
    const { waves } = run(debateScript(DISAGREE, 'critic1'), {
      criticSystem: 'Be harsh.',
      scorerSystem: 'Score it.',
      templates: { critic: 'Score {{score}} of {{max}}. Say NO_ISSUE if fine.' },
    });
    expect(msg(waves[0]?.[0], 0)).toBe('Score it.');
    expect(msg(waves[1]?.[0], 0)).toBe('Be harsh.');
    expect(msg(waves[1]?.[0], 1)).toBe('Score 4 of 5. Say NO_ISSUE if fine.');
    expect(waves[1]?.[0]?.label).toBe('Critic (custom)');
  });

  it('routes per-agent model settings over the defaults', () => {
    const { waves } = run(debateScript({ ...DISAGREE, tiebreaker: 'Score: 1' }), {
      useTieBreaker: true,
      defaults: { model: 'base', maxTokens: 300 },
      scorer: { model: 'scorer-model' },
      critic: { temperature: 0.7, provider: 'p2' },
      tieBreaker: { model: 'tb', maxTokens: 900 },
    });
    const [s0, c1, tb] = [waves[0]?.[0], waves[1]?.[0], waves[5]?.[0]];
    expect([s0?.model, s0?.temperature, s0?.maxTokens]).toEqual(['scorer-model', 0, 300]);
    expect([c1?.model, c1?.provider, c1?.temperature]).toEqual(['base', 'p2', 0.7]);
    expect([tb?.model, tb?.maxTokens]).toEqual(['tb', 900]);
  });

  it("asks for NO_ISSUE in the Commander's forward, since the strict persona never mentions it", () => {
    // The §3 strict prompt never mentions NO_ISSUE; the Commander's forward template carries it.
    expect(CRITIC_PERSONAS.strict).not.toMatch(/NO_ISSUE/);
    for (const p of ['moderate', 'weak', 'plain'] as const) expect(CRITIC_PERSONAS[p]).toContain('NO_ISSUES');
    expect(DEBATE_TEMPLATES.critic).toContain('NO_ISSUE');
    expect(DEBATE_TEMPLATES.criticFollowUp).toContain('NO_ISSUE');
  });
});

describe('DEBATE unparsed Scorer replies', () => {
  it('keeps the previous parsed score as the result, forwards "no readable score", and lists the reply as unparsed', () => {
    const script = debateScript({ score0: 'Score: 4', score1: 'I would lower it somewhat.', score2: 'Still unsure.' });
    const { waves, outcome } = run(script, { parseRetries: 1 });
    // score1 and score2 are each asked once more with a repair instruction.
    expect(waveIds(waves).flat()).toEqual(['score0', 'critic1', 'score1', 'score1#1', 'critic2', 'score2', 'score2#1']);
    expect(promptText(waves[3]?.[0] as LlmCallRequest)).toContain('Your previous reply could not be read');
    // The Critic is told the current response has no readable score, not the previous one as if current.
    expect(msg(waves[4]?.[0], 3)).toContain(
      "The Scorer's coherence score is now: no readable score (previously 4; scale 1-5).",
    );
    // The Scorer's next forward names the same: the Critic reviewed no readable score.
    expect(msg(waves[5]?.[0], 5)).toContain(
      'The Critic reviewed your coherence score of no readable score and replied:',
    );
    const v = verdictOf(outcome);
    expect(v.score).toBe(4);
    expect(v.votes).toEqual([{ agent: 'scorer', label: 'Scorer', score: 4, parsed: false }]);
    expect(v.confidence).toBe(1);
    expect(v.unparsed.map((u) => u.callId)).toEqual(['score1', 'score2']);
    expect(v.details).toMatchObject({ scoreHistory: [4, null, null], finalFrom: 'scorer' });
  });

  it('gives no score and confidence 0 when no Scorer reply ever parses', () => {
    const script = debateScript({ score0: 'Looks fine.' }, 'critic1');
    const { waves, outcome } = run(script, { parseRetries: 0 });
    expect(msg(waves[1]?.[0], 1)).toContain("The Scorer's coherence score: no readable score (scale 1-5).");
    const v = verdictOf(outcome);
    expect(v.score).toBeUndefined();
    expect(v.confidence).toBe(0);
    expect(v.votes).toEqual([{ agent: 'scorer', label: 'Scorer', parsed: false }]);
    expect(v.unparsed).toEqual([
      { callId: 'score0', agent: 'scorer', stage: 'initial score', reason: 'no "Score: <score>" line found' },
    ]);
    expect(v.details).toMatchObject({ scoreHistory: [null], finalFrom: 'none', stoppedByNoIssue: true });
  });

  it('rejects an out-of-scale score as unparsed', () => {
    const { outcome } = run(debateScript({ score0: 'Score: 3', score1: 'Score: 9', score2: 'Score: 2' }), {
      parseRetries: 0,
    });
    const v = verdictOf(outcome);
    expect(v.score).toBe(2);
    expect(v.details.scoreHistory).toEqual([3, null, 2]);
    expect(v.unparsed.map((u) => u.callId)).toEqual(['score1']);
  });
});

describe('DEBATE resumability', () => {
  it.each([
    ['never agrees, tie-breaker', { useTieBreaker: true }, undefined],
    ['agrees at critic2', {}, 'critic2'],
  ] as const)('gives the same outcome with a JSON round trip after every result (%s)', (_name, overrides, agreeAt) => {
    const script = debateScript({ ...DISAGREE, score1: 'no score here', tiebreaker: 'Score: 1' }, agreeAt);
    const plain = run(script, { ...overrides, parseRetries: 1 });
    const trip = run(script, { ...overrides, parseRetries: 1 }, true);
    expect(waveIds(trip.waves)).toEqual(waveIds(plain.waves));
    expect(trip.waves).toEqual(plain.waves);
    expect(trip.outcome).toEqual(plain.outcome);
  });
});

describe('DEBATE config', () => {
  it('fills every default', () => {
    expect(debateConfigSchema.parse({ method: 'debate' })).toEqual({
      method: 'debate',
      parseRetries: 3,
      repair: 'instruct',
      flow: 'code',
      promptSource: 'code',
      criticSees: 'first-reply',
      defaults: {},
      calibration: { enabled: false, combine: 'agree-or-tie' },
      maxIterations: 2,
      domain: 'generic',
      criticPersona: 'strict',
      useTieBreaker: false,
      templates: {},
      scorer: {},
      commander: {},
      critic: {},
      tieBreaker: {},
    });
  });

  it('rejects unknown fields, unknown placeholders and a zero n', () => {
    expect(debateConfigSchema.safeParse({ method: 'debate', rounds: 3 }).success).toBe(false);
    expect(debateConfigSchema.safeParse({ method: 'debate', maxIterations: 0 }).success).toBe(false);
    const bad = debateConfigSchema.safeParse({
      method: 'debate',
      templates: { revise: 'Fix {{feedback}} {{answer}}' },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('{{answer}}');
    expect(bad.error?.issues[0]?.path).toEqual(['templates', 'revise']);
    expect(debateConfigSchema.safeParse({ method: 'debate', templates: { revise: 'Fix: {{feedback}}' } }).success).toBe(
      true,
    );
  });

  it('has presets that parse, with unique ids', () => {
    expect(debatePresets.map((p) => p.id)).toEqual([
      'debate-summeval',
      'debate-topical-chat',
      'debate-tie-breaker',
      'debate-summeval-moderate',
      'debate-summeval-weak',
      'debate-summeval-plain',
    ]);
    for (const p of debatePresets) {
      const c = debateConfigSchema.parse(p.config);
      expect(c.maxIterations).toBe(2);
      expect(c.promptSource).toBe(p.id === 'debate-tie-breaker' ? 'paper' : 'code');
      expect(c.flow).toBe(p.id === 'debate-tie-breaker' ? 'paper' : 'code');
      expect(p.taskKind).toBe('pointwise');
    }
    expect(debateConfigSchema.parse(debatePresets[2]?.config).useTieBreaker).toBe(true);
    expect(debateConfigSchema.parse(debatePresets[5]?.config).criticPersona).toBe('plain');
  });
});

describe('DEBATE as debate.py runs under autogen (flow and promptSource code, the Table 1 presets)', () => {
  const CODE = { flow: 'code', promptSource: 'code', criticSees: 'first-reply', parseRetries: 0 } as const;
  const P = (GEVAL_SUMMEVAL_PROMPTS.coherence ?? '')
    .replace('{{Document}}', TASK.source)
    .replace('{{Summary}}', TASK.output);
  const FORWARD = (shown: string) =>
    DEBATE_CODE_TEMPLATES.critic.replace('{{prompt}}', P).replace('{{response}}', shown);
  const FEEDBACK = (critique: string) => DEBATE_CODE_TEMPLATES.revise.replace('{{feedback}}', critique);

  /** Replies by call id; a critic not listed criticises with a number of its own in the text. */
  function codeScript(replies: Record<string, string>): Script {
    return (r) => {
      const reply = replies[r.id] ?? (r.agent === 'critic' ? `Too generous: 2 would be fairer (${r.id}).` : undefined);
      if (reply === undefined) throw new Error(`unexpected call ${r.id}`);
      return reply;
    };
  }
  const REPLIES = {
    score0: 'Coherence: 4 - well organised.',
    commander0: 'Let us check this step by step with the Critic.',
    score1: 'Having weighed the critique, I give 3.',
  };
  const runCode = (script: Script, overrides: Record<string, unknown> = {}) =>
    driveByWaves(method, start({ ...CODE, ...overrides }), script);

  it("a Critic that never says NO_ISSUE: exactly the code's 5 calls S1, C1, K1, S2, K2, and S2 is the score", () => {
    const { waves, outcome } = runCode(codeScript(REPLIES));
    expect(waveIds(waves)).toEqual([['score0'], ['commander0'], ['critic1'], ['score1'], ['critic2']]);
    const [s1, c1, k1, s2, k2] = waves.map((w) => w[0]);
    // S1: the Scorer gets P alone.
    expect(s1?.messages).toEqual([
      { role: 'system', content: SCORER_SYSTEM },
      { role: 'user', content: P },
    ]);
    expect(s1?.parser).toEqual({ type: 'debate-score', from: 'first' });
    // C1: the Commander is an LLM agent too; it answers S1 on its own conversation with the Scorer.
    expect(c1?.agent).toBe('commander');
    expect(c1?.messages).toEqual([
      { role: 'system', content: COMMANDER_MESSAGE },
      { role: 'assistant', content: P },
      { role: 'user', content: REPLIES.score0 },
    ]);
    // K1: P and the Scorer's first reply; nothing about NO_ISSUE.
    expect(k1?.messages).toEqual([
      { role: 'system', content: CRITIC_PERSONAS.strict },
      { role: 'user', content: FORWARD(REPLIES.score0) },
    ]);
    expect(k1?.parser).toEqual({ type: 'critique', noIssue: 'code' });
    // S2: C1 stays in the Scorer's history, before the feedback: [system, P, S1, C1, F1].
    expect(s2?.messages).toEqual([
      { role: 'system', content: SCORER_SYSTEM },
      { role: 'user', content: P },
      { role: 'assistant', content: REPLIES.score0 },
      { role: 'user', content: REPLIES.commander0 },
      { role: 'user', content: FEEDBACK('Too generous: 2 would be fairer (critic1).') },
    ]);
    // K2: the Critic's own conversation goes on, and it is shown the first reply again.
    expect(k2?.messages).toEqual([
      { role: 'system', content: CRITIC_PERSONAS.strict },
      { role: 'user', content: FORWARD(REPLIES.score0) },
      { role: 'assistant', content: 'Too generous: 2 would be fairer (critic1).' },
      { role: 'user', content: FORWARD(REPLIES.score0) },
    ]);
    // F2 gets no reply (the Scorer answered F1); the score is read from S2, [P, S1, C1, F1, S2, F2][-2].
    const v = verdictOf(outcome);
    expect(v.score).toBe(3);
    expect(v.calls).toBe(5);
    expect(v.details).toMatchObject({
      flow: 'code',
      iterations: 2,
      stoppedByNoIssue: false,
      scoreHistory: [4, 3],
      finalFrom: 'scorer',
      finalMessage: 'score1',
    });
  });

  it("NO_ISSUE in the second critique: the score is the first number in F1, the Critic's first feedback", () => {
    const script = codeScript({ ...REPLIES, critic1: 'Coherence deserves 5, not 4.', critic2: 'NO_ISSUE' });
    const { waves, outcome } = runCode(script);
    expect(waveIds(waves).flat()).toEqual(['score0', 'commander0', 'critic1', 'score1', 'critic2']);
    // [P, S1, C1, F1, S2][-2] is F1: "The Critic's feedback … Coherence deserves 5, not 4." reads 5, not S2's 3.
    const v = verdictOf(outcome);
    expect(v.score).toBe(5);
    expect(v.details).toMatchObject({
      stoppedByNoIssue: true,
      scoreHistory: [4, 3],
      finalFrom: 'feedback',
      finalMessage: 'feedback1',
    });
  });

  it('NO_ISSUE in the first critique: three calls, and the score is S1', () => {
    const { waves, outcome } = runCode(codeScript({ ...REPLIES, critic1: 'NO_ISSUES here.' }));
    expect(waveIds(waves).flat()).toEqual(['score0', 'commander0', 'critic1']);
    expect(verdictOf(outcome).score).toBe(4);
    expect(verdictOf(outcome).details).toMatchObject({ finalFrom: 'scorer', finalMessage: 'score0' });
  });

  it("stops only on the substring NO_ISSUE: 'NO ISSUE' is a critique like any other", () => {
    const { waves } = runCode(codeScript({ ...REPLIES, critic1: 'NO ISSUE' }));
    expect(waveIds(waves).flat()).toHaveLength(5);
  });

  it('n = 1 without NO_ISSUE: S2 answers F1, and [P, S1, C1, F1, S2][-2] is F1', () => {
    const { waves, outcome } = runCode(codeScript({ ...REPLIES, critic1: 'I would say 1.' }), { maxIterations: 1 });
    expect(waveIds(waves).flat()).toEqual(['score0', 'commander0', 'critic1', 'score1']);
    expect(verdictOf(outcome).score).toBe(1);
    expect(verdictOf(outcome).details).toMatchObject({ finalFrom: 'feedback', finalMessage: 'feedback1' });
  });

  it('n = 3: the Scorer and the Commander take turns again after F2 goes unanswered', () => {
    const replies = { ...REPLIES, score3: 'Now 2.', commander3: 'Noted.' };
    const { waves, outcome } = runCode(codeScript(replies), { maxIterations: 3 });
    expect(waveIds(waves).flat()).toEqual([
      'score0',
      'commander0',
      'critic1',
      'score1',
      'critic2',
      'critic3',
      'score3',
      'commander3',
    ]);
    // The Scorer's conversation [P, S1, C1, F1, S2, F2, F3, S3, C3]: S3 is the last-but-one.
    expect(waves[6]?.[0]?.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'user',
      'assistant',
      'user',
      'user',
    ]);
    expect(verdictOf(outcome).score).toBe(2);
    expect(debateMethod.plannedCalls(debateConfigSchema.parse({ method: 'debate', maxIterations: 3 }), TASK)).toBe(8);
  });

  it('a message ending with TERMINATE ends its exchange, as is_termination_msg does', () => {
    // K1 ends with TERMINATE, so F1 (which ends with K1) gets no reply; F2 does, and the Commander, whose
    // counter still holds C1, does not answer S3. [P, S1, C1, F1, F2, S3][-2] is F2: K2's number.
    const replies = { ...REPLIES, critic1: 'Far too high. TERMINATE', critic2: 'It is a 2.', score2: 'Fine, 2.' };
    const { waves, outcome } = runCode(codeScript(replies));
    expect(waveIds(waves).flat()).toEqual(['score0', 'commander0', 'critic1', 'critic2', 'score2']);
    expect(verdictOf(outcome).details).toMatchObject({ finalFrom: 'feedback', finalMessage: 'feedback2' });
    expect(verdictOf(outcome).score).toBe(2);
    // S1 ending with TERMINATE: every forward ends with S1, so the Critic never answers and the Scorer,
    // its counter still at 1, declines F1 and then F2 ... only S1 is made.
    const early = runCode(codeScript({ score0: 'Score 4. TERMINATE' }));
    expect(waveIds(early.waves).flat()).toEqual(['score0']);
  });

  // Every run up to n = 4, as a tree of replies walked depth first: each branch goes on from the state its prefix
  // left (the engine's states are values: applyResult returns a new one), where driving every branch from the
  // start anew replayed its whole prefix (about 1 s alone, past the project's 20 s at load 21).
  it(
    'plans the longest run: every reply read, no NO_ISSUE, no TERMINATE (checked against every other run for n ≤ 4)',
    () => {
      for (let n = 1; n <= 4; n++) {
        const config = debateConfigSchema.parse({ method: 'debate', ...CODE, maxIterations: n });
        const planned = debateMethod.plannedCalls(config, TASK);
        let longest = 0;
        let runs = 0;
        const optionsFor = (id: string) =>
          id.startsWith('critic')
            ? ['Too high.', 'Too high. TERMINATE', 'NO_ISSUE', 'NO_ISSUE TERMINATE']
            : ['Score 3.', 'Score 3. TERMINATE'];
        // As driveByWaves runs a protocol: each wave's ready calls answered in order, then the next wave's.
        const explore = (state: EngineState, calls: number): void => {
          if (outcome(method, state)) {
            runs += 1;
            longest = Math.max(longest, calls);
            return;
          }
          const ready = readyCalls(method, state, { supportsN: () => false });
          expect(ready.length, 'stuck: no ready calls and no outcome').toBeGreaterThan(0);
          const answer = (at: EngineState, i: number): void => {
            const request = ready[i];
            if (request === undefined) {
              explore(at, calls + ready.length);
              return;
            }
            for (const o of optionsFor(request.id)) answer(applyResult(method, at, toResult(request, o)), i + 1);
          };
          answer(state, 0);
        };
        explore(createEvaluation(method, config, TASK), 0);
        // Every branch ended: each critique and each re-score has a TERMINATE option, so there are several.
        expect(runs).toBeGreaterThan(n);
        expect([n, planned]).toEqual([n, longest]);
      }
      expect(debateMethod.plannedCalls(debateConfigSchema.parse({ method: 'debate' }), TASK)).toBe(5);
    },
    TEST_MS,
  );

  it('fluency reads the last digit of the last integer; "04" reads 4 (int() before the digit)', () => {
    const task: JudgedPointwiseTask = { ...TASK, aspect: { name: 'fluency', scale: { min: 1, max: 3 } } };
    const { waves, outcome } = driveByWaves(
      method,
      start({ ...CODE, maxIterations: 1 }, task),
      codeScript({ score0: 'Fluency: 2 (on 1-3)', commander0: 'Go on.', critic1: 'NO_ISSUE' }),
    );
    expect(waves[0]?.[0]?.parser).toEqual({ type: 'debate-score', from: 'last' });
    expect(verdictOf(outcome).score).toBe(3);
    const zero = runCode(codeScript({ ...REPLIES, score1: 'Score: 04' }));
    expect(verdictOf(zero.outcome).score).toBe(4);
  });

  it('a last-but-one message without a number gives no score', () => {
    const { outcome } = runCode(codeScript({ ...REPLIES, score1: 'I cannot decide.' }));
    const v = verdictOf(outcome);
    expect(v.score).toBeUndefined();
    expect(v.confidence).toBe(0);
    expect(v.details).toMatchObject({ scoreHistory: [4, null], finalFrom: 'none', finalMessage: 'score1' });
  });

  it('gives the same calls and verdict with a JSON round trip after every result', () => {
    const script = codeScript({ ...REPLIES, critic2: 'NO_ISSUE' });
    const plain = driveByWaves(method, start(CODE), script);
    const trip = driveByWaves(method, start(CODE), script, { roundTrip: true });
    expect(trip.waves).toEqual(plain.waves);
    expect(trip.outcome).toEqual(plain.outcome);
  });
});
