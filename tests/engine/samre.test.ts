import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { AnyMethod } from '../../src/engine/method.js';
import { BANDI_JUROR_BACKGROUNDS, FIERCE_ADVOCATE_PROMPT, JUDGE_ROUND_PROMPT, MAX_SCORE_GAP } from '../../src/engine/methods/bandi-prompts.js';
import { samreConfigSchema, samreMethod, samrePresets } from '../../src/engine/methods/samre.js';
import type { EngineState } from '../../src/engine/protocol.js';
import { createEvaluation, plannedCalls } from '../../src/engine/protocol.js';
import type { Task } from '../../src/engine/task.js';
import type { Script } from '../support/waves.js';
import { driveByWaves, promptText, verdictOf, waveIds } from '../support/waves.js';

const method = samreMethod as unknown as AnyMethod;

const task: Task = {
  kind: 'pairwise',
  question: 'Name a prime number greater than 10.',
  answerA: 'ANSWER-ONE: 11',
  answerB: 'ANSWER-TWO: 12',
};

function configOf(input: Record<string, unknown> = {}): EngineState['config'] {
  return samreConfigSchema.parse({ method: 'samre', ...input });
}

/** Round `r`'s judge replies `judge[r-1]` (repairs too); juror `i` replies `jurors[i]`; advocates echo their id. */
function script(judge: readonly string[], jurors: readonly string[] = []): Script {
  return (req: LlmCallRequest) => {
    const base = req.id.split('#')[0] ?? req.id;
    const round = /^(?:ab\/|ba\/)?round(\d+)\/judge$/.exec(base);
    if (round) return judge[Number(round[1]) - 1] ?? 'no tuple';
    const juror = /^(?:ab\/|ba\/)?juror\/(\d+)$/.exec(base);
    if (juror) return jurors[Number(juror[1])] ?? 'no vote';
    return `ARG<${base}>`;
  };
}

function run(config: EngineState['config'], s: Script, roundTrip = false) {
  return driveByWaves(method, createEvaluation(method, config, task), s, { roundTrip });
}

const FIVE_A = ['Vote: (1, 0)', 'Vote: (1, 0)', 'Vote: (1, 0)', 'Vote: (1, 0)', 'Vote: (1, 0)'];

describe('SAMRE config', () => {
  it('fills the paper defaults', () => {
    const c = samreConfigSchema.parse({ method: 'samre' });
    expect(c.maxRounds).toBe(4);
    expect(c.earlyStop).toBe(true);
    expect(c.jurorCount).toBe(5);
    expect(c.jurorBackgrounds).toEqual([...BANDI_JUROR_BACKGROUNDS]);
    expect(c.templates.advocate).toBe(FIERCE_ADVOCATE_PROMPT);
    expect(c.templates.judge).toBe(JUDGE_ROUND_PROMPT);
    expect(plannedCalls(method, createEvaluation(method, configOf(), task))).toBe(17);
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
      expect(bad.error?.issues[0]?.message).toContain("use combine 'agree-or-tie' or jurorCount 0");
    }
    const ok = (over: Record<string, unknown>) => samreConfigSchema.safeParse({ method: 'samre', ...over }).success;
    expect(ok({ calibration: { enabled: true, combine: 'agree-or-tie' } })).toBe(true);
    expect(ok({ jurorCount: 0, calibration: { enabled: true, combine: 'sum-scores' } })).toBe(true);
    // Without calibration the combine rule is never applied.
    expect(ok({ calibration: { enabled: false, combine: 'sum-scores' } })).toBe(true);
  });

  it('presets: with jurors and without', () => {
    const withJury = samrePresets.find((p) => p.id === 'samre-mtbench');
    const noJury = samrePresets.find((p) => p.id === 'samre-no-jury');
    // Alternating signs never stop early: the preset's round limit and jury size show in the waves.
    const alternating = script(['(90, 80)', '(70, 85)', '(88, 60)', '(60, 61)'], FIVE_A);
    const jury = run(configOf(withJury?.config), alternating).waves;
    expect(jury).toHaveLength(9);
    expect(jury.at(-1)).toHaveLength(5);
    expect(run(configOf(noJury?.config), alternating).waves).toHaveLength(8);
    expect(noJury?.paper).toContain('Table 1');
  });
});

describe('SAMRE rounds', () => {
  it('stops after round 2 when the score signs agree, then the jury votes in parallel', () => {
    const { waves, outcome } = run(configOf(), script(['(90, 80)', '(85, 70)'], FIVE_A));
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
      jurorTally: { a: 5, b: 0, abstained: 0 },
      decidedBy: 'jurors',
    });
  });

  it('runs all rounds when the signs alternate; without jurors the mean decides', () => {
    const { waves, outcome } = run(configOf({ jurorCount: 0 }), script(['(90, 80)', '(70, 85)', '(88, 60)', '(60, 61)']));
    expect(waves).toHaveLength(8);
    expect(waveIds(waves).at(-1)).toEqual(['round4/judge']);
    const v = verdictOf(outcome);
    expect(v.scores).toEqual({ a: 77, b: 71.5 });
    expect(v.winner).toBe('A');
    expect(v.confidence).toBeCloseTo(5.5 / MAX_SCORE_GAP, 10);
    expect(v.details).toMatchObject({ roundsRun: 4, earlyStop: false, stopReason: 'max-rounds', decidedBy: 'judge-mean' });
    expect(v.votes.map((x) => [x.label, x.winner])).toEqual([
      ['Judge (round 1)', 'A'],
      ['Judge (round 2)', 'B'],
      ['Judge (round 3)', 'A'],
      ['Judge (round 4)', 'B'],
    ]);
  });

  it('the mean of all rounds decides, not the last rounds', () => {
    // Rounds 2 and 3 both favour B (so the debate stops after 3), but round 1's large margin keeps A ahead.
    const v = verdictOf(run(configOf({ jurorCount: 0 }), script(['(100, 60)', '(50, 55)', '(40, 45)'])).outcome);
    expect(v.details).toMatchObject({ roundsRun: 3, stopReason: 'sign-agreement' });
    expect(v.scores?.a).toBeCloseTo(190 / 3, 10);
    expect(v.scores?.b).toBeCloseTo(160 / 3, 10);
    expect(v.winner).toBe('A');
  });

  it('a tied round never agrees, and earlyStop: false runs every round', () => {
    const tied = verdictOf(run(configOf({ jurorCount: 0 }), script(['(80, 80)', '(80, 80)', '(90, 70)', '(95, 70)'])).outcome);
    expect(tied.details).toMatchObject({ roundsRun: 4, stopReason: 'sign-agreement' });
    const noStop = run(configOf({ jurorCount: 0, earlyStop: false, maxRounds: 3 }), script(['(90, 80)', '(85, 70)', '(99, 1)']));
    expect(noStop.waves).toHaveLength(6);
    expect(verdictOf(noStop.outcome).details).toMatchObject({ roundsRun: 3, stopReason: 'max-rounds', earlyStop: false });
  });

  it('advocates see the previous judge reply and opponent argument; the judge sees previous scores', () => {
    const { waves } = run(configOf({ jurorCount: 0 }), script(['Feedback one. (90, 80)', '(70, 85)', '(60, 61)', '(70, 85)']));
    const [r1, , r2, j2] = waves;
    const r1a = r1?.[0] ? promptText(r1[0]) : '';
    expect(r1a).toContain('defending this answer: ANSWER-ONE: 11 to the question: Name a prime number greater than 10.');
    expect(r1a).toContain('Latest feedback: \nOpponent’s last argument: \n');
    const r2b = r2?.[1] ? promptText(r2[1]) : '';
    expect(r2b).toContain('defending this answer: ANSWER-TWO: 12');
    expect(r2b).toContain('Latest feedback: Feedback one. (90, 80)\nOpponent’s last argument: ARG<round1/advocate/a>\n');
    const judge2 = j2?.[0] ? promptText(j2[0]) : '';
    expect(judge2).toContain('Current round: 2\nMax rounds: 4\nPrevious scores: [(90, 80)]');
    expect(judge2).toContain('Defense for 1st answer: ARG<round2/advocate/a>\nDefense for 2nd answer: ARG<round2/advocate/b>');
  });

  it('routes per-role models with temperature 0', () => {
    const config = configOf({
      jurorCount: 1,
      advocates: { model: 'adv-model' },
      judge: { model: 'judge-model' },
      jurors: { model: 'juror-model', temperature: 0.5 },
    });
    const { waves } = run(config, script(['(90, 80)', '(85, 70)'], ['Vote: (0, 1)']));
    expect(waves[0]?.map((r) => [r.model, r.temperature])).toEqual([['adv-model', 0], ['adv-model', 0]]);
    expect(waves[1]?.[0]).toMatchObject({ model: 'judge-model', temperature: 0, maxTokens: 1024 });
    expect(waves[4]?.[0]).toMatchObject({ model: 'juror-model', temperature: 0.5, agent: 'juror0', label: 'A retired professor of ethics' });
  });
});

describe('SAMRE jurors', () => {
  it('majority decides against the judge mean, with the vote margin as confidence', () => {
    const { waves, outcome } = run(configOf(), script(['(90, 80)', '(85, 70)'], ['Vote: (0, 1)', 'Reasoning: clearer.\nVote: (1, 0)', '**Vote:** (0, 1)', '- Vote: [1, 0]', 'vote: (0, 1)']));
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
    expect(v.details).toMatchObject({ jurorTally: { a: 2, b: 3, abstained: 0 }, decidedBy: 'jurors' });
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
    const { waves, outcome } = run(configOf({ jurorCount: 6 }), script(['(60, 80)', '(70, 75)'], votes));
    expect(waves[4]?.[5]?.label).toBe('A retired professor of ethics');
    const v = verdictOf(outcome);
    expect(v.winner).toBe('B');
    expect(v.scores).toEqual({ a: 65, b: 77.5 });
    expect(v.confidence).toBeCloseTo(12.5 / MAX_SCORE_GAP, 10);
    expect(v.details).toMatchObject({ jurorTally: { a: 2, b: 2, abstained: 2 }, decidedBy: 'judge-mean-after-juror-tie' });
  });

  it('an unparsed juror abstains and is listed as unparsed', () => {
    const { outcome } = run(configOf({ jurorCount: 3 }), script(['(90, 80)', '(85, 70)'], ['Vote: (0, 1)', 'I abstain.', 'Vote: (0, 1)']));
    const v = verdictOf(outcome);
    expect(v.winner).toBe('B');
    expect(v.confidence).toBeCloseTo(2 / 3, 10);
    expect(v.unparsed.map((u) => u.callId)).toEqual(['juror/1']);
    expect(v.details).toMatchObject({ jurorTally: { a: 0, b: 2, abstained: 1 } });
  });
});

describe('SAMRE juror format echoes', () => {
  const ECHO = 'Reasoning: [Your brief explanation]\nVote: (1, 0) if you vote for Advocate1, or (0, 1) if you vote for Advocate2';

  it('a juror echoing the format line, then voting (1, 0), votes for A', () => {
    const reply = `${ECHO}\n\nReasoning: Advocate1 cited the definition of a prime.\nVote: (1, 0)`;
    const { waves, outcome } = run(configOf({ jurorCount: 1 }), script(['(60, 80)', '(70, 75)'], [reply]));
    // Read at once: no repair call.
    expect(waveIds(waves).at(-1)).toEqual(['juror/0']);
    const v = verdictOf(outcome);
    expect(v.winner).toBe('A');
    expect(v.details).toMatchObject({ jurorTally: { a: 1, b: 0, abstained: 0 }, decidedBy: 'jurors' });
  });

  it('a juror only echoing the format line is re-asked, and abstains if it never votes', () => {
    const { waves, outcome } = run(configOf({ jurorCount: 1 }), script(['(60, 80)', '(70, 75)'], [ECHO]));
    expect(waveIds(waves).slice(4)).toEqual([['juror/0'], ['juror/0#1'], ['juror/0#2'], ['juror/0#3']]);
    const repair = waves[5]?.[0];
    const text = repair ? promptText(repair) : '';
    expect(text).toContain('the final "Vote:" line holds (1, 0) and (0, 1), not a single choice');
    expect(text).toContain('a final line "Vote: (score_1, score_2)" with each score from 0 to 1');
    const v = verdictOf(outcome);
    // Never read as the echo's last tuple (0, 1): the juror abstains and the judge mean decides.
    expect(v.details).toMatchObject({
      jurorTally: { a: 0, b: 0, abstained: 1 },
      decidedBy: 'judge-mean-after-juror-tie',
      jurors: [{ juror: 0, vote: null, choice: null }],
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
    const { waves, outcome } = run(configOf({ jurorCount: 1 }), s);
    expect(waveIds(waves).slice(4)).toEqual([['juror/0'], ['juror/0#1']]);
    const v = verdictOf(outcome);
    expect(v.winner).toBe('A');
    expect(v.details).toMatchObject({ jurorTally: { a: 1, b: 0, abstained: 0 }, decidedBy: 'jurors' });
  });
});

describe('SAMRE unparsed judge', () => {
  it('skips an unparsed round in the mean and the previous scores, and it breaks sign agreement', () => {
    const { waves, outcome } = run(configOf({ jurorCount: 0 }), script(['(90, 80)', 'no tuple here', '(85, 70)', '(60, 70)']));
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
    const v = verdictOf(run(configOf({ jurorCount: 0, maxRounds: 2, parseRetries: 0 }), script(['?', '?'])).outcome);
    expect(v.winner).toBe('tie');
    expect(v.confidence).toBe(0);
    expect(v.scores).toBeUndefined();
    expect(v.details).toMatchObject({ roundsRun: 2, unparsedRounds: [1, 2], meanScores: null, decidedBy: 'none' });
  });
});

describe('SAMRE resumability', () => {
  it('gives the same waves and outcome with a JSON round trip after every result', () => {
    const s = script(['(90, 80)', 'bad', '(70, 85)', '(60, 50)'], ['Vote: (1, 0)', 'Vote: (0, 1)', 'Vote: (1, 0)', 'x', 'Vote: (1, 0)']);
    const plain = run(configOf(), s);
    const trip = run(configOf(), s, true);
    expect(waveIds(trip.waves)).toEqual(waveIds(plain.waves));
    expect(trip.outcome).toEqual(plain.outcome);
    const v = verdictOf(trip.outcome);
    expect(v.winner).toBe('A');
    expect(v.details).toMatchObject({ roundsRun: 4, unparsedRounds: [2], jurorTally: { a: 3, b: 1, abstained: 1 } });
  });

  it('calibrated runs keep both orders apart', () => {
    const config = configOf({ jurorCount: 0, calibration: { enabled: true, combine: 'mean-scores' } });
    const { waves, outcome } = run(config, script(['(90, 80)', '(85, 70)']));
    expect(waveIds(waves)[0]).toEqual(['ab/round1/advocate/a', 'ab/round1/advocate/b', 'ba/round1/advocate/a', 'ba/round1/advocate/b']);
    const v = verdictOf(outcome);
    // The scripted judge prefers whatever is shown first, so the orders disagree and the means even out.
    expect(v.scores).toEqual({ a: 81.25, b: 81.25 });
    expect(v.winner).toBe('tie');
    expect(v.positionFlip).toBe(true);
  });
});
