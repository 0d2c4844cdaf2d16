/**
 * Samples in one request (OpenAI's `n`): at a provider declared `supportsN`, G-Eval's 20 and FairEval's 3
 * per order go out as one request each; at any other (the default) every sample is its own call, all in one
 * wave, as before `n`; a provider declared `supportsN` that answers with fewer choices is completed by
 * separate calls; the verdict is the same either way for the same replies; usage and call counts are the
 * requests'; replays change nothing, whatever the capability says when they run.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest, LlmCallResult } from '../../src/engine/call.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import type { EngineState } from '../../src/engine/state.js';
import {
  applyResult,
  createEvaluation,
  outcome,
  plannedCalls,
  readyCalls,
  samplesOf,
} from '../../src/engine/protocol.js';
import { usageOf } from '../../src/engine/ledger.js';
import type { PairwiseTask, PointwiseTask } from '../../src/engine/task.js';
import type { Script } from '../support/waves.js';
import { driveByWaves, FAKE_USAGE, verdictOf } from '../support/waves.js';

const single = getMethod('single');
const summary: PointwiseTask = {
  kind: 'pointwise',
  source: 'The article.',
  output: 'The summary.',
  aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
};
const pair: PairwiseTask = { kind: 'pairwise', question: 'Q?', answerA: 'ALPHA answer', answerB: 'BETA answer' };

/** G-Eval replies by sample: 2, 3, 4, 5, 1, … (sample 7 unreadable, counted 0 as G-Eval's parse_output does). */
const gevalReply: Script = (req) => {
  const i = Number(/sample(\d+)$/.exec(req.id)?.[1]);
  return i === 7 ? 'The summary is coherent.' : String((i % 5) + 1);
};

/** FairEval replies by order and sample: AB prefers the first shown answer, BA the second, scores vary by sample. */
const fairevalReply: Script = (req) => {
  const i = Number(/sample(\d+)$/.exec(req.id)?.[1]);
  const ab = req.id.startsWith('ab/');
  return `Both fine.\nScore of the Assistant 1: ${ab ? 8 - i : 5 + i}\nScore of the Assistant 2: ${ab ? 6 : 7}`;
};

const gevalState = (): EngineState =>
  createEvaluation(single, resolveMethodConfig('geval-summeval', undefined), summary);
const fairevalState = (): EngineState =>
  createEvaluation(single, resolveMethodConfig('faireval-mec-bpc', undefined), pair);

/** The capability a driver passes when its provider is declared `supportsN`. */
const WITH_N = { supportsN: () => true };

/** A provider's reply to a request with `n`: the given choices, the request's usage once. */
const reply = (req: LlmCallRequest, choices: string[]): LlmCallResult => ({
  id: req.id,
  ok: true,
  content: choices[0] ?? '',
  choices,
  model: 'm',
  usage: FAKE_USAGE,
});

describe('samples asked in one request with n', () => {
  it('G-Eval at a provider without supportsN (the default): 20 separate calls, all in ONE wave, none with n', () => {
    for (const roundTrip of [false, true]) {
      const { waves, outcome: o } = driveByWaves(single, gevalState(), gevalReply, { roundTrip });
      expect(waves).toHaveLength(1);
      expect(waves[0]?.map((r) => [r.id, r.n])).toEqual(
        Array.from({ length: 20 }, (_, i) => [`sample${i}`, undefined]),
      );
      expect(verdictOf(o)).toMatchObject({ calls: 20, score: 57 / 20 });
    }
    // readyCalls without options, and with a capability that says no for this call, list the same 20.
    const ids = Array.from({ length: 20 }, (_, i) => `sample${i}`);
    expect(readyCalls(single, gevalState()).map((r) => r.id)).toEqual(ids);
    expect(readyCalls(single, gevalState(), { supportsN: (c) => c.provider === 'openai' }).map((r) => r.id)).toEqual(
      ids,
    );
  });

  it('G-Eval: one request with n = 20 and one prompt billed; the same score as 20 separate calls', () => {
    const withN = driveByWaves(single, gevalState(), gevalReply, { roundTrip: true, supportsN: true });
    const separate = driveByWaves(single, gevalState(), gevalReply);
    const ignored = driveByWaves(single, gevalState(), gevalReply, { supportsN: true, ignoreN: true });
    expect(withN.waves.map((w) => w.map((r) => [r.id, r.n]))).toEqual([[['sample0', 20]]]);
    // Declared supportsN but n ignored: the request brings one choice, the 19 missing samples go as separate calls in one more wave.
    expect(ignored.waves.map((w) => w.map((r) => r.id))).toEqual([
      ['sample0'],
      Array.from({ length: 19 }, (_, i) => `sample${i + 1}`),
    ]);
    expect(ignored.waves[1]?.every((r) => r.n === undefined)).toBe(true);
    expect(verdictOf(ignored.outcome).score).toBeCloseTo(57 / 20);

    const a = verdictOf(withN.outcome);
    const b = verdictOf(separate.outcome);
    // Hand computation: samples 0-19 read (i % 5) + 1 except sample 7 (0): 4 × 15 - 3 = 57, over 20.
    expect(a.score).toBeCloseTo(57 / 20);
    expect({
      score: a.score,
      votes: a.votes,
      unparsed: a.unparsed,
      details: a.details,
      confidence: a.confidence,
    }).toEqual({
      score: b.score,
      votes: b.votes,
      unparsed: b.unparsed,
      details: b.details,
      confidence: b.confidence,
    });
    expect(a.calls).toBe(1);
    expect(a.usage).toMatchObject({ promptTokens: 10, completionTokens: 5 });
    expect(b.calls).toBe(20);
    expect(b.usage).toMatchObject({ promptTokens: 200, completionTokens: 100 });
    // Progress is planned for the separate path, the upper bound.
    expect(plannedCalls(single, gevalState())).toBe(20);
  });

  it('the transcript has one entry per choice; further choices name the request and carry no usage', () => {
    const { outcome: o } = driveByWaves(single, gevalState(), gevalReply, { supportsN: true });
    const t = verdictOf(o).transcript;
    expect(t.map((e) => e.callId)).toEqual(Array.from({ length: 20 }, (_, i) => `sample${i}`));
    expect(t[0]).toMatchObject({ content: '1', usage: FAKE_USAGE });
    expect(t[0]?.request).toBeUndefined();
    expect(t[7]).toMatchObject({
      callId: 'sample7',
      request: 'sample0',
      content: 'The summary is coherent.',
      usage: { promptTokens: 0, completionTokens: 0, costUsd: 0 },
    });
    expect(t[7]?.parseError).toBeDefined();
  });

  it('FairEval MEC + BPC: one request with n = 3 per order; the same verdict as six separate calls', () => {
    const withN = driveByWaves(single, fairevalState(), fairevalReply, { supportsN: true });
    const separate = driveByWaves(single, fairevalState(), fairevalReply);
    expect(withN.waves.map((w) => w.map((r) => [r.id, r.n, r.temperature]))).toEqual([
      [
        ['ab/sample0', 3, 1],
        ['ba/sample0', 3, 1],
      ],
    ]);
    expect(separate.waves.map((w) => w.map((r) => [r.id, r.n]))).toEqual([
      [
        ['ab/sample0', undefined],
        ['ab/sample1', undefined],
        ['ab/sample2', undefined],
        ['ba/sample0', undefined],
        ['ba/sample1', undefined],
        ['ba/sample2', undefined],
      ],
    ]);
    const a = verdictOf(withN.outcome);
    const b = verdictOf(separate.outcome);
    // AB: A 8, 7, 6 and B 6; BA mapped back: A 7 and B 5, 6, 7. Pooled: A (21 + 21) / 6 = 7, B (18 + 18) / 6 = 6.
    expect(a).toMatchObject({ winner: 'A', scores: { a: 7, b: 6 }, calls: 2 });
    expect({
      winner: a.winner,
      scores: a.scores,
      votes: a.votes,
      details: a.details,
      confidence: a.confidence,
    }).toEqual({
      winner: b.winner,
      scores: b.scores,
      votes: b.votes,
      details: b.details,
      confidence: b.confidence,
    });
    expect(b.calls).toBe(6);
  });

  it('a short result (5 of 20 choices) is completed by 15 separate calls, each counted', () => {
    let state = gevalState();
    const [group] = readyCalls(single, state, WITH_N);
    if (!group) throw new Error('no request');
    expect(samplesOf(single, state, group.id)).toEqual(Array.from({ length: 20 }, (_, i) => `sample${i}`));
    state = applyResult(single, state, reply(group, ['4', '4', '4', '4', '4']));
    const rest = readyCalls(single, state, WITH_N);
    expect(rest.map((r) => r.id)).toEqual(Array.from({ length: 15 }, (_, i) => `sample${i + 5}`));
    expect(rest.every((r) => r.n === undefined)).toBe(true);
    for (const r of rest)
      state = applyResult(single, state, { id: r.id, ok: true, content: '2', model: 'm', usage: FAKE_USAGE });
    const v = verdictOf(
      outcome(single, state) ?? { status: 'failed', error: { callId: '', code: 'x', message: 'no outcome' } },
    );
    expect(v.score).toBeCloseTo((5 * 4 + 15 * 2) / 20);
    expect(v.calls).toBe(16);
    expect(v.usage.promptTokens).toBe(16 * 10);
    expect(usageOf(state).calls).toBe(16);
  });

  it('a repeated delivery changes nothing: the same request again, or a stale separate result for a sample it answered', () => {
    let state = gevalState();
    const [group] = readyCalls(single, state, WITH_N);
    if (!group) throw new Error('no request');
    const result = reply(
      group,
      Array.from({ length: 20 }, () => '3'),
    );
    state = applyResult(single, state, result);
    const done = JSON.stringify(state);
    expect(JSON.stringify(applyResult(single, state, result))).toBe(done);
    expect(
      JSON.stringify(
        applyResult(single, state, { id: 'sample4', ok: true, content: '5', model: 'm', usage: FAKE_USAGE }),
      ),
    ).toBe(done);
    expect(
      verdictOf(outcome(single, state) ?? { status: 'failed', error: { callId: '', code: 'x', message: '' } }).score,
    ).toBe(3);
    // Replaying the stored result (as a Durable Object does after eviction) rebuilds the same state.
    expect(JSON.stringify(applyResult(single, gevalState(), result))).toBe(done);
  });

  it('a stored result fills as many samples as it has choices whatever the capability says at replay', () => {
    const [group] = readyCalls(single, gevalState(), WITH_N);
    if (!group) throw new Error('no request');
    // Asked with n = 20 while the provider was declared supportsN; replayed after the declaration was dropped.
    let state = applyResult(single, gevalState(), reply(group, ['4', '4', '4', '4', '4']));
    expect(readyCalls(single, state).map((r) => [r.id, r.n])).toEqual(
      Array.from({ length: 15 }, (_, i) => [`sample${i + 5}`, undefined]),
    );
    expect(readyCalls(single, state, WITH_N).map((r) => r.id)).toEqual(readyCalls(single, state).map((r) => r.id));
    state = applyResult(
      single,
      gevalState(),
      reply(
        group,
        Array.from({ length: 20 }, () => '2'),
      ),
    );
    expect(readyCalls(single, state)).toEqual([]);
    expect(outcome(single, state)).toMatchObject({ status: 'succeeded', verdict: { score: 2, calls: 1 } });
  });

  it('with re-asks, an unreadable choice is re-asked as its own call (never again with n)', () => {
    const config = resolveMethodConfig('geval-summeval', { parseRetries: 1 });
    let state = createEvaluation(single, config, summary);
    const [group] = readyCalls(single, state, WITH_N);
    if (!group) throw new Error('no request');
    state = applyResult(single, state, reply(group, ['4', 'unsure', '4']));
    const next = readyCalls(single, state, WITH_N);
    expect(next.map((r) => [r.id, r.n])).toEqual([
      ['sample1#1', undefined],
      ...Array.from({ length: 17 }, (_, i) => [`sample${i + 3}`, undefined]),
    ]);
    expect(next[0]?.messages.at(-2)).toEqual({ role: 'assistant', content: 'unsure' });
  });

  it('a jury asks each juror its samples in a request of its own; a cascade stage sends its samples separately', () => {
    const jury = getMethod('jury');
    const juryConfig = resolveMethodConfig(undefined, {
      method: 'jury',
      judge: { template: '{{question}} {{answer_a}} {{answer_b}}', parser: { type: 'fastchat-verdict' }, samples: 3 },
      jurors: [{ model: 'm1' }, { model: 'm2' }],
    });
    const juryCalls = readyCalls(jury, createEvaluation(jury, juryConfig, pair), WITH_N);
    expect(juryCalls.map((r) => [r.model, r.n])).toEqual([
      ['m1', 3],
      ['m2', 3],
    ]);
    // The capability is per call: a juror whose provider lacks n sends its three samples apart, in the same wave.
    const mixed = readyCalls(jury, createEvaluation(jury, juryConfig, pair), { supportsN: (c) => c.model === 'm1' });
    expect(mixed.map((r) => [r.model, r.n])).toEqual([
      ['m1', 3],
      ['m2', undefined],
      ['m2', undefined],
      ['m2', undefined],
    ]);

    const cascade = getMethod('cascade');
    const cascadeConfig = resolveMethodConfig(undefined, {
      method: 'cascade',
      stages: [{ preset: 'geval-summeval' }, { preset: 'geval-summeval', config: { defaults: { model: 'big' } } }],
    });
    const stage = readyCalls(cascade, createEvaluation(cascade, cascadeConfig, summary), WITH_N);
    expect(stage).toHaveLength(20);
    expect(stage.every((r) => r.n === undefined)).toBe(true);
  });
});
