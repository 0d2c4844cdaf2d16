import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { AnyMethod } from '../../src/engine/method.js';
import type { EngineState } from '../../src/engine/protocol.js';
import { createEvaluation, plannedCalls } from '../../src/engine/protocol.js';
import type { PairwiseTask, PointwiseTask } from '../../src/engine/task.js';
import { ANNOTATOR_ROLE, APPENDIX_ROLES } from '../../src/engine/methods/chateval-roles.js';
import {
  CHATEVAL_TOPICAL_CHAT_SOLO_TEMPLATE,
  CHATEVAL_TOPICAL_CHAT_TEMPLATE,
  chatEvalConfigSchema,
  chatEvalMethod,
  chatEvalPresets,
  TOPICAL_CHAT_ROLES,
  topicalChatRoles,
} from '../../src/engine/methods/chateval.js';
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

/** Final turns end with the two score lines; earlier turns are free text naming the speaker. */
function scores(a: number, b: number): string {
  return `Evaluation evidence: fine.\nThe score of Assistant 1: ${a}\nThe score of Assistant 2: ${b}`;
}

function isFinal(r: LlmCallRequest): boolean {
  return r.parser.type !== 'text' && r.agent !== 'summarizer';
}

/** Discussion replies `msg <id>`; final replies from `finals` by agent id. */
function scripted(finals: Record<string, string>): Script {
  return (r) => (isFinal(r) ? (finals[r.agent] ?? 'no scores here') : `msg ${r.id}`);
}

function run(cfg: EngineState['config'], task: PairwiseTask | PointwiseTask, script: Script, roundTrip: boolean) {
  return driveByWaves(method, createEvaluation(method, cfg, task), script, { roundTrip });
}

describe.each([false, true])('chateval (roundTrip %s)', (roundTrip) => {
  it('one-by-one, 2 agents × 2 turns: 4 sequential calls, each seeing everything said before', () => {
    const cfg = config();
    const { waves, outcome } = run(cfg, pairwise, scripted({ agent0: scores(8, 5), agent1: scores(7, 6) }), roundTrip);
    expect(waveIds(waves)).toEqual([['turn1/agent0'], ['turn1/agent1'], ['turn2/agent0'], ['turn2/agent1']]);
    const [[t1a0], [t1a1], [t2a0], [t2a1]] = waves as [[LlmCallRequest], [LlmCallRequest], [LlmCallRequest], [LlmCallRequest]];
    expect(promptText(t1a0)).not.toContain('msg ');
    expect(promptText(t1a1)).toContain('[General Public]: msg turn1/agent0');
    expect(promptText(t2a0)).toContain('[General Public]: msg turn1/agent0\n[Critic]: msg turn1/agent1');
    // The last speaker sees the first speaker's final message too.
    expect(promptText(t2a1)).toContain(`[General Public]: ${scores(8, 5)}`);
    // Only the last turn carries the format instruction and the score parser.
    expect(t1a0.parser).toEqual({ type: 'text' });
    expect(promptText(t1a0)).not.toContain('The score of Assistant 1: [score only]');
    expect(t2a0.parser).toEqual({ type: 'chateval-scores', min: 1, max: 10 });
    expect(promptText(t2a0)).toContain('The score of Assistant 1: [score only]');
    // Table 6 slots and README defaults.
    expect(promptText(t1a0)).toContain('ANSWER-X');
    expect(promptText(t1a0)).toContain(APPENDIX_ROLES[0]?.description);
    expect(promptText(t1a1)).toContain('please make your talk short and clear, Critic !');
    expect(t1a0).toMatchObject({ agent: 'agent0', label: 'General Public', stage: 'turn 1', temperature: 0, maxTokens: 512 });
    const v = verdictOf(outcome);
    expect(v.winner).toBe('A');
    expect(v.scores).toEqual({ a: 7.5, b: 5.5 });
    expect(v.confidence).toBe(1);
    expect(v.calls).toBe(4);
    expect(v.positionFlip).toBeNull();
    expect(v.votes).toEqual([
      { agent: 'agent0', label: 'General Public', winner: 'A', scores: { a: 8, b: 5 }, parsed: true },
      { agent: 'agent1', label: 'Critic', winner: 'A', scores: { a: 7, b: 6 }, parsed: true },
    ]);
  });

  it('simultaneous-talk, 3 agents × 2 turns: 2 waves of 3, round 2 holds the whole round 1', () => {
    const cfg = config({ strategy: 'simultaneous-talk', agents: [{}, {}, {}] });
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
    for (const r of waves[1] ?? []) {
      expect(promptText(r)).toContain(
        '[General Public]: msg turn1/agent0\n[Critic]: msg turn1/agent1\n[News Author]: msg turn1/agent2',
      );
    }
    expect(plannedCalls(method, state)).toBe(6);
    const v = verdictOf(outcome);
    expect(v.winner).toBe('A');
    expect(v.votes.map((x) => x.winner)).toEqual(['A', 'B', 'A']);
    expect(v.confidence).toBeCloseTo(1 / 3);
    expect(v.scores).toEqual({ a: 7, b: 13 / 3 });
  });

  it('summarizer: one summary per agent per round between turns; the summary replaces the history', () => {
    const cfg = config({ strategy: 'simultaneous-talk-with-summarizer', turns: 3, agents: [{}, {}, {}], summarizer: { model: 'sum-model' } });
    const script: Script = (r) =>
      r.agent === 'summarizer' ? `summary ${r.id}` : isFinal(r) ? scores(6, 6) : `msg ${r.id}`;
    const { waves, outcome, state } = run(cfg, pairwise, script, roundTrip);
    expect(waveIds(waves)).toEqual([
      ['turn1/agent0', 'turn1/agent1', 'turn1/agent2'],
      ['turn1/summary/agent0', 'turn1/summary/agent1', 'turn1/summary/agent2'],
      ['turn2/agent0', 'turn2/agent1', 'turn2/agent2'],
      ['turn2/summary/agent0', 'turn2/summary/agent1', 'turn2/summary/agent2'],
      ['turn3/agent0', 'turn3/agent1', 'turn3/agent2'],
    ]);
    expect(plannedCalls(method, state)).toBe(15);
    const [, sum1, speak2, sum2] = waves;
    const s10 = sum1?.[0] as LlmCallRequest;
    expect(s10).toMatchObject({ agent: 'summarizer', label: 'Summarizer (General Public)', stage: 'turn 1 summary', model: 'sum-model' });
    expect(promptText(s10)).toContain(
      'Current summary:\n\n\nNew lines:\n[General Public]: msg turn1/agent0\n[Critic]: msg turn1/agent1\n[News Author]: msg turn1/agent2',
    );
    // Round 2: each agent sees its own summary instead of the raw round.
    const p21 = promptText(speak2?.[1] as LlmCallRequest);
    expect(p21).toContain('summary turn1/summary/agent1');
    expect(p21).not.toContain('msg turn1/agent0');
    expect(p21).not.toContain('summary turn1/summary/agent0');
    // The next summary builds on the current one.
    expect(promptText(sum2?.[2] as LlmCallRequest)).toContain('Current summary:\nsummary turn1/summary/agent2\n');
    const v = verdictOf(outcome);
    expect(v.winner).toBe('tie');
    expect(v.calls).toBe(15);
  });

  it('majority vote: no majority is a tie; the margin is the confidence', () => {
    const cfg = config();
    const v = verdictOf(run(cfg, pairwise, scripted({ agent0: scores(9, 3), agent1: scores(2, 8) }), roundTrip).outcome);
    expect(v.winner).toBe('tie');
    expect(v.confidence).toBe(0);
    expect(v.scores).toEqual({ a: 5.5, b: 5.5 });
    expect(v.details).toMatchObject({ tally: { A: 1, B: 1, tie: 0 } });

    const four = config({ agents: [{}, {}, {}, {}] });
    const w = verdictOf(
      run(four, pairwise, scripted({ agent0: scores(3, 9), agent1: scores(2, 8), agent2: scores(5, 5), agent3: scores(1, 2) }), roundTrip)
        .outcome,
    );
    expect(w.winner).toBe('B');
    expect(w.confidence).toBe(0.5);
    expect(w.votes.map((x) => x.label)).toEqual(['General Public', 'Critic', 'News Author', 'Psychologist']);
  });

  it('pointwise (Topical-Chat preset): 2 agents × 2 turns (§3.2), per-aspect labelled score, mean, 1 − spread confidence', () => {
    const cfg = config(preset('chateval-topical-chat'));
    const { waves, outcome } = run(cfg, pointwise, scripted({ agent0: 'Naturalness: 3', agent1: '- Naturalness: 2' }), roundTrip);
    expect(waveIds(waves)).toEqual([['turn1/agent0'], ['turn1/agent1'], ['turn2/agent0'], ['turn2/agent1']]);
    const last = waves[3]?.[0] as LlmCallRequest;
    expect(last.parser).toEqual({ type: 'labelled-score', label: 'Naturalness', min: 1, max: 3 });
    expect(last.maxTokens).toBe(256);
    const prompt = promptText(last);
    expect(prompt).toContain('Naturalness (1-3) Is the degree to which the response sounds natural');
    expect(prompt).toContain('Corresponding Fact:\n\nMiles Davis recorded Kind of Blue in 1959.');
    expect(prompt).toMatch(/Evaluation Form \(scores ONLY\):\n\n- Naturalness:$/);
    // The role prompts name only the referees present: no absent News Author.
    expect(prompt).toContain('You are General Public, and you are interested in the story and looking for updates on the investigation. You are now going to cooperate with Critic to help rate the response.');
    expect(prompt).not.toContain('News Author');
    expect(promptText(waves[0]?.[0] as LlmCallRequest)).not.toContain('Evaluation Form');
    const v = verdictOf(outcome);
    expect(v.score).toBe(2.5);
    expect(v.confidence).toBe(0.5);
    expect(v.winner).toBeUndefined();
    expect(v.votes.map((x) => [x.label, x.score])).toEqual([
      ['Critic', 3],
      ['General Public', 2],
    ]);
  });

  it('calibration (FairEval preset): both orders, each agent\'s scores summed over the orders, majority of agents, positionFlip', () => {
    const cfg = config(preset('chateval-faireval'));
    // A judge biased to the first position: Assistant 1 always gets 8, Assistant 2 gets 6.
    const biased = run(cfg, pairwise, (r) => (isFinal(r) ? scores(8, 6) : `msg ${r.id}`), roundTrip);
    expect(waveIds(biased.waves)[0]).toEqual(['ab/turn1/agent0', 'ba/turn1/agent0']);
    expect(biased.waves).toHaveLength(4);
    expect(plannedCalls(method, biased.state)).toBe(8);
    // The BA prompts show answer B first.
    const ba = biased.waves[0]?.[1] as LlmCallRequest;
    expect(promptText(ba).indexOf('ANSWER-Y')).toBeLessThan(promptText(ba).indexOf('ANSWER-X'));
    const b = verdictOf(biased.outcome);
    // Each agent: AB (8, 6) + BA mapped back (6, 8) = (14, 14), a tie; totals over both agents (28, 28).
    expect(b.scores).toEqual({ a: 28, b: 28 });
    expect(b.winner).toBe('tie');
    expect(b.positionFlip).toBe(true);
    expect(b.details).toMatchObject({ combinedBy: 'per-agent-sum' });
    // Two tie votes out of two: margin 1, halved for the flip.
    expect(b.confidence).toBe(0.5);
    expect(b.votes).toHaveLength(4);
    expect(b.votes.filter((x) => x.order === 'BA').map((x) => x.scores)).toEqual([
      { a: 6, b: 8 },
      { a: 6, b: 8 },
    ]);

    /** Each agent's (X, Y) scores wherever X and Y are shown. */
    const prefers =
      (by: Record<string, [number, number]>): Script =>
      (r) => {
        if (!isFinal(r)) return `msg ${r.id}`;
        const xFirst = promptText(r).indexOf('ANSWER-X') < promptText(r).indexOf('ANSWER-Y');
        const [x, y] = by[r.agent] ?? [5, 5];
        return xFirst ? scores(x, y) : scores(y, x);
      };
    // Both agents prefer ANSWER-X wherever it stands: 9 vs 5, and 8 vs 4 from the Critic.
    const f = verdictOf(run(cfg, pairwise, prefers({ agent0: [9, 5], agent1: [8, 4] }), roundTrip).outcome);
    // agent0 (18, 10), agent1 (16, 8): both A; totals (34, 18).
    expect(f.scores).toEqual({ a: 34, b: 18 });
    expect(f.winner).toBe('A');
    expect(f.positionFlip).toBe(false);
    expect(f.confidence).toBe(1);

    // The agents decide, not the pooled totals: one agent strongly for Y, two mildly for X.
    const three = config({ ...preset('chateval-faireval'), agents: [{}, {}, {}] });
    const m = verdictOf(run(three, pairwise, prefers({ agent0: [1, 10], agent1: [6, 5], agent2: [6, 5] }), roundTrip).outcome);
    // Sums: agent0 (2, 20) → B, agent1 (12, 10) → A, agent2 (12, 10) → A; totals (26, 40) would say B.
    expect(m.scores).toEqual({ a: 26, b: 40 });
    expect(m.winner).toBe('A');
    expect(m.positionFlip).toBe(false);
    expect(m.confidence).toBeCloseTo(1 / 3);
  });

  it('calibration: a final reply that never parses in one order adds nothing to that agent\'s sums', () => {
    const cfg = config(preset('chateval-faireval'));
    // General Public prefers ANSWER-X 7 vs 5 in both orders; the Critic prefers ANSWER-Y 5 vs 6 in the
    // normal order and never gives readable scores in the swapped one.
    const script: Script = (r) => {
      if (!isFinal(r)) return `msg ${r.id}`;
      if (r.agent === 'agent1' && r.id.startsWith('ba/')) return 'I refuse to score.';
      const xFirst = promptText(r).indexOf('ANSWER-X') < promptText(r).indexOf('ANSWER-Y');
      const [x, y] = r.agent === 'agent0' ? [7, 5] : [5, 6];
      return xFirst ? scores(x, y) : scores(y, x);
    };
    const { waves, outcome } = run(cfg, pairwise, script, roundTrip);
    // The unparsed reply is re-asked parseRetries (3) times: 8 first calls + 3 repairs.
    expect(waveIds(waves).flat().filter((id) => id.startsWith('ba/turn2/agent1'))).toEqual([
      'ba/turn2/agent1',
      'ba/turn2/agent1#1',
      'ba/turn2/agent1#2',
      'ba/turn2/agent1#3',
    ]);
    const v = verdictOf(outcome);
    expect(v.calls).toBe(11);
    expect(v.unparsed.map((u) => u.callId)).toEqual(['ba/turn2/agent1']);
    // agent0: (7, 5) + (7, 5) = (14, 10) → A. agent1: (5, 6) + nothing = (5, 6) → B. One each: a tie.
    expect(v.scores).toEqual({ a: 19, b: 16 });
    expect(v.winner).toBe('tie');
    expect(v.confidence).toBe(0);
    expect(v.details).toMatchObject({ combinedBy: 'per-agent-sum' });
    expect(v.votes.filter((x) => x.order === 'BA')).toEqual([
      { agent: 'agent0', label: 'General Public', winner: 'A', scores: { a: 7, b: 5 }, parsed: true, order: 'BA' },
      { agent: 'agent1', label: 'Critic', winner: 'tie', parsed: false, order: 'BA' },
    ]);
  });

  it('an unparsed final reply is repaired parseRetries times, then a tie vote listed in unparsed', () => {
    const cfg = config();
    const { waves, outcome } = run(cfg, pairwise, scripted({ agent0: scores(9, 4), agent1: 'I refuse to score.' }), roundTrip);
    expect(waveIds(waves)).toEqual([
      ['turn1/agent0'],
      ['turn1/agent1'],
      ['turn2/agent0'],
      ['turn2/agent1'],
      ['turn2/agent1#1'],
      ['turn2/agent1#2'],
      ['turn2/agent1#3'],
    ]);
    const repair = waves[6]?.[0] as LlmCallRequest;
    expect(repair.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    const v = verdictOf(outcome);
    expect(v.votes[1]).toEqual({ agent: 'agent1', label: 'Critic', winner: 'tie', parsed: false });
    expect(v.unparsed).toEqual([
      { callId: 'turn2/agent1', agent: 'agent1', stage: 'turn 2', reason: expect.stringContaining('The score of Assistant 1') as string },
    ]);
    // One A vote and one tie: no majority.
    expect(v.winner).toBe('tie');
    expect(v.scores).toEqual({ a: 9, b: 4 });
    expect(v.calls).toBe(7);
  });

  it('a repaired reply counts once it parses', () => {
    const cfg = config({ parseRetries: 1 });
    const script: Script = (r) => (r.id === 'turn2/agent1' ? 'oops' : isFinal(r) ? scores(3, 7) : `msg ${r.id}`);
    const v = verdictOf(run(cfg, pairwise, script, roundTrip).outcome);
    expect(v.winner).toBe('B');
    expect(v.unparsed).toEqual([]);
    expect(v.calls).toBe(5);
  });

  it('same-role ablation: every agent gets the Annotator prompt, names numbered', () => {
    const cfg = config(preset('chateval-same-role'));
    const { waves } = run(cfg, pairwise, scripted({ agent0: scores(5, 4), agent1: scores(5, 4) }), roundTrip);
    // Calibrated preset: each wave holds the same slot in both orders.
    expect(waveIds(waves).slice(0, 2)).toEqual([
      ['ab/turn1/agent0', 'ba/turn1/agent0'],
      ['ab/turn1/agent1', 'ba/turn1/agent1'],
    ]);
    expect(waves.slice(0, 2).map((w) => w.map((r) => r.label))).toEqual([
      ['Annotator 1', 'Annotator 1'],
      ['Annotator 2', 'Annotator 2'],
    ]);
    for (const r of waves.flat()) expect(promptText(r)).toContain(ANNOTATOR_ROLE.description);
    expect(promptText(waves[1]?.[0] as LlmCallRequest)).toContain('[Annotator 1]: msg ab/turn1/agent0');
  });

  it('per-agent model settings override the defaults', () => {
    const cfg = config({ defaults: { model: 'base', temperature: 0.3 }, agents: [{}, { role: 'Scientist', model: 'strong', maxTokens: 100 }] });
    const { waves } = run(cfg, pairwise, scripted({ agent0: scores(5, 4), agent1: scores(5, 4) }), roundTrip);
    expect(waves[0]?.[0]).toMatchObject({ model: 'base', temperature: 0.3, maxTokens: 512, label: 'General Public' });
    expect(waves[1]?.[0]).toMatchObject({ model: 'strong', temperature: 0.3, maxTokens: 100, label: 'Scientist' });
  });
});

describe('chateval state', () => {
  it('gives the same outcome with and without a JSON round trip after every result', () => {
    const cfg = config({ ...preset('chateval-summarizer'), turns: 3 });
    const script: Script = (r) => (r.agent === 'summarizer' ? `summary ${r.id}` : isFinal(r) ? scores(r.id.startsWith('ab') ? 7 : 4, 5) : `msg ${r.id}`);
    const plain = run(cfg, pairwise, script, false);
    const tripped = run(cfg, pairwise, script, true);
    expect(tripped.outcome).toEqual(plain.outcome);
    expect(tripped.state).toEqual(plain.state);
    expect(verdictOf(plain.outcome).calls).toBe(2 * (3 * 3 + 2 * 3));
  });
});

describe('chateval config', () => {
  it('fills defaults', () => {
    const c = chatEvalConfigSchema.parse({ method: 'chateval' });
    expect(c).toMatchObject({ strategy: 'one-by-one', turns: 2, parseRetries: 3, sameRole: false, scale: { min: 1, max: 10 } });
    expect(c.agents).toEqual([{ role: 'General Public' }, { role: 'Critic' }]);
    expect(c.templates.pairwise).toContain('[The Start of Assistant 1’s Answer]');
    expect(c.templates.summary).toContain('New summary:');
  });

  it('rejects template typos, unknown roles, roles missing and out-of-range sizes', () => {
    const typo = chatEvalConfigSchema.safeParse({ method: 'chateval', templates: { pairwise: 'Q: {{questoin}} {{chat_history}}' } });
    expect(typo.success).toBe(false);
    expect(typo.error?.issues[0]?.message).toContain('{{questoin}}');
    expect(typo.error?.issues[0]?.path).toEqual(['templates', 'pairwise']);
    // The summary template cannot use the task's placeholders.
    expect(chatEvalConfigSchema.safeParse({ method: 'chateval', templates: { summary: '{{question}}' } }).success).toBe(false);
    expect(chatEvalConfigSchema.safeParse({ method: 'chateval', agents: [{ role: 'Wizard' }] }).success).toBe(false);
    const missing = chatEvalConfigSchema.safeParse({ method: 'chateval', roleGroup: 'coding', agents: [{}, {}, {}, {}] });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.path).toEqual(['agents', 3, 'role']);
    expect(chatEvalConfigSchema.safeParse({ method: 'chateval', agents: Array(9).fill({ role: 'Critic' }) }).success).toBe(false);
    expect(chatEvalConfigSchema.safeParse({ method: 'chateval', turns: 11 }).success).toBe(false);
    expect(chatEvalConfigSchema.safeParse({ method: 'chateval', strategy: 'shouting' }).success).toBe(false);
    expect(chatEvalConfigSchema.safeParse({ method: 'chateval', extra: 1 }).success).toBe(false);
  });

  it('accepts custom roles and role groups', () => {
    const c = config({ roleGroup: 'coding', agents: [{}, { role: { name: 'Tester', description: 'You are Tester.' } }] });
    const { waves } = run(c, pairwise, scripted({}), false);
    expect(waves.slice(0, 2).map((w) => w[0]?.label)).toEqual(['Guido van Rossum', 'Tester']);
    expect(promptText(waves[0]?.[0] as LlmCallRequest)).toContain('You are Guido van Rossum. You are the creator of the Python programming language');
  });

  it('Topical-Chat roles: all three reproduce the authors\' prompts verbatim; fewer name only those present', () => {
    const challenge = "Please think critically by yourself and note that it's fine to challenge other if you want to stick to your point.";
    expect(TOPICAL_CHAT_ROLES).toEqual([
      {
        name: 'Critic',
        description: `You are Critic, and you will check fluent writing, clear sentences, and good wording in response. You are now going to cooperate with General Public and News Author to help rate the response. ${challenge}`,
      },
      {
        name: 'General Public',
        description: `You are General Public, and you are interested in the story and looking for updates on the investigation. You are now going to cooperate with Critic and News Author to help rate the response. ${challenge}`,
      },
      {
        name: 'News Author',
        description: `You are News Author, and you will check the response for consistency with the original article. You are now going to cooperate with Critic and General Public to help rate the response. ${challenge}`,
      },
    ]);
    expect(topicalChatRoles(['Critic', 'General Public']).map((r) => r.description)).toEqual([
      `You are Critic, and you will check fluent writing, clear sentences, and good wording in response. You are now going to cooperate with General Public to help rate the response. ${challenge}`,
      `You are General Public, and you are interested in the story and looking for updates on the investigation. You are now going to cooperate with Critic to help rate the response. ${challenge}`,
    ]);
    // The ensemble's prompt is this one without the discussion paragraph and history.
    expect(CHATEVAL_TOPICAL_CHAT_TEMPLATE).toContain('Here is your discuss history:\n{{chat_history}}');
    expect(CHATEVAL_TOPICAL_CHAT_SOLO_TEMPLATE).not.toContain('discuss');
    const discussion = CHATEVAL_TOPICAL_CHAT_TEMPLATE.slice(
      CHATEVAL_TOPICAL_CHAT_TEMPLATE.indexOf('Additionally, There will be'),
      CHATEVAL_TOPICAL_CHAT_TEMPLATE.indexOf('{{role_description}}'),
    );
    expect(CHATEVAL_TOPICAL_CHAT_TEMPLATE.replace(discussion, '')).toBe(CHATEVAL_TOPICAL_CHAT_SOLO_TEMPLATE);
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
