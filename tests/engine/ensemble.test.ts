import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { AnyMethod } from '../../src/engine/method.js';
import type { EngineState } from '../../src/engine/state.js';
import { createEvaluation, plannedCalls } from '../../src/engine/protocol.js';
import type { JudgedPairwiseTask, JudgedPointwiseTask } from '../../src/engine/judged.js';
import {
  CHATEVAL_SINGLE_CODE,
  CODE_ROLES,
  TOPICAL_CHAT_ROLES,
  TOPICAL_CHAT_SOLO_TEMPLATES,
} from '../../src/engine/methods/chateval/index.js';
import { ensembleConfigSchema, ensembleMethod, ensemblePresets } from '../../src/engine/methods/ensemble/index.js';
import type { Script } from '../support/waves.js';
import { driveByWaves, promptText, verdictOf } from '../support/waves.js';

const method = ensembleMethod as unknown as AnyMethod;

const pairwise: JudgedPairwiseTask = {
  kind: 'pairwise',
  question: 'Name a prime.',
  answerA: 'ANSWER-X: 7',
  answerB: 'ANSWER-Y: 9',
};

const pointwise: JudgedPointwiseTask = {
  kind: 'pointwise',
  source: 'A long article.',
  output: 'A short summary.',
  aspect: { name: 'coherence', description: 'How well the summary hangs together.', scale: { min: 1, max: 5 } },
};

function config(over: Record<string, unknown> = {}): EngineState['config'] {
  return ensembleConfigSchema.parse({ method: 'ensemble', ...over });
}

function scores(a: number, b: number): string {
  return `The score of Assistant 1: ${a}\nThe score of Assistant 2: ${b}`;
}

const byAgent =
  (replies: Record<string, string>): Script =>
  (r) =>
    replies[r.agent] ?? 'no score';

describe.each([false, true])('ensemble (roundTrip %s)', (roundTrip) => {
  const run = (cfg: EngineState['config'], task: JudgedPairwiseTask | JudgedPointwiseTask, script: Script) =>
    driveByWaves(method, createEvaluation(method, cfg, task), script, { roundTrip });

  it("runs every role once in one parallel wave, no discussion; the higher total wins (the authors' script)", () => {
    const { waves, outcome, state } = run(
      config(),
      pairwise,
      byAgent({ agent0: scores(8, 4), agent1: scores(3, 6), agent2: scores(7, 5) }),
    );
    expect(waves.map((w) => w.map((r) => r.id))).toEqual([['ensemble/agent0', 'ensemble/agent1', 'ensemble/agent2']]);
    expect(plannedCalls(method, state)).toBe(3);
    const [gp, critic, na] = waves[0] as [LlmCallRequest, LlmCallRequest, LlmCallRequest];
    expect([gp.label, critic.label, na.label]).toEqual(['General Public', 'Critic', 'News Author']);
    expect(promptText(na)).toContain(CODE_ROLES['News Author']);
    expect(promptText(gp)).not.toContain('discuss');
    expect(promptText(gp)).toContain('The score of Assistant 2: [score only]');
    expect(gp).toMatchObject({
      temperature: 0,
      maxTokens: 512,
      stage: 'ensemble',
      parser: { type: 'chateval-scores', min: 1, max: 10, read: 'script' },
    });
    const v = verdictOf(outcome);
    expect(v.scores).toEqual({ a: 6, b: 5 });
    expect(v.details).toMatchObject({ totalScores: { a: 18, b: 15 } });
    expect(v.winner).toBe('A');
    expect(v.confidence).toBeCloseTo(1 / 9);
    expect(v.votes.map((x) => x.winner)).toEqual(['A', 'B', 'A']);
  });

  it('takes the winner from the scores, not the vote count', () => {
    const v = verdictOf(
      run(config(), pairwise, byAgent({ agent0: scores(6, 5), agent1: scores(6, 5), agent2: scores(1, 9) })).outcome,
    );
    expect(v.votes.map((x) => x.winner)).toEqual(['A', 'A', 'B']);
    expect(v.scores).toEqual({ a: 13 / 3, b: 19 / 3 });
    expect(v.winner).toBe('B');
  });

  it("unparsed: 'ignore' leaves an unparsed reply out of the totals and lists it", () => {
    const { waves, outcome } = run(
      config({ parseRetries: 1, unparsed: 'ignore' }),
      pairwise,
      byAgent({ agent0: scores(9, 2), agent2: scores(5, 4) }),
    );
    expect(waves.map((w) => w.map((r) => r.id))).toEqual([
      ['ensemble/agent0', 'ensemble/agent1', 'ensemble/agent2'],
      ['ensemble/agent1#1'],
    ]);
    const v = verdictOf(outcome);
    expect(v.scores).toEqual({ a: 7, b: 3 });
    expect(v.votes[1]).toEqual({ agent: 'agent1', label: 'Critic', winner: 'tie', parsed: false });
    expect(v.unparsed.map((u) => u.callId)).toEqual(['ensemble/agent1']);
    expect(v.calls).toBe(4);
  });

  it("calibrated preset: each answer's scores summed over roles and orders", () => {
    const preset = ensemblePresets.find((p) => p.id === 'ensemble-chateval-roles');
    const cfg = config(preset?.config);
    /** Role `agentN` gives (X, Y) wherever ANSWER-X and ANSWER-Y are shown. */
    const prefers =
      (by: Record<string, [number, number]>): Script =>
      (r) => {
        const t = promptText(r);
        const [x, y] = by[r.agent] ?? [5, 5];
        return t.indexOf('ANSWER-X') < t.indexOf('ANSWER-Y') ? scores(x, y) : scores(y, x);
      };
    // Every role prefers ANSWER-X (8 vs 5) wherever it is shown.
    const { waves, outcome } = run(cfg, pairwise, prefers({ agent0: [8, 5], agent1: [8, 5], agent2: [8, 5] }));
    expect(waves).toHaveLength(1);
    expect(waves[0]?.map((r) => r.id)).toEqual([
      'ab/ensemble/agent0',
      'ab/ensemble/agent1',
      'ab/ensemble/agent2',
      'ba/ensemble/agent0',
      'ba/ensemble/agent1',
      'ba/ensemble/agent2',
    ]);
    const v = verdictOf(outcome);
    // Each role (16, 10) → A; totals over the three roles (48, 30).
    expect(v.scores).toEqual({ a: 48, b: 30 });
    expect(v.winner).toBe('A');
    expect(v.positionFlip).toBe(false);
    expect(v.confidence).toBeCloseTo(3 / 9);
    expect(v.details).toMatchObject({ combinedBy: 'sum-scores' });

    // One role strongly for Y, two mildly for X: the totals (26, 40) decide.
    const split = verdictOf(run(cfg, pairwise, prefers({ agent0: [1, 10], agent1: [6, 5], agent2: [6, 5] })).outcome);
    expect(split.scores).toEqual({ a: 26, b: 40 });
    expect(split.winner).toBe('B');
    expect(split.positionFlip).toBe(false);
  });

  it("is the authors' single-agent prompt with the role prompt as one more line", () => {
    const { waves } = run(config({ agents: [{ role: 'Critic' }] }), pairwise, byAgent({ agent0: scores(5, 5) }));
    const prompt = promptText(waves[0]?.[0] as LlmCallRequest);
    const single = CHATEVAL_SINGLE_CODE.replace('{{question}}', pairwise.question)
      .replace('{{answer_a}}', pairwise.answerA)
      .replace('{{answer_b}}', pairwise.answerB);
    expect(prompt.replace(`${CODE_ROLES.Critic}\n`, '')).toBe(single);
    expect(prompt).toContain(`overall performance.\n${CODE_ROLES.Critic}\nPlease first provide`);
  });

  it("Topical-Chat preset: ChatEval's Topical-Chat prompt without the discussion, its three referees, 256 tokens", () => {
    const preset = ensemblePresets.find((p) => p.id === 'ensemble-topical-chat');
    const task: JudgedPointwiseTask = {
      kind: 'pointwise',
      source: 'A: Do you like jazz?',
      context: 'Miles Davis recorded Kind of Blue in 1959.',
      output: 'Kind of Blue came out in 1959!',
      aspect: { name: 'naturalness', scale: { min: 1, max: 3 } },
    };
    const { waves, outcome } = run(
      config(preset?.config),
      task,
      byAgent({ agent0: 'Naturalness: 3', agent1: 'Naturalness: 2', agent2: 'Naturalness: 2' }),
    );
    expect(waves[0]?.map((r) => r.label)).toEqual(TOPICAL_CHAT_ROLES.map((r) => r.name));
    const first = waves[0]?.[0] as LlmCallRequest;
    expect(first.maxTokens).toBe(256);
    expect(first.parser).toEqual({ type: 'last-char' });
    expect(promptText(first)).toBe(
      TOPICAL_CHAT_SOLO_TEMPLATES.naturalness
        .replace('{{source_text}}', task.source)
        .replace('{{reference_text}}', task.context ?? '')
        .replace('{{generated_text}}', task.output)
        .replace('{{role_description}}', TOPICAL_CHAT_ROLES[0]?.description ?? '')
        .replace('{{agent_name}}', 'Critic')
        .replace(
          '{{final_prompt}}',
          'Output with the following format strictly:\nExplaination: [Your explaination]\nNaturalness: [Your answer (scores ONLY)]',
        ),
    );
    expect(verdictOf(outcome).score).toBeCloseTo(7 / 3);
  });

  it('pointwise: mean of the roles’ labelled scores', () => {
    const { waves, outcome } = run(
      config({ agents: [{ role: 'Scientist' }, { role: 'Critic' }] }),
      pointwise,
      byAgent({ agent0: 'Coherence: 4', agent1: 'Coherence: 2' }),
    );
    const first = waves[0]?.[0] as LlmCallRequest;
    expect(first.parser).toEqual({ type: 'labelled-score', label: 'Coherence', min: 1, max: 5 });
    expect(promptText(first)).toContain('Coherence (1-5) How well the summary hangs together.');
    const v = verdictOf(outcome);
    expect(v.score).toBe(3);
    expect(v.confidence).toBe(0.5);
  });
});

describe('ensemble config', () => {
  it('fills defaults and rejects bad templates', () => {
    const c = ensembleConfigSchema.parse({ method: 'ensemble' });
    expect(c.agents).toHaveLength(3);
    expect(c.templates.pairwise).not.toContain('{{chat_history}}');
    expect(c.templates.pairwise).toContain('{{compared_text_one}}');
    // No discussion in the ensemble: the history placeholder is a config error.
    const bad = ensembleConfigSchema.safeParse({
      method: 'ensemble',
      templates: { pairwise: '{{source_text}} {{chat_history}}' },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('{{chat_history}}');
    for (const p of ensemblePresets) expect(ensembleConfigSchema.safeParse(p.config).success, p.id).toBe(true);
  });
});
