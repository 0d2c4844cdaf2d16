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
import type { EngineState } from '../../src/engine/protocol.js';
import { EngineInputError, createEvaluation } from '../../src/engine/protocol.js';
import type { PointwiseTask, Task } from '../../src/engine/task.js';
import type { Script } from '../support/waves.js';
import { driveByWaves, promptText, verdictOf, waveIds } from '../support/waves.js';

const method = debateMethod as unknown as AnyMethod;

const TASK: PointwiseTask = {
  kind: 'pointwise',
  source: 'Paul Merson had a go at Andros Townsend after his appearance for Tottenham.',
  output: "paul merson was brought on with only seven minutes remaining in his team 's 0-0 draw.",
  aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
};

/** The paper's reading (Alg. 1, B.1): most tests below follow it; `code` tests pass `promptSource: 'code'`. */
const PAPER = { promptSource: 'paper', criticSees: 'latest-reply' } as const;

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
      promptSource: 'paper',
      iterations: 2,
      stoppedByNoIssue: false,
      tieBreakerUsed: false,
      scoreHistory: [4, 2, 3],
      finalFrom: 'scorer',
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

  it('plans 1 + 2n calls, plus one with the tie-breaker', () => {
    expect(debateMethod.plannedCalls(debateConfigSchema.parse({ method: 'debate' }), TASK)).toBe(5);
    expect(
      debateMethod.plannedCalls(
        debateConfigSchema.parse({ method: 'debate', maxIterations: 4, useTieBreaker: true }),
        TASK,
      ),
    ).toBe(10);
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
    const task: PointwiseTask = {
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
    const task: PointwiseTask = {
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
      expect(p.taskKind).toBe('pointwise');
    }
    expect(debateConfigSchema.parse(debatePresets[2]?.config).useTieBreaker).toBe(true);
    expect(debateConfigSchema.parse(debatePresets[5]?.config).criticPersona).toBe('plain');
  });
});

describe("DEBATE as debate.py runs it (promptSource 'code')", () => {
  const code = { promptSource: 'code', criticSees: 'first-reply' };

  it('the Scorer gets P alone; every Critic message shows P and the first reply; the last reply is read', () => {
    const replies = {
      score0: 'Coherence: 4 - fine.',
      score1: 'I now give it 2 out of 5.',
      score2: 'After review, 35 is wrong; I say 3.',
    };
    const { waves, outcome } = run(debateScript(replies), code);
    expect(waveIds(waves).flat()).toEqual(['score0', 'critic1', 'score1', 'critic2', 'score2']);
    const [s0, c1, s1, c2] = [waves[0]?.[0], waves[1]?.[0], waves[2]?.[0], waves[3]?.[0]];
    const p = (GEVAL_SUMMEVAL_PROMPTS.coherence ?? '')
      .replace('{{Document}}', TASK.source)
      .replace('{{Summary}}', TASK.output);
    expect(s0?.messages).toEqual([
      { role: 'system', content: SCORER_SYSTEM },
      { role: 'user', content: p },
    ]);
    expect(s0?.parser).toEqual({ type: 'debate-score', from: 'first' });
    const forward = DEBATE_CODE_TEMPLATES.critic.replace('{{prompt}}', p).replace('{{response}}', replies.score0);
    expect(msg(c1, 1)).toBe(forward);
    expect(c1?.parser).toEqual({ type: 'critique', noIssue: 'code' });
    expect(msg(s1, 3)).toBe(DEBATE_CODE_TEMPLATES.revise.replace('{{feedback}}', 'The score is too high (critic1).'));
    // The second critique is shown the first reply again, as `_oai_messages[score_agent][1]`.
    expect(c2?.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(msg(c2, 3)).toBe(forward);
    const v = verdictOf(outcome);
    // evalute_score.py: the first digit of the first integer of the last reply ("35" → 3).
    expect(v.score).toBe(3);
    expect(v.details).toMatchObject({ promptSource: 'code', scoreHistory: [4, 2, 3], finalFrom: 'scorer' });
  });

  it('fluency reads the last digit of the last integer', () => {
    const task: PointwiseTask = { ...TASK, aspect: { name: 'fluency', scale: { min: 1, max: 3 } } };
    const state = start({ ...code, maxIterations: 1 }, task);
    const { waves, outcome } = driveByWaves(method, state, (r) =>
      r.agent === 'critic' ? 'NO_ISSUE' : 'Fluency: 2 (on 1-3)',
    );
    expect(waves[0]?.[0]?.parser).toEqual({ type: 'debate-score', from: 'last' });
    // Integers 2, 1, 3: the last digit of the last one.
    expect(verdictOf(outcome).score).toBe(3);
  });

  it("stops only on the substring NO_ISSUE ('NO ISSUE' does not count); a last reply without a number has no score", () => {
    const spaced = run(debateScript(DISAGREE, 'critic1', 'NO ISSUE'), code);
    expect(waveIds(spaced.waves).flat()).toHaveLength(5);
    const plural = run(debateScript(DISAGREE, 'critic1', 'NO_ISSUES found.'), code);
    expect(waveIds(plural.waves).flat()).toEqual(['score0', 'critic1']);
    const none = run(debateScript({ ...DISAGREE, score2: 'I cannot decide.' }), { ...code, parseRetries: 0 });
    const v = verdictOf(none.outcome);
    expect(v.score).toBeUndefined();
    expect(v.confidence).toBe(0);
    expect(v.details).toMatchObject({ scoreHistory: [4, 2, null], finalFrom: 'none' });
  });
});
