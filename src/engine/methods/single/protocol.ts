/**
 * @module
 * Single-judge baselines: one prompt, one parser, `samples` independent samples of it, asked for in one
 * request with `n` where the provider is declared to support it (the core's sampling groups,
 * src/engine/samples.ts), else as separate calls in one wave, each counted. Each choice is parsed as one sample, so the verdict is the same
 * for the same replies either way. Presets reproduce the papers' baselines
 * (`presets.ts`). Aggregation over samples: pair scores → mean per answer, winner by the means; verdicts →
 * majority (a shared top count is a tie); pointwise scores → mean.
 *
 * An unparsed sample (after the core's re-asks) follows `unparsed`: `drop` (default; FairEval drops it),
 * `tie` (ChatEval's script: the item is a tie), `zero` (G-Eval's `parse_output`: it counts as 0, pointwise).
 * Without any parsed sample a pairwise verdict is a tie with confidence 0 and no scores; a pointwise one has no score.
 */
import type { JudgedPointwiseTask, JudgedTask } from '../../judged.js';
import type { FinalReply, MethodDefinition, StepResult } from '../../method.js';
import { resolveAgentParams } from '../../method.js';
import type { ParsedValue, ParserSpec } from '../../parsers/spec.js';
import type { MethodVerdict, Vote } from '../../verdict.js';
import { majority, mean, meanPair, winnerOf } from '../../verdict.js';
import type { SingleAgentConfig } from './config.js';
import { singleAgentConfigSchema } from './config.js';

export type { SingleAgentConfig } from './config.js';
export { singleAgentConfigSchema } from './config.js';
import { checkFits, formDetails, messagesFor, parserFor, templatesFor } from './request.js';
import { SINGLE_SLOTS } from './slots.js';

/** One sample's final reply: its parsed value or why it never parsed. */
type SampleResult = { ok: true; value: ParsedValue } | { ok: false; reason: string };

/** Method state: one slot per sample, null until its final reply arrives. */
export interface SingleAgentState {
  results: (SampleResult | null)[];
}

function sampleIndex(callId: string): number | undefined {
  const m = /^sample(\d+)$/.exec(callId);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/** Width of a scoring parser's scale, for normalising gaps (undefined when the parser has none). */
function scaleOf(spec: ParserSpec): number | undefined {
  if (!('min' in spec) || spec.min === undefined || spec.max === undefined) return undefined;
  return spec.max > spec.min ? spec.max - spec.min : undefined;
}

function conclude(config: SingleAgentConfig, task: JudgedTask, results: readonly SampleResult[]): MethodVerdict {
  const multi = results.length > 1;
  const votes: Vote[] = results.map((r, i) => {
    const vote: Vote = {
      agent: 'judge',
      label: multi ? `${config.label} (sample ${i + 1})` : config.label,
      parsed: r.ok,
    };
    if (!r.ok) return vote;
    const v = r.value;
    if (v.kind === 'pair-scores') return { ...vote, scores: { a: v.a, b: v.b }, winner: winnerOf(v.a, v.b) };
    if (v.kind === 'winner') return { ...vote, winner: v.winner };
    if (v.kind === 'score') return { ...vote, score: v.score };
    return vote;
  });
  const values = results.flatMap((r) => (r.ok ? [r.value] : []));
  const t = templatesFor(config, task);
  const details = { samples: results.length, parsedSamples: values.length, ...formDetails(t) };

  if (task.kind === 'pointwise' && t.form === 'aspects') return concludeAspects(config, task, results, votes, details);
  if (task.kind === 'pointwise') {
    const scores = values.flatMap((v) => (v.kind === 'score' ? [v.score] : []));
    const counted = config.unparsed === 'zero' ? [...scores, ...results.filter((r) => !r.ok).map(() => 0)] : scores;
    if (counted.length === 0) return { votes, confidence: 0, details };
    const range = task.aspect.scale.max - task.aspect.scale.min;
    // Why the sample range: agreeing samples are evidence of a stable score; one sample gives 1.
    return {
      score: mean(counted),
      votes,
      confidence: Math.max(0, 1 - (Math.max(...counted) - Math.min(...counted)) / range),
      details,
    };
  }

  const scores = meanPair(values.flatMap((v) => (v.kind === 'pair-scores' ? [v] : [])));
  if (config.unparsed === 'tie' && values.length < results.length) {
    return {
      winner: 'tie',
      ...(scores ? { scores } : {}),
      votes,
      confidence: 0,
      forceTie: "a reply could not be read; the authors' scoring script counts the item as a tie",
      details,
    };
  }
  if (scores) {
    const gap = Math.abs(scores.a - scores.b);
    const norm = scaleOf(config.parser) ?? Math.max(Math.abs(scores.a), Math.abs(scores.b), 1);
    return { winner: winnerOf(scores.a, scores.b), scores, votes, confidence: Math.min(1, gap / norm), details };
  }
  const { winner, margin } = majority(values.flatMap((v) => (v.kind === 'winner' ? [v.winner] : [])));
  return { winner, votes, confidence: margin, details };
}

/**
 * The one-call form's verdict: each aspect's mean over the samples that read (with `unparsed: 'zero'`, the
 * others count 0), the first reading sample's reason; confidence the mean over aspects of 1 − the samples'
 * range / scale width. The overall score is the core's (src/engine/aspects.ts).
 */
function concludeAspects(
  config: SingleAgentConfig,
  task: JudgedPointwiseTask,
  results: readonly SampleResult[],
  votes: Vote[],
  details: Record<string, unknown>,
): MethodVerdict {
  const read = results.flatMap((r) => (r.ok && r.value.kind === 'aspect-scores' ? [r.value.scores] : []));
  const missing = results.length - read.length;
  const aspects = task.aspects ?? [];
  const each = aspects.map((a) => {
    const got = read.flatMap((scores) => scores.filter((x) => x.name === a.name));
    const counted = [...got.map((x) => x.score), ...(config.unparsed === 'zero' ? Array<number>(missing).fill(0) : [])];
    const width = a.scale.max - a.scale.min;
    const rationale = got.find((x) => x.rationale !== undefined)?.rationale;
    return {
      name: a.name,
      ...(counted.length > 0 ? { score: mean(counted) } : {}),
      ...(rationale !== undefined ? { rationale } : {}),
      confidence: counted.length > 0 ? Math.max(0, 1 - (Math.max(...counted) - Math.min(...counted)) / width) : 0,
    };
  });
  const confidence = each.length > 0 ? mean(each.map((e) => e.confidence)) : 0;
  // The first reading sample's step, as its reason is (samples agree on a step far more often than on text).
  const firstFailingStep = results.flatMap((r) =>
    r.ok && r.value.kind === 'aspect-scores' && r.value.firstFailingStep !== undefined
      ? [r.value.firstFailingStep]
      : [],
  )[0];
  return {
    votes,
    confidence,
    aspectScores: each.map(({ confidence: _c, ...rest }) => rest),
    details,
    ...(firstFailingStep !== undefined ? { firstFailingStep } : {}),
  };
}

/** The single-agent judge: `samples` parallel calls of one prompt, aggregated (see the module doc). */
export const singleAgentMethod: MethodDefinition<SingleAgentConfig, SingleAgentState> = {
  method: 'single',
  // 2: the authors' prompts and read rules, templates by aspect, the template as system message.
  // 3: samples asked in one request with `n` (the calls listed change).
  // 4: G-Eval's prompts sent with LF line endings, as Python's text-mode read sent them; FairEval drops a -1.
  version: 4,
  paper: 'ChatEval single agent; FairEval MEC+BPC; FastChat MT-Bench pair-v2; G-Eval; Bandi et al. baseline',
  taskKinds: ['pairwise', 'pointwise'],
  configSchema: singleAgentConfigSchema,

  init(config, task) {
    checkFits(config, task);
    return { results: Array.from({ length: config.samples }, () => null) };
  },

  step(config, task, state): StepResult {
    const done = state.results.filter((r): r is SampleResult => r !== null);
    if (done.length === state.results.length) return { kind: 'verdict', verdict: conclude(config, task, done) };
    const messages = messagesFor(config, task);
    const params = resolveAgentParams(config.defaults, undefined);
    const parser = parserFor(config, task, templatesFor(config, task));
    // Samples of one prompt: the core asks for them in one request with `n` where the provider takes it.
    const sampleOf = config.samples > 1 ? { sampleOf: 'judge' } : {};
    const calls = state.results.flatMap((r, i) =>
      r !== null
        ? []
        : [
            {
              id: `sample${i}`,
              agent: 'judge',
              label: config.label,
              stage: 'judge',
              messages,
              parser,
              ...params,
              ...sampleOf,
            },
          ],
    );
    return { kind: 'calls', calls };
  },

  reduce(_config, _task, state, reply: FinalReply) {
    const i = sampleIndex(reply.callId);
    if (i === undefined || i >= state.results.length || state.results[i] !== null) return state;
    const result: SampleResult = reply.ok ? { ok: true, value: reply.value } : { ok: false, reason: reply.reason };
    return { results: state.results.map((r, j) => (j === i ? result : r)) };
  },

  plannedCalls(config) {
    // The separate-calls path, an upper bound: a provider with `n` answers every sample in one request.
    return config.samples;
  },

  aspectsAtOnce(config) {
    return config.aspectsInOneCall;
  },

  usesEvaluationSteps(config) {
    // G-Eval's forms: a template with a steps slot, or G-Eval's own prompt files (by aspect).
    const forms = [config.template, config.systemPrompt, ...Object.values(config.templatesByAspect)];
    return forms.some(
      (t) => /\{\{\s*evaluation_steps\s*\}\}/.test(t) || SINGLE_SLOTS.get(t)?.some((p) => p.with === '{{steps}}'),
    );
  },
};
