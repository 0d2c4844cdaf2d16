import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { AnyMethod } from '../../src/engine/method.js';
import { BANDI_JUROR_BACKGROUNDS, CODE_SAMRE_SUMMARIZER, MAX_SCORE_GAP } from '../../src/engine/methods/bandi/index.js';
import { samreConfigSchema, samreMethod, samrePresets } from '../../src/engine/methods/samre/index.js';
import type { EngineState } from '../../src/engine/state.js';
import { createEvaluation, plannedCalls } from '../../src/engine/protocol.js';
import type { Task } from '../../src/engine/task.js';
import type { Script } from '../support/waves.js';
import { driveByWaves, promptText, verdictOf, waveIds } from '../support/waves.js';

const method = samreMethod as unknown as AnyMethod;

/** The prompt of a call: its last (user) message, after the role's system message. */
function userText(request: LlmCallRequest | undefined): string {
  return request?.messages.at(-1)?.content ?? '';
}

const task: Task = {
  kind: 'pairwise',
  question: 'Name a prime number greater than 10.',
  answerA: 'ANSWER-ONE: 11',
  answerB: 'ANSWER-TWO: 12',
};

function configOf(input: Record<string, unknown> = {}): EngineState['config'] {
  return samreConfigSchema.parse({ method: 'samre', ...input });
}

/** Alg. 2 as the paper describes it: parallel advocates, early stop, 5 jurors (§3.2's text), lenient reads. */
const PAPER = { flow: 'paper', earlyStop: true, jurorCount: 5, unparsedRound: 'skip', jurorTie: 'judge-mean' } as const;

function paperOf(input: Record<string, unknown> = {}): EngineState['config'] {
  return configOf({ ...PAPER, ...input });
}

/** Round `r`'s judge replies `judge[r-1]` (repairs too); juror `i` replies `jurors[i]`; advocates echo their id. */
function script(judge: readonly string[], jurors: readonly string[] = []): Script {
  return (req: LlmCallRequest) => {
    const base = req.id.split('#')[0] ?? req.id;
    const round = /^(?:ab\/|ba\/)?round(\d+)\/judge$/.exec(base);
    if (round) return judge[Number(round[1]) - 1] ?? 'no tuple';
    const juror = /^(?:ab\/|ba\/)?juror\/(\d+)$/.exec(base);
    if (juror) return jurors[Number(juror[1])] ?? 'no vote';
    return base.includes('/summary/') ? `SUM<${base}>` : `ARG<${base}>`;
  };
}

function run(config: EngineState['config'], s: Script, roundTrip = false) {
  return driveByWaves(method, createEvaluation(method, config, task), s, { roundTrip });
}

const FIVE_A = ['Vote: (1, 0)', 'Vote: (1, 0)', 'Vote: (1, 0)', 'Vote: (1, 0)', 'Vote: (1, 0)'];

describe('SAMRE config', () => {
  it("fills the code's defaults (main.py): 4 rounds all run, 3 jurors, (0, 0) for an unreadable round", () => {
    const c = samreConfigSchema.parse({ method: 'samre' });
    expect(c).toMatchObject({
      flow: 'code',
      maxRounds: 4,
      earlyStop: false,
      jurorCount: 3,
      unparsedRound: 'zero',
      jurorTie: 'tie',
    });
    expect(c.jurorBackgrounds).toEqual([...BANDI_JUROR_BACKGROUNDS]);
    expect(c.templates.advocate).toBeUndefined();
    // Per round: advocate, summary, advocate, summary, judge.
    expect(plannedCalls(method, createEvaluation(method, configOf(), task))).toBe(4 * 5 + 3);
    expect(plannedCalls(method, createEvaluation(method, paperOf(), task))).toBe(4 * 3 + 5);
  });

  it('rejects unknown template placeholders and keys', () => {
    const bad = samreConfigSchema.safeParse({ method: 'samre', templates: { juror: '{{identity}} {{verdict}}' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('{{verdict}}');
    expect(samreConfigSchema.safeParse({ method: 'samre', juries: 3 }).success).toBe(false);
  });

  it('rejects a calibration combine that would override the jury, and only that', () => {
    for (const combine of ['sum-scores', 'mean-scores'] as const) {
      const bad = samreConfigSchema.safeParse({ method: 'samre', calibration: { enabled: true, combine } });
      expect(bad.success, combine).toBe(false);
      expect(bad.error?.issues[0]?.path).toEqual(['calibration', 'combine']);
    }
    const ok = (over: Record<string, unknown>) => samreConfigSchema.safeParse({ method: 'samre', ...over }).success;
    expect(ok({ calibration: { enabled: true, combine: 'agree-or-tie' } })).toBe(true);
    expect(ok({ jurorCount: 0, calibration: { enabled: true, combine: 'sum-scores' } })).toBe(true);
    expect(ok({ calibration: { enabled: false, combine: 'sum-scores' } })).toBe(true);
  });

  it('presets: the code run with jurors, without, and with early stop', () => {
    const cfg = (id: string) => configOf(samrePresets.find((p) => p.id === id)?.config);
    const alternating = script(
      ['(90, 80)', '(70, 85)', '(88, 60)', '(60, 61)'],
      ['Vote: (1, 0)', 'Vote: (1, 0)', 'Vote: (0, 1)'],
    );
    const jury = run(cfg('samre-mtbench'), alternating).waves;
    expect(jury).toHaveLength(4 * 5 + 1);
    expect(jury.at(-1)).toHaveLength(3);
    expect(run(cfg('samre-no-jury'), alternating).waves).toHaveLength(20);
    const agreeing = script(['(90, 80)', '(85, 70)'], ['Vote: (1, 0)', 'Vote: (1, 0)', 'Vote: (0, 1)']);
    expect(run(cfg('samre-early-stop'), agreeing).waves).toHaveLength(2 * 5 + 1);
  });
});

describe('SAMRE code flow', () => {
  it('one round: advocate 1, its summary, advocate 2 answering that summary, its summary, the judge on the summaries', () => {
    const { waves, outcome } = run(
      configOf(),
      script(
        ['Good. (90, 80)', '(85, 70)', '[70, 75]', 'no tuple'],
        ['Vote: (1, 0)', 'Reasoning: B.\nVote: (0, 1)', 'Vote: (1, 0)'],
      ),
    );
    expect(waveIds(waves).slice(0, 5)).toEqual([
      ['round1/advocate/a'],
      ['round1/summary/a'],
      ['round1/advocate/b'],
      ['round1/summary/b'],
      ['round1/judge'],
    ]);
    const [a1, s1, b1, j1, a2] = [0, 1, 2, 4, 5].map((w) => waves[w]?.[0]);
    // Every call is [system, user]: MetaGPT's prefix of the code's role (the summaries go through the
    // advocate's own role), then the prompt.
    const prefix = (name: string) => `You are a , named ${name}, your goal is . `;
    const firstAttempts = waves.flat().filter((r) => !r.id.includes('#'));
    expect(firstAttempts.map((r) => [r.messages.length, r.messages[0]?.role, r.messages[0]?.content])).toEqual([
      ...Array.from({ length: 4 }, () =>
        ['Advocate1', 'Advocate1', 'Advocate2', 'Advocate2', 'Judge'].map((n) => [2, 'system', prefix(n)]),
      ).flat(),
      ...['Jury1', 'Jury2', 'Jury3'].map((n) => [2, 'system', prefix(n)]),
    ]);
    expect(userText(a1)).toContain("Latest feedback: \n    Opponent's last argument: \n");
    expect(userText(s1)).toBe(CODE_SAMRE_SUMMARIZER.replace('{{content}}', 'ARG<round1/advocate/a>'));
    expect(userText(b1)).toContain("Opponent's last argument: SUM<round1/summary/a>\n");
    expect(userText(j1)).toContain(
      'Defense for 1st answer: SUM<round1/summary/a>\n    Defense for 2nd answer: SUM<round1/summary/b>',
    );
    expect(j1?.parser).toEqual({ type: 'bandi-tuple', rule: 'last-int' });
    // Round 2: the judge's whole reply plus the scores it was read as, and the opponent's last summary.
    expect(userText(a2)).toContain(
      "Latest feedback: Good. (90, 80)\n\nScores: (90, 80)\n    Opponent's last argument: SUM<round1/summary/b>\n",
    );
    const j4 = waves[19]?.[0] as LlmCallRequest;
    expect(promptText(j4)).toContain(
      'Current round: 4\n    Max rounds: 4\n    Previous scores: [(90, 80), (85, 70), (70, 75)]',
    );
    const v = verdictOf(outcome);
    // Round 4 unreadable: (0, 0), counted. Mean ((90+85+70+0)/4, (80+70+75+0)/4).
    expect(v.scores).toEqual({ a: 61.25, b: 56.25 });
    expect(v.details).toMatchObject({
      roundsRun: 4,
      stopReason: 'max-rounds',
      unparsedRounds: [4],
      jurorSums: { a: 2, b: 1 },
      decidedBy: 'jurors',
    });
    expect(v.winner).toBe('A');
    expect(v.confidence).toBeCloseTo(1 / 3);
    // 23 first calls and 3 re-asks of round 4's judge (the presets re-ask nothing: parseRetries 0).
    expect(v.calls).toBe(26);
  });

  it('jurors read the debate as Advocate1 / Advocate2 / Judge lines; an echoed format line votes (0, 1); equal sums tie', () => {
    const echo =
      'Reasoning: [Your brief explanation]\nVote: (1, 0) if you vote for Advocate1, or (0, 1) if you vote for Advocate2';
    const { waves, outcome } = run(
      configOf({ maxRounds: 1 }),
      script(['(90, 80)'], ['Vote: (1, 0)', echo, 'I cannot decide.']),
    );
    const juror = promptText(waves.at(-1)?.[0] as LlmCallRequest);
    expect(juror).toContain(
      'This is the debate:\n        Advocate1: SUM<round1/summary/a>\nAdvocate2: SUM<round1/summary/b>\nJudge: (90, 80)\n\nScores: (90, 80)\n',
    );
    const v = verdictOf(outcome);
    expect(v.details).toMatchObject({ jurorSums: { a: 1, b: 1 }, decidedBy: 'juror-tie' });
    expect(v.winner).toBe('tie');
    expect(v.unparsed.map((u) => u.callId)).toEqual(['juror/2']);
  });
});

describe('SAMRE paper flow (Alg. 2): rounds', () => {
  it('stops after round 2 when the score signs agree, then the jury votes in parallel', () => {
    const { waves, outcome } = run(paperOf(), script(['(90, 80)', '(85, 70)'], FIVE_A));
    expect(waveIds(waves)).toEqual([
      ['round1/advocate/a', 'round1/advocate/b'],
      ['round1/judge'],
      ['round2/advocate/a', 'round2/advocate/b'],
      ['round2/judge'],
      ['juror/0', 'juror/1', 'juror/2', 'juror/3', 'juror/4'],
    ]);
    const v = verdictOf(outcome);
    expect(v.winner).toBe('A');
    expect(v.scores).toEqual({ a: 87.5, b: 75 });
    expect(v.confidence).toBe(1);
    expect(v.calls).toBe(11);
    expect(v.details).toMatchObject({
      roundsRun: 2,
      earlyStop: true,
      stopReason: 'sign-agreement',
      rounds: [
        { round: 1, scores: { a: 90, b: 80 }, parsed: true },
        { round: 2, scores: { a: 85, b: 70 }, parsed: true },
      ],
      meanScores: { a: 87.5, b: 75 },
      unparsedRounds: [],
      jurorSums: { a: 5, b: 0 },
      decidedBy: 'jurors',
    });
  });

  it('runs all rounds when the signs alternate; without jurors the mean decides', () => {
    const { waves, outcome } = run(
      paperOf({ jurorCount: 0 }),
      script(['(90, 80)', '(70, 85)', '(88, 60)', '(60, 61)']),
    );
    expect(waves).toHaveLength(8);
    expect(waveIds(waves).at(-1)).toEqual(['round4/judge']);
    const v = verdictOf(outcome);
    expect(v.scores).toEqual({ a: 77, b: 71.5 });
    expect(v.winner).toBe('A');
    expect(v.confidence).toBeCloseTo(5.5 / MAX_SCORE_GAP, 10);
    expect(v.details).toMatchObject({
      roundsRun: 4,
      earlyStop: false,
      stopReason: 'max-rounds',
      decidedBy: 'judge-mean',
    });
    expect(v.votes.map((x) => [x.label, x.winner])).toEqual([
      ['Judge (round 1)', 'A'],
      ['Judge (round 2)', 'B'],
      ['Judge (round 3)', 'A'],
      ['Judge (round 4)', 'B'],
    ]);
  });

  it('the mean of all rounds decides, not the last rounds', () => {
    // Rounds 2 and 3 both favour B (so the debate stops after 3), but round 1's large margin keeps A ahead.
    const v = verdictOf(run(paperOf({ jurorCount: 0 }), script(['(100, 60)', '(50, 55)', '(40, 45)'])).outcome);
    expect(v.details).toMatchObject({ roundsRun: 3, stopReason: 'sign-agreement' });
    expect(v.scores?.a).toBeCloseTo(190 / 3, 10);
    expect(v.scores?.b).toBeCloseTo(160 / 3, 10);
    expect(v.winner).toBe('A');
  });

  it('a tied round never agrees, and earlyStop: false runs every round', () => {
    const tied = verdictOf(
      run(paperOf({ jurorCount: 0 }), script(['(80, 80)', '(80, 80)', '(90, 70)', '(95, 70)'])).outcome,
    );
    expect(tied.details).toMatchObject({ roundsRun: 4, stopReason: 'sign-agreement' });
    const noStop = run(
      paperOf({ jurorCount: 0, earlyStop: false, maxRounds: 3 }),
      script(['(90, 80)', '(85, 70)', '(99, 1)']),
    );
    expect(noStop.waves).toHaveLength(6);
    expect(verdictOf(noStop.outcome).details).toMatchObject({
      roundsRun: 3,
      stopReason: 'max-rounds',
      earlyStop: false,
    });
  });

  it('advocates see the previous judge reply and opponent argument; the judge sees previous scores', () => {
    const { waves } = run(
      paperOf({ jurorCount: 0 }),
      script(['Feedback one. (90, 80)', '(70, 85)', '(60, 61)', '(70, 85)']),
    );
    const [r1, , r2, j2] = waves;
    const r1a = r1?.[0] ? promptText(r1[0]) : '';
    expect(r1a).toContain(
      'defending this answer: ANSWER-ONE: 11 to the question: Name a prime number greater than 10.',
    );
    expect(r1a).toContain('Latest feedback: \nOpponent’s last argument: \n');
    const r2b = r2?.[1] ? promptText(r2[1]) : '';
    expect(r2b).toContain('defending this answer: ANSWER-TWO: 12');
    expect(r2b).toContain(
      'Latest feedback: Feedback one. (90, 80)\nOpponent’s last argument: ARG<round1/advocate/a>\n',
    );
    const judge2 = j2?.[0] ? promptText(j2[0]) : '';
    expect(judge2).toContain('Current round: 2\nMax rounds: 4\nPrevious scores: [(90, 80)]');
    expect(judge2).toContain(
      'Defense for 1st answer: ARG<round2/advocate/a>\nDefense for 2nd answer: ARG<round2/advocate/b>',
    );
  });

  it('routes per-role models with temperature 0', () => {
    const config = paperOf({
      jurorCount: 1,
      advocates: { model: 'adv-model' },
      judge: { model: 'judge-model' },
      jurors: { model: 'juror-model', temperature: 0.5 },
    });
    const { waves } = run(config, script(['(90, 80)', '(85, 70)'], ['Vote: (0, 1)']));
    expect(waves[0]?.map((r) => [r.model, r.temperature])).toEqual([
      ['adv-model', 0],
      ['adv-model', 0],
    ]);
    expect(waves[1]?.[0]).toMatchObject({ model: 'judge-model', temperature: 0, maxTokens: 4096 });
    // Alg. 2 / Appendix E.1 send the prompt alone: the role prefix is MetaGPT's, not the paper's.
    expect(waves.flat().every((r) => r.messages.length === 1)).toBe(true);
    expect(waves[4]?.[0]).toMatchObject({
      model: 'juror-model',
      temperature: 0.5,
      agent: 'juror0',
      label: 'A retired professor of ethics',
    });
  });
});

describe('SAMRE jurors', () => {
  it('majority decides against the judge mean, with the vote margin as confidence', () => {
    const { waves, outcome } = run(
      paperOf(),
      script(
        ['(90, 80)', '(85, 70)'],
        ['Vote: (0, 1)', 'Reasoning: clearer.\nVote: (1, 0)', '**Vote:** (0, 1)', '- Vote: [1, 0]', 'vote: (0, 1)'],
      ),
    );
    const juror2 = waves[4]?.[2];
    const text = juror2 ? promptText(juror2) : '';
    expect(text).toContain('identity of A middle-aged business owner');
    expect(text).toContain(
      'Advocate1: ARG<round1/advocate/a>\nAdvocate2: ARG<round1/advocate/b>\nJudge: (90, 80)\nAdvocate1: ARG<round2/advocate/a>\nAdvocate2: ARG<round2/advocate/b>\nJudge: (85, 70)',
    );
    const v = verdictOf(outcome);
    expect(v.winner).toBe('B');
    expect(v.scores).toEqual({ a: 87.5, b: 75 });
    expect(v.confidence).toBeCloseTo(1 / 5, 10);
    expect(v.details).toMatchObject({ jurorSums: { a: 2, b: 3 }, decidedBy: 'jurors' });
    expect(v.votes.filter((x) => x.agent.startsWith('juror')).map((x) => [x.label, x.winner])).toEqual([
      ['A retired professor of ethics', 'B'],
      ['A young environmental activist', 'A'],
      ['A middle-aged business owner', 'B'],
      ['A social worker specializing in community development', 'A'],
      ['A technology entrepreneur with a background in AI', 'B'],
    ]);
  });

  it('a juror tie falls back to the judge mean; backgrounds cycle past five', () => {
    const votes = ['Vote: (1, 0)', 'Vote: (0, 1)', 'Vote: (1, 0)', 'Vote: (0, 1)', 'Vote: (1, 1)', 'Vote: (0, 0)'];
    const { waves, outcome } = run(paperOf({ jurorCount: 6 }), script(['(60, 80)', '(70, 75)'], votes));
    expect(waves[4]?.[5]?.label).toBe('A retired professor of ethics');
    const v = verdictOf(outcome);
    expect(v.winner).toBe('B');
    expect(v.scores).toEqual({ a: 65, b: 77.5 });
    expect(v.confidence).toBeCloseTo(12.5 / MAX_SCORE_GAP, 10);
    expect(v.details).toMatchObject({ jurorSums: { a: 3, b: 3 }, decidedBy: 'judge-mean-after-juror-tie' });
  });

  it('an unparsed juror abstains and is listed as unparsed', () => {
    const { outcome } = run(
      paperOf({ jurorCount: 3 }),
      script(['(90, 80)', '(85, 70)'], ['Vote: (0, 1)', 'I abstain.', 'Vote: (0, 1)']),
    );
    const v = verdictOf(outcome);
    expect(v.winner).toBe('B');
    expect(v.confidence).toBeCloseTo(2 / 3, 10);
    expect(v.unparsed.map((u) => u.callId)).toEqual(['juror/1']);
    expect(v.details).toMatchObject({ jurorSums: { a: 0, b: 2 } });
  });
});

describe('SAMRE juror format echoes', () => {
  const ECHO =
    'Reasoning: [Your brief explanation]\nVote: (1, 0) if you vote for Advocate1, or (0, 1) if you vote for Advocate2';

  it('a juror echoing the format line, then voting (1, 0), votes for A', () => {
    const reply = `${ECHO}\n\nReasoning: Advocate1 cited the definition of a prime.\nVote: (1, 0)`;
    const { waves, outcome } = run(paperOf({ jurorCount: 1 }), script(['(60, 80)', '(70, 75)'], [reply]));
    // Read at once: no repair call.
    expect(waveIds(waves).at(-1)).toEqual(['juror/0']);
    const v = verdictOf(outcome);
    expect(v.winner).toBe('A');
    expect(v.details).toMatchObject({ jurorSums: { a: 1, b: 0 }, decidedBy: 'jurors' });
  });

  it('a juror only echoing the format line is re-asked, and abstains if it never votes', () => {
    const { waves, outcome } = run(paperOf({ jurorCount: 1 }), script(['(60, 80)', '(70, 75)'], [ECHO]));
    expect(waveIds(waves).slice(4)).toEqual([['juror/0'], ['juror/0#1'], ['juror/0#2'], ['juror/0#3']]);
    const repair = waves[5]?.[0];
    const text = repair ? promptText(repair) : '';
    expect(text).toContain('the final "Vote:" line holds (1, 0) and (0, 1), not a single choice');
    expect(text).toContain('a final line "Vote: (score_1, score_2)" with each score from 0 to 1');
    const v = verdictOf(outcome);
    // Never read as the echo's last tuple (0, 1): the juror abstains and the judge mean decides.
    expect(v.details).toMatchObject({
      jurorSums: { a: 0, b: 0 },
      decidedBy: 'judge-mean-after-juror-tie',
      jurors: [{ juror: 0, vote: null }],
    });
    expect(v.unparsed.map((u) => u.callId)).toEqual(['juror/0']);
    expect(v.winner).toBe('B');
  });

  it('a juror that echoes first and votes on the repair is counted', () => {
    const s: Script = (req) => {
      if (req.id === 'juror/0') return ECHO;
      if (req.id === 'juror/0#1') return 'Vote: (1, 0)';
      return script(['(60, 80)', '(70, 75)'])(req, 0);
    };
    const { waves, outcome } = run(paperOf({ jurorCount: 1 }), s);
    expect(waveIds(waves).slice(4)).toEqual([['juror/0'], ['juror/0#1']]);
    const v = verdictOf(outcome);
    expect(v.winner).toBe('A');
    expect(v.details).toMatchObject({ jurorSums: { a: 1, b: 0 }, decidedBy: 'jurors' });
  });
});

describe('SAMRE unparsed judge', () => {
  it('skips an unparsed round in the mean and the previous scores, and it breaks sign agreement', () => {
    const { waves, outcome } = run(
      paperOf({ jurorCount: 0 }),
      script(['(90, 80)', 'no tuple here', '(85, 70)', '(60, 70)']),
    );
    // Round 2's judge: first ask plus 3 repairs.
    expect(waveIds(waves).slice(2, 7)).toEqual([
      ['round2/advocate/a', 'round2/advocate/b'],
      ['round2/judge'],
      ['round2/judge#1'],
      ['round2/judge#2'],
      ['round2/judge#3'],
    ]);
    const judge3 = waves.find((w) => w[0]?.id === 'round3/judge')?.[0];
    expect(judge3 && promptText(judge3)).toContain('Previous scores: [(90, 80)]');
    const v = verdictOf(outcome);
    expect(v.details).toMatchObject({ roundsRun: 4, stopReason: 'max-rounds', unparsedRounds: [2] });
    expect(v.scores?.a).toBeCloseTo(235 / 3, 10);
    expect(v.scores?.b).toBeCloseTo(220 / 3, 10);
    expect(v.winner).toBe('A');
    expect(v.unparsed.map((u) => u.callId)).toEqual(['round2/judge']);
    expect(v.votes[1]).toEqual({ agent: 'judge', label: 'Judge (round 2)', parsed: false });
  });

  it('no readable round and no jury majority: a tie with confidence 0 and no scores', () => {
    const v = verdictOf(run(paperOf({ jurorCount: 0, maxRounds: 2, parseRetries: 0 }), script(['?', '?'])).outcome);
    expect(v.winner).toBe('tie');
    expect(v.confidence).toBe(0);
    expect(v.scores).toBeUndefined();
    expect(v.details).toMatchObject({ roundsRun: 2, unparsedRounds: [1, 2], meanScores: null, decidedBy: 'none' });
  });
});

describe('SAMRE resumability', () => {
  it('gives the same waves and outcome with a JSON round trip after every result', () => {
    const s = script(
      ['(90, 80)', 'bad', '(70, 85)', '(60, 50)'],
      ['Vote: (1, 0)', 'Vote: (0, 1)', 'Vote: (1, 0)', 'x', 'Vote: (1, 0)'],
    );
    const plain = run(paperOf(), s);
    const trip = run(paperOf(), s, true);
    expect(waveIds(trip.waves)).toEqual(waveIds(plain.waves));
    expect(trip.outcome).toEqual(plain.outcome);
    const v = verdictOf(trip.outcome);
    expect(v.winner).toBe('A');
    expect(v.details).toMatchObject({ roundsRun: 4, unparsedRounds: [2], jurorSums: { a: 3, b: 1 } });
  });

  it('calibrated runs keep both orders apart', () => {
    const config = paperOf({ jurorCount: 0, calibration: { enabled: true, combine: 'mean-scores' } });
    const { waves, outcome } = run(config, script(['(90, 80)', '(85, 70)']));
    expect(waveIds(waves)[0]).toEqual([
      'ab/round1/advocate/a',
      'ab/round1/advocate/b',
      'ba/round1/advocate/a',
      'ba/round1/advocate/b',
    ]);
    const v = verdictOf(outcome);
    // The scripted judge prefers whatever is shown first, so the orders disagree and the means even out.
    expect(v.scores).toEqual({ a: 81.25, b: 81.25 });
    expect(v.winner).toBe('tie');
    expect(v.positionFlip).toBe(true);
  });
});
