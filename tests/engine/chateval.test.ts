/**
 * ChatEval's protocol: who speaks when, what each agent sees, the summarizer's memory, and the verdict as the
 * authors' scoring script computes it (totals per order, totals summed over both orders, an unreadable final
 * reply makes the item a tie). Prompts are checked byte for byte in `prompts-verbatim.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { AnyMethod } from '../../src/engine/method.js';
import type { EngineState } from '../../src/engine/state.js';
import { createEvaluation, plannedCalls } from '../../src/engine/protocol.js';
import type { PairwiseTask, PointwiseTask } from '../../src/engine/task.js';
import {
  CHATEVAL_PAIRWISE_FINAL,
  chatEvalConfigSchema,
  chatEvalMethod,
  chatEvalPresets,
  CODE_ROLES,
  PAPER_ROLES,
  SAME_ROLE_PAPER,
  UNPARSED_TIE,
} from '../../src/engine/methods/chateval/index.js';
import type { Script } from '../support/waves.js';
import { driveByWaves, promptText, verdictOf, waveIds } from '../support/waves.js';

const method = chatEvalMethod as unknown as AnyMethod;

const pairwise: PairwiseTask = {
  kind: 'pairwise',
  question: 'How do I boil an egg?',
  answerA: 'ANSWER-X: put it in boiling water for 9 minutes.',
  answerB: 'ANSWER-Y: microwave it.',
};

const pointwise: PointwiseTask = {
  kind: 'pointwise',
  source: 'A: Do you like jazz?\nB: Yes, especially Miles Davis.',
  context: 'Miles Davis recorded Kind of Blue in 1959.',
  output: 'Did you know Kind of Blue came out in 1959?',
  aspect: { name: 'naturalness', scale: { min: 1, max: 3 } },
};

function config(over: Record<string, unknown> = {}): EngineState['config'] {
  return chatEvalConfigSchema.parse({ method: 'chateval', ...over });
}

function preset(id: string): Record<string, unknown> {
  const p = chatEvalPresets.find((x) => x.id === id);
  if (!p) throw new Error(`no preset ${id}`);
  return p.config;
}

/** A final reply in the configs' format. */
function scores(a: number | string, b: number | string): string {
  return `Evaluation evidence: fine.\nThe score of Assistant 1: ${a}\nThe score of Assistant 2: ${b}`;
}

const isFinal = (r: LlmCallRequest) => r.parser.type !== 'text' && r.agent !== 'summarizer';

/** Discussion replies `msg <id>`; final replies from `finals` by agent id. */
function scripted(finals: Record<string, string>): Script {
  return (r) => (isFinal(r) ? (finals[r.agent] ?? 'no scores here') : `msg ${r.id}`);
}

/** Each agent's (X, Y) scores wherever ANSWER-X and ANSWER-Y are shown. */
function prefers(by: Record<string, [number, number]>): Script {
  return (r) => {
    if (!isFinal(r)) return `msg ${r.id}`;
    const xFirst = promptText(r).indexOf('ANSWER-X') < promptText(r).indexOf('ANSWER-Y');
    const [x, y] = by[r.agent] ?? [5, 5];
    return xFirst ? scores(x, y) : scores(y, x);
  };
}

function run(cfg: EngineState['config'], task: PairwiseTask | PointwiseTask, script: Script, roundTrip = false) {
  return driveByWaves(method, createEvaluation(method, cfg, task), script, { roundTrip });
}

describe.each([false, true])('chateval strategies (roundTrip %s)', (roundTrip) => {
  it('one-by-one, 2 agents × 2 turns: 4 sequential calls, each seeing every earlier message as [Name]: text', () => {
    const { waves, outcome } = run(
      config(),
      pairwise,
      scripted({ agent0: scores(8, 5), agent1: scores(7, 6) }),
      roundTrip,
    );
    expect(waveIds(waves)).toEqual([['turn1/agent0'], ['turn1/agent1'], ['turn2/agent0'], ['turn2/agent1']]);
    const [[t1a0], [t1a1], [t2a0], [t2a1]] = waves as [
      [LlmCallRequest],
      [LlmCallRequest],
      [LlmCallRequest],
      [LlmCallRequest],
    ];
    expect(promptText(t1a0)).toContain('Here is your discuss history:\n\n\nYou are now General Public');
    expect(promptText(t1a1)).toContain(
      'Here is your discuss history:\n[General Public]: msg turn1/agent0\n\nYou are now Critic',
    );
    expect(promptText(t2a0)).toContain('[General Public]: msg turn1/agent0\n[Critic]: msg turn1/agent1\n\n');
    expect(promptText(t2a1)).toContain(`[General Public]: ${scores(8, 5)}`);
    // Only the last turn carries the final instruction and the script's reader.
    expect(t1a0.parser).toEqual({ type: 'text' });
    expect(promptText(t1a0).endsWith('short and clear, General Public !\n\n')).toBe(true);
    expect(t2a0.parser).toEqual({ type: 'chateval-scores', min: 1, max: 10, read: 'script' });
    expect(promptText(t2a0).endsWith(`short and clear, General Public !\n\n${CHATEVAL_PAIRWISE_FINAL}`)).toBe(true);
    expect(promptText(t1a0)).toContain(CODE_ROLES['General Public']);
    expect(t1a0).toMatchObject({
      agent: 'agent0',
      label: 'General Public',
      stage: 'turn 1',
      temperature: 0,
      maxTokens: 512,
    });
    const v = verdictOf(outcome);
    // The higher total wins (8 + 7 against 5 + 6); uncalibrated, the scores are the mean over agents.
    expect(v).toMatchObject({ winner: 'A', scores: { a: 7.5, b: 5.5 }, calls: 4, positionFlip: null });
    expect(v.confidence).toBeCloseTo(2 / 9);
    expect(v.details).toMatchObject({
      totalScores: { a: 15, b: 11 },
      meanScores: { a: 7.5, b: 5.5 },
      tally: { A: 2, B: 0, tie: 0 },
      aggregate: 'total',
    });
    expect(v.votes).toEqual([
      { agent: 'agent0', label: 'General Public', winner: 'A', scores: { a: 8, b: 5 }, parsed: true },
      { agent: 'agent1', label: 'Critic', winner: 'A', scores: { a: 7, b: 6 }, parsed: true },
    ]);
  });

  it('simultaneous-talk, 3 agents × 2 turns: 2 waves of 3, turn 2 sees all of turn 1', () => {
    const cfg = config({ strategy: 'simultaneous-talk', roleGroup: 'generic', agents: [{}, {}, {}] });
    const { waves, outcome, state } = run(
      cfg,
      pairwise,
      scripted({ agent0: scores(8, 5), agent1: scores(4, 6), agent2: scores(9, 2) }),
      roundTrip,
    );
    expect(waveIds(waves)).toEqual([
      ['turn1/agent0', 'turn1/agent1', 'turn1/agent2'],
      ['turn2/agent0', 'turn2/agent1', 'turn2/agent2'],
    ]);
    for (const r of waves[0] ?? []) expect(promptText(r)).not.toContain('msg turn1');
    for (const r of waves[1] ?? [])
      expect(promptText(r)).toContain(
        '[General Public]: msg turn1/agent0\n[Critic]: msg turn1/agent1\n[News Author]: msg turn1/agent2',
      );
    expect(plannedCalls(method, state)).toBe(6);
    const v = verdictOf(outcome);
    // Totals (21, 13): A, although one agent of three prefers B.
    expect(v).toMatchObject({ winner: 'A', scores: { a: 7, b: 13 / 3 }, details: { totalScores: { a: 21, b: 13 } } });
    expect(v.votes.map((x) => x.winner)).toEqual(['A', 'B', 'A']);
    expect(v.confidence).toBeCloseTo((7 - 13 / 3) / 9);
  });

  it("summarizer (code): before turn t > 1 each agent's memory is summarised and the summary joins that memory", () => {
    const cfg = config({
      strategy: 'simultaneous-talk-with-summarizer',
      turns: 3,
      roleGroup: 'generic',
      agents: [{}, {}, {}],
      summarizer: { model: 'sum-model' },
    });
    const script: Script = (r) =>
      r.agent === 'summarizer' ? `summary ${r.id}` : isFinal(r) ? scores(6, 6) : `msg ${r.id}`;
    const { waves, outcome, state } = run(cfg, pairwise, script, roundTrip);
    expect(waveIds(waves)).toEqual([
      ['turn1/agent0', 'turn1/agent1', 'turn1/agent2'],
      ['turn2/summary/agent0', 'turn2/summary/agent1', 'turn2/summary/agent2'],
      ['turn2/agent0', 'turn2/agent1', 'turn2/agent2'],
      ['turn3/summary/agent0', 'turn3/summary/agent1', 'turn3/summary/agent2'],
      ['turn3/agent0', 'turn3/agent1', 'turn3/agent2'],
    ]);
    expect(plannedCalls(method, state)).toBe(15);
    const [, sum2, speak2, sum3] = waves;
    const s20 = sum2?.[0] as LlmCallRequest;
    expect(s20).toMatchObject({
      agent: 'summarizer',
      label: 'Summarizer (General Public)',
      stage: 'turn 2 summary',
      model: 'sum-model',
    });
    // summary.py: "Current summary" empty at first; new lines are `[sender] : message` + newline each.
    expect(promptText(s20)).toContain(
      'Current summary:\n\n\nNew lines:\n[General Public] : msg turn1/agent0\n[Critic] : msg turn1/agent1\n[News Author] : msg turn1/agent2\n\n\nNew summary:\n',
    );
    // Turn 2: the raw turn 1 stays in memory and the agent's own summary follows it, sent by "Summarizer".
    const p21 = promptText(speak2?.[1] as LlmCallRequest);
    expect(p21).toContain('[News Author]: msg turn1/agent2\n[Summarizer]: summary turn2/summary/agent1\n\n');
    expect(p21).not.toContain('summary turn2/summary/agent0');
    // The next summary starts from the current one and sees the whole memory, its summary included.
    const s32 = promptText(sum3?.[2] as LlmCallRequest);
    expect(s32).toContain('Current summary:\nsummary turn2/summary/agent2\n');
    expect(s32).toContain('[Summarizer] : summary turn2/summary/agent2\n[General Public] : msg turn2/agent0\n');
    expect(verdictOf(outcome)).toMatchObject({ winner: 'tie', calls: 15 });
  });

  it("summarizer (summaryMode 'replace', arXiv text): the history is the latest summary only", () => {
    const cfg = config({
      strategy: 'simultaneous-talk-with-summarizer',
      summaryMode: 'replace',
      turns: 3,
      roleGroup: 'generic',
      agents: [{}, {}, {}],
    });
    const script: Script = (r) =>
      r.agent === 'summarizer' ? `summary ${r.id}` : isFinal(r) ? scores(6, 6) : `msg ${r.id}`;
    const { waves } = run(cfg, pairwise, script, roundTrip);
    const p31 = promptText(waves[4]?.[1] as LlmCallRequest);
    expect(p31).toContain('Here is your discuss history:\nsummary turn3/summary/agent1\n\n');
    expect(p31).not.toContain('msg turn');
    // The summary of turn 3 reads turn 2's messages on top of the previous summary.
    const s31 = promptText(waves[3]?.[1] as LlmCallRequest);
    expect(s31).toContain('Current summary:\nsummary turn2/summary/agent1\n');
    expect(s31).toContain('New lines:\n[General Public] : msg turn2/agent0\n');
    expect(s31).not.toContain('turn1/agent0');
  });
});

describe("chateval: the authors' updater drops an empty message and adds [Silence] when nobody spoke", () => {
  it('chateval-faireval: General Public\'s final reply fails three times, so it says "" and the Critic sees [Silence]', () => {
    const cfg = config({ ...preset('chateval-faireval'), calibration: { enabled: false, combine: 'sum-scores' } });
    // The General Public never writes the score lines; the Critic does.
    const { waves, outcome } = run(cfg, pairwise, scripted({ agent1: scores(7, 4) }));
    expect(waveIds(waves).flat()).toEqual([
      'turn1/agent0',
      'turn1/agent1',
      'turn2/agent0',
      'turn2/agent0#1',
      'turn2/agent0#2',
      'turn2/agent1',
    ]);
    // The three tries send the identical prompt (max_retry 3); then the agent's message is "".
    const tries = waves.slice(2, 5).map((w) => promptText(w[0] as LlmCallRequest));
    expect(new Set(tries).size).toBe(1);
    // The updater dropped its "" and, nobody having spoken in that step, added [Silence] (no sender).
    const critic = promptText(waves[5]?.[0] as LlmCallRequest);
    expect(critic).toContain(
      'Here is your discuss history:\n[General Public]: msg turn1/agent0\n[Critic]: msg turn1/agent1\n[Silence]\n\nYou are now Critic',
    );
    expect(critic).not.toMatch(/\[General Public\]: \n/);
    const v = verdictOf(outcome);
    expect(v.winner).toBe('tie');
  });

  it('one-by-one: an empty message is replaced by [Silence] for everyone after it', () => {
    const cfg = config({ turns: 2, parseRetries: 0, repair: 'resend' });
    const script: Script = (r) => (r.id === 'turn1/agent0' ? '' : isFinal(r) ? scores(6, 5) : `msg ${r.id}`);
    const { waves } = run(cfg, pairwise, script);
    const p = promptText(waves[1]?.[0] as LlmCallRequest);
    expect(p).toContain('Here is your discuss history:\n[Silence]\n\nYou are now Critic');
    expect(p).not.toContain('[General Public]:');
    const last = promptText(waves[3]?.[0] as LlmCallRequest);
    expect(last).toContain(
      'Here is your discuss history:\n[Silence]\n[Critic]: msg turn1/agent1\n[General Public]: Evaluation evidence: fine.',
    );
  });

  it('simultaneous talk: empty messages are dropped, and one [Silence] is added only when every agent was silent', () => {
    const three = { strategy: 'simultaneous-talk', turns: 3, roleGroup: 'generic', agents: [{}, {}, {}] };
    const script: Script = (r) => {
      if (isFinal(r)) return scores(6, 6);
      if (r.id.startsWith('turn1/')) return r.id === 'turn1/agent1' ? 'only me' : '';
      return '';
    };
    const { waves } = run(config(three), pairwise, script);
    const p3 = promptText(waves[2]?.[0] as LlmCallRequest);
    expect(p3).toContain('Here is your discuss history:\n[Critic]: only me\n[Silence]\n\n');
  });

  it('the summarizer sees [Silence] as the authors render it in new lines: "[] : [Silence]"', () => {
    const cfg = config({
      strategy: 'simultaneous-talk-with-summarizer',
      turns: 2,
      roleGroup: 'generic',
      agents: [{}, {}],
    });
    const script: Script = (r) => (r.agent === 'summarizer' ? 'sum' : isFinal(r) ? scores(6, 6) : '');
    const { waves } = run(cfg, pairwise, script);
    expect(promptText(waves[1]?.[0] as LlmCallRequest)).toContain('New lines:\n[] : [Silence]\n');
  });
});

describe('chateval verdicts', () => {
  it("aggregate: 'total' (the script) against 'majority' (§2's text)", () => {
    const three = { agents: [{}, {}, {}], roleGroup: 'generic' };
    const replies = { agent0: scores(1, 10), agent1: scores(6, 5), agent2: scores(6, 5) };
    const total = verdictOf(run(config(three), pairwise, scripted(replies)).outcome);
    expect(total).toMatchObject({ winner: 'B', scores: { a: 13 / 3, b: 20 / 3 } });
    const maj = verdictOf(run(config({ ...three, aggregate: 'majority' }), pairwise, scripted(replies)).outcome);
    expect(maj).toMatchObject({ winner: 'A', scores: { a: 13 / 3, b: 20 / 3 } });
    expect(maj.confidence).toBeCloseTo(1 / 3);
  });

  it("FairEval preset: both orders, each answer's scores summed over agents and orders (calc_score_calibration 'average')", () => {
    const cfg = config(preset('chateval-faireval'));
    // First-position bias: Assistant 1 always 8, Assistant 2 always 6.
    const biased = run(cfg, pairwise, (r) => (isFinal(r) ? scores(8, 6) : `msg ${r.id}`));
    expect(waveIds(biased.waves)[0]).toEqual(['ab/turn1/agent0', 'ba/turn1/agent0']);
    expect(plannedCalls(method, biased.state)).toBe(8);
    const ba = biased.waves[0]?.[1] as LlmCallRequest;
    expect(promptText(ba).indexOf('ANSWER-Y')).toBeLessThan(promptText(ba).indexOf('ANSWER-X'));
    const b = verdictOf(biased.outcome);
    // AB totals (16, 12) + BA mapped back (12, 16) = (28, 28).
    expect(b).toMatchObject({ winner: 'tie', scores: { a: 28, b: 28 }, positionFlip: true });
    expect(b.details).toMatchObject({ combinedBy: 'sum-scores' });
    // Each order: (8 − 6) / 9; halved for the flip.
    expect(b.confidence).toBeCloseTo(1 / 9);

    // The totals decide, not the agents: one agent strongly for Y outweighs two mildly for X.
    const three = config({ ...preset('chateval-faireval'), roleGroup: 'generic', agents: [{}, {}, {}] });
    const m = verdictOf(run(three, pairwise, prefers({ agent0: [1, 10], agent1: [6, 5], agent2: [6, 5] })).outcome);
    expect(m).toMatchObject({ winner: 'B', scores: { a: 26, b: 40 }, positionFlip: false });
    // The per-agent reading of the arXiv text is an option.
    const perAgent = config({
      ...preset('chateval-faireval'),
      roleGroup: 'generic',
      agents: [{}, {}, {}],
      calibration: { enabled: true, combine: 'per-agent-majority' },
    });
    const p = verdictOf(run(perAgent, pairwise, prefers({ agent0: [1, 10], agent1: [6, 5], agent2: [6, 5] })).outcome);
    expect(p).toMatchObject({ winner: 'A', scores: { a: 26, b: 40 } });
    expect(p.details).toMatchObject({ combinedBy: 'per-agent-majority' });
  });

  it('FairEval preset: an unreadable final reply is asked again with the identical prompt, then the item is a tie', () => {
    const cfg = config(preset('chateval-faireval'));
    const script: Script = (r) =>
      r.agent === 'agent1' && r.id.startsWith('ba/turn2')
        ? 'I refuse to score.'
        : prefers({ agent0: [9, 2], agent1: [9, 2] })(r, 0);
    const { waves, outcome } = run(cfg, pairwise, script);
    const retries = waves.flat().filter((r) => r.id.startsWith('ba/turn2/agent1'));
    // max_retry 3: three tries in all, each the same single user message.
    expect(retries.map((r) => r.id)).toEqual(['ba/turn2/agent1', 'ba/turn2/agent1#1', 'ba/turn2/agent1#2']);
    expect(retries[2]?.messages).toEqual(retries[0]?.messages);
    const v = verdictOf(outcome);
    expect(v.calls).toBe(10);
    expect(v.unparsed.map((u) => u.callId)).toEqual(['ba/turn2/agent1']);
    // AB (18, 4) + BA (9, 2): A by the numbers, but the script scores the item a tie.
    expect(v).toMatchObject({ winner: 'tie', scores: { a: 27, b: 6 }, confidence: 0 });
    expect(v.details).toMatchObject({ tieBecause: UNPARSED_TIE });
  });

  it('a reply with both score lines but no number is final at once (the agent accepted it) and ties the item', () => {
    const cfg = config(preset('chateval-faireval'));
    const script: Script = (r) =>
      r.id === 'ab/turn2/agent0' ? scores('8/10', '6/10') : prefers({ agent0: [9, 2], agent1: [9, 2] })(r, 0);
    const v = verdictOf(run(cfg, pairwise, script).outcome);
    expect(v.calls).toBe(8);
    expect(v.winner).toBe('tie');
    expect(v.unparsed.map((u) => u.callId)).toEqual(['ab/turn2/agent0']);
    // The same reply under `scoreRead: 'lenient'` is read as 8 and 6.
    const lenient = verdictOf(
      run(config({ ...preset('chateval-faireval'), scoreRead: 'lenient' }), pairwise, script).outcome,
    );
    expect(lenient).toMatchObject({ winner: 'A', scores: { a: 8 + 9 + 18, b: 6 + 2 + 4 } });
  });

  it("unparsed: 'ignore' leaves the reply out; the default repair names the format", () => {
    const cfg = config({ unparsed: 'ignore', parseRetries: 1 });
    const { waves, outcome } = run(cfg, pairwise, scripted({ agent0: scores(9, 4), agent1: 'I refuse to score.' }));
    const repair = waves.at(-1)?.[0] as LlmCallRequest;
    expect(repair.id).toBe('turn2/agent1#1');
    expect(repair.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const v = verdictOf(outcome);
    expect(v).toMatchObject({ winner: 'A', scores: { a: 9, b: 4 } });
    expect(v.votes[1]).toEqual({ agent: 'agent1', label: 'Critic', winner: 'tie', parsed: false });
  });

  it('Topical-Chat preset: Critic, General Public, News Author, 6 sequential turns, last character read, mean', () => {
    const cfg = config(preset('chateval-topical-chat'));
    const finals = {
      agent0: 'Explaination: natural.\nNaturalness: 3',
      agent1: 'Explaination: ok.\nNaturalness: 2',
      agent2: 'Naturalness: 2 (somewhat natural)',
    };
    const { waves, outcome } = run(cfg, pointwise, scripted(finals));
    // News Author's unreadable reply is asked twice more with the same prompt.
    expect(waveIds(waves).flat()).toEqual([
      'turn1/agent0',
      'turn1/agent1',
      'turn1/agent2',
      'turn2/agent0',
      'turn2/agent1',
      'turn2/agent2',
      'turn2/agent2#1',
      'turn2/agent2#2',
    ]);
    const last = waves[5]?.[0] as LlmCallRequest;
    expect(last).toMatchObject({ parser: { type: 'last-char' }, maxTokens: 256, temperature: 0, label: 'News Author' });
    const prompt = promptText(last);
    expect(prompt).toContain(
      'Corresponding Fact:\n\nMiles Davis recorded Kind of Blue in 1959.\n\nResponse:\n\nDid you know',
    );
    expect(
      prompt.endsWith(
        'Now, What is your opinion, News Author ?\n\nOutput with the following format strictly:\nExplaination: [Your explaination]\nNaturalness: [Your answer (scores ONLY)]',
      ),
    ).toBe(true);
    expect(promptText(waves[0]?.[0] as LlmCallRequest).endsWith('Critic ?\n\n')).toBe(true);
    const v = verdictOf(outcome);
    // News Author's last character is ")": unreadable after 3 tries, left out of the mean (3 + 2) / 2.
    expect(v.unparsed.map((u) => u.callId)).toEqual(['turn2/agent2']);
    expect(v.score).toBe(2.5);
    expect(v.votes.map((x) => [x.label, x.score ?? null])).toEqual([
      ['Critic', 3],
      ['General Public', 2],
      ['News Author', null],
    ]);
  });
});

describe('chateval roles and prompt sources', () => {
  it('same-role preset (code): Annotator1 and Annotator2; the paper text is an option', () => {
    const code = run(config(preset('chateval-same-role')), pairwise, scripted({}));
    expect(code.waves.slice(0, 2).map((w) => w.map((r) => r.label))).toEqual([
      ['Annotator1', 'Annotator1'],
      ['Annotator2', 'Annotator2'],
    ]);
    expect(promptText(code.waves[1]?.[0] as LlmCallRequest)).toContain(
      '[Annotator1]: msg ab/turn1/agent0\n\nYou are Annotator2, one of the referees in this task.',
    );
    const paper = run(config({ ...preset('chateval-same-role'), promptSource: 'paper' }), pairwise, scripted({}));
    expect(paper.waves[1]?.[0]?.label).toBe('Annotator 2');
    expect(promptText(paper.waves[1]?.[0] as LlmCallRequest)).toContain(SAME_ROLE_PAPER);
  });

  it("promptSource 'paper': Table 6's template and Appendix A's roles", () => {
    const { waves } = run(config({ promptSource: 'paper' }), pairwise, scripted({}));
    const p = promptText(waves[1]?.[0] as LlmCallRequest);
    expect(p).toContain('Here is your discussion history:\n[General Public]: msg turn1/agent0\n' + PAPER_ROLES.Critic);
    expect(p).toContain('There are a few other referees assigned the same task, it’s your responsibility');
  });

  it('per-agent model settings override the defaults; custom roles and role groups', () => {
    const cfg = config({
      defaults: { model: 'base', temperature: 0.3 },
      agents: [{}, { role: 'Scientist', model: 'strong', maxTokens: 100 }],
    });
    const { waves } = run(cfg, pairwise, scripted({}));
    expect(waves[0]?.[0]).toMatchObject({ model: 'base', temperature: 0.3, maxTokens: 512, label: 'General Public' });
    expect(waves[1]?.[0]).toMatchObject({ model: 'strong', temperature: 0.3, maxTokens: 100, label: 'Scientist' });
    const c = config({
      roleGroup: 'coding',
      agents: [{}, { role: { name: 'Tester', description: 'You are Tester.' } }],
    });
    expect(
      run(c, pairwise, scripted({}))
        .waves.slice(0, 2)
        .map((w) => w[0]?.label),
    ).toEqual(['Guido van Rossum', 'Tester']);
  });

  it('gives the same outcome with and without a JSON round trip after every result', () => {
    const cfg = config({ ...preset('chateval-summarizer'), turns: 3 });
    const script: Script = (r) =>
      r.agent === 'summarizer'
        ? `summary ${r.id}`
        : isFinal(r)
          ? scores(r.id.startsWith('ab') ? 7 : 4, 5)
          : `msg ${r.id}`;
    const plain = run(cfg, pairwise, script, false);
    const tripped = run(cfg, pairwise, script, true);
    expect(tripped.outcome).toEqual(plain.outcome);
    expect(verdictOf(plain.outcome).calls).toBe(2 * (3 * 3 + 2 * 3));
  });
});

describe('chateval config', () => {
  it('fills defaults', () => {
    const c = chatEvalConfigSchema.parse({ method: 'chateval' });
    expect(c).toMatchObject({
      strategy: 'one-by-one',
      turns: 2,
      parseRetries: 3,
      sameRole: false,
      promptSource: 'code',
      scoreRead: 'script',
      aggregate: 'total',
      unparsed: 'tie',
      summaryMode: 'append',
    });
    expect(c.agents).toEqual([{ role: 'General Public' }, { role: 'Critic' }]);
  });

  it('rejects template typos, unknown roles, roles missing and out-of-range sizes', () => {
    const typo = chatEvalConfigSchema.safeParse({
      method: 'chateval',
      templates: { pairwise: 'Q: {{questoin}} {{chat_history}}' },
    });
    expect(typo.success).toBe(false);
    expect(typo.error?.issues[0]?.path).toEqual(['templates', 'pairwise']);
    expect(chatEvalConfigSchema.safeParse({ method: 'chateval', templates: { summary: '{{question}}' } }).success).toBe(
      false,
    );
    expect(chatEvalConfigSchema.safeParse({ method: 'chateval', agents: [{ role: 'Wizard' }] }).success).toBe(false);
    const missing = chatEvalConfigSchema.safeParse({
      method: 'chateval',
      roleGroup: 'coding',
      agents: [{}, {}, {}, {}],
    });
    expect(missing.error?.issues[0]?.path).toEqual(['agents', 3, 'role']);
    expect(chatEvalConfigSchema.safeParse({ method: 'chateval', turns: 11 }).success).toBe(false);
    expect(chatEvalConfigSchema.safeParse({ method: 'chateval', extra: 1 }).success).toBe(false);
  });

  it('every preset parses and names its paper section', () => {
    expect(chatEvalPresets.map((p) => p.id)).toEqual([
      'chateval-faireval',
      'chateval-topical-chat',
      'chateval-simultaneous-talk',
      'chateval-summarizer',
      'chateval-same-role',
    ]);
    for (const p of chatEvalPresets) {
      expect(chatEvalConfigSchema.safeParse(p.config).success, p.id).toBe(true);
      expect(p.paper).toMatch(/§/);
    }
  });
});
