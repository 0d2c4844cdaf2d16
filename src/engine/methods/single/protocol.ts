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
import { z } from 'zod';
import type { FinalReply, MethodDefinition, StepResult } from '../../method.js';
import { CommonConfigShape, resolveAgentParams } from '../../method.js';
import type { ParsedValue, ParserSpec } from '../../parsers/spec.js';
import { ParserSpecSchema } from '../../parsers/spec.js';
import { EngineInputError } from '../../protocol.js';
import type { JudgedTask } from '../../judged.js';
import { capitalise, renderTemplate, templateField, templateText, unknownPlaceholders } from '../../template.js';
import type { MethodVerdict, Vote } from '../../verdict.js';
import { majority, mean, meanPair, winnerOf } from '../../verdict.js';
import { CHATEVAL_SINGLE_CODE } from '../chateval/index.js';
import { ASPECT_DESCRIPTIONS, ASPECT_SETS, GENERIC_STEPS } from './aspects.js';

/** Placeholders a pairwise template may use; `reference` renders `(none)` when the task has none. */
export const PAIRWISE_PLACEHOLDERS = ['question', 'answer_a', 'answer_b', 'reference'] as const;

/**
 * Placeholders a pointwise template may use. `aspect` is the aspect name capitalised, `min`/`max` the task's
 * scale, `context` renders `(none)` when the task has none; `Document` / `Summary` are G-Eval's own slot names
 * for the source and the output.
 */
export const POINTWISE_PLACEHOLDERS = [
  'source',
  'context',
  'output',
  'aspect',
  'aspect_description',
  'evaluation_steps',
  'min',
  'max',
  'Document',
  'Summary',
] as const;

const ALL_PLACEHOLDERS: readonly string[] = [...PAIRWISE_PLACEHOLDERS, ...POINTWISE_PLACEHOLDERS];

/** Kind of value a parser yields, to check it fits the task kind. */
function yields(spec: ParserSpec): 'pair' | 'score' | 'none' {
  switch (spec.type) {
    case 'chateval-scores':
    case 'score-tuple':
    case 'fastchat-verdict':
    case 'assistant-choice':
    case 'faireval-scores':
    case 'bandi-tuple':
      return 'pair';
    case 'leading-number':
    case 'labelled-score':
    case 'geval-score':
    case 'last-char':
    case 'debate-score':
      return 'score';
    case 'json':
      return spec.shape === 'score' ? 'score' : 'pair';
    case 'text':
    case 'critique':
      return 'none';
  }
}

/** Config of the single-agent judge. Every field has a default (ChatEval's single-agent pairwise setup). */
export const singleAgentConfigSchema = z
  .object({
    method: z.literal('single'),
    ...CommonConfigShape,
    /** System message; empty (default) sends none. Placeholders as in `template`. */
    systemPrompt: templateText(ALL_PLACEHOLDERS).default(''),
    /** The prompt template. Default: ChatEval's single-agent config prompt (pairwise). */
    template: templateField(ALL_PLACEHOLDERS, CHATEVAL_SINGLE_CODE),
    /** Pointwise: templates by lower-case aspect name, used instead of `template` for those aspects. Default {}. */
    templatesByAspect: z.record(z.string(), templateText(ALL_PLACEHOLDERS)).default({}),
    /** Where the template goes: a `user` message (default) or the `system` message (G-Eval sends its form as the system message). */
    templateRole: z.enum(['user', 'system']).default('user'),
    /** System message used instead of `systemPrompt` when a pairwise task has a `reference` and `referenceTemplate` is set. Default empty. */
    referenceSystemPrompt: templateText(ALL_PLACEHOLDERS).default(''),
    /** User template used when a pairwise task has a `reference`; empty (default) keeps `template`. */
    referenceTemplate: templateText(ALL_PLACEHOLDERS).default(''),
    /** How replies are parsed. Default `chateval-scores` with the authors' script read. Scoring parsers with bounds take the pointwise aspect's scale. */
    parser: ParserSpecSchema.default({ type: 'chateval-scores', min: 1, max: 10, read: 'script' }),
    /** Independent samples per order, 1-20, asked in one request with `n` (separate calls where the provider lacks it). Default 1. */
    samples: z.number().int().min(1).max(20).default(1),
    /** An unparsed sample: `drop` it, make the item a `tie`, or count it as `zero` (pointwise). Default `drop`. */
    unparsed: z.enum(['drop', 'tie', 'zero']).default('drop'),
    /** Which known aspect descriptions pointwise tasks use when they bring none. Default `summeval`. */
    aspectSet: z.enum(ASPECT_SETS).default('summeval'),
    /** The judge's display name in votes and transcripts. Default `Judge`. */
    label: z.string().min(1).max(64).default('Judge'),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (yields(c.parser) === 'none')
      ctx.addIssue({
        code: 'custom',
        path: ['parser'],
        message: `parser "${c.parser.type}" yields no score or winner`,
      });
  });
export type SingleAgentConfig = z.infer<typeof singleAgentConfigSchema>;

/** One sample's final reply: its parsed value or why it never parsed. */
type SampleResult = { ok: true; value: ParsedValue } | { ok: false; reason: string };

/** Method state: one slot per sample, null until its final reply arrives. */
export interface SingleAgentState {
  results: (SampleResult | null)[];
}

/** The parser for this task: pointwise scoring parsers with bounds take the aspect's scale. */
function parserFor(config: SingleAgentConfig, task: JudgedTask): ParserSpec {
  const spec = config.parser;
  if (task.kind !== 'pointwise' || !('min' in spec)) return spec;
  return { ...spec, min: task.aspect.scale.min, max: task.aspect.scale.max };
}

/** The (system, prompt) templates for this task. */
function templatesFor(
  config: SingleAgentConfig,
  task: JudgedTask,
): { system: string; user: string; reference: boolean } {
  if (task.kind === 'pairwise' && task.reference !== undefined && config.referenceTemplate !== '') {
    return { system: config.referenceSystemPrompt, user: config.referenceTemplate, reference: true };
  }
  const byAspect = task.kind === 'pointwise' ? config.templatesByAspect[task.aspect.name.toLowerCase()] : undefined;
  return { system: config.systemPrompt, user: byAspect ?? config.template, reference: false };
}

/** Template values for the task; missing optional task fields render as `(none)`. */
function varsFor(config: SingleAgentConfig, task: JudgedTask): Record<string, string | number> {
  if (task.kind === 'pairwise') {
    return {
      question: task.question,
      answer_a: task.answerA,
      answer_b: task.answerB,
      reference: task.reference ?? '(none)',
    };
  }
  const { name, scale } = task.aspect;
  const known = ASPECT_DESCRIPTIONS[config.aspectSet][name.toLowerCase()];
  const scaleVars = { aspect: capitalise(name), min: scale.min, max: scale.max };
  return {
    ...scaleVars,
    source: task.source,
    Document: task.source,
    context: task.context ?? '(none)',
    output: task.output,
    Summary: task.output,
    aspect_description: task.aspect.description ?? known?.description ?? '',
    evaluation_steps: renderTemplate(known?.steps ?? GENERIC_STEPS, scaleVars),
  };
}

/** Checks the config fits the task kind; @throws EngineInputError when it does not. */
function checkFits(config: SingleAgentConfig, task: JudgedTask): void {
  const { system, user } = templatesFor(config, task);
  const allowed: readonly string[] = task.kind === 'pairwise' ? PAIRWISE_PLACEHOLDERS : POINTWISE_PLACEHOLDERS;
  const bad = [...new Set([...unknownPlaceholders(system, allowed), ...unknownPlaceholders(user, allowed)])];
  if (bad.length > 0) {
    throw new EngineInputError(
      `the template uses ${bad.map((b) => `{{${b}}}`).join(', ')}, which a ${task.kind} task does not provide; use a ${task.kind} preset or template`,
      'template_task_mismatch',
    );
  }
  const want = task.kind === 'pairwise' ? 'pair' : 'score';
  if (yields(config.parser) !== want)
    throw new EngineInputError(
      `parser "${config.parser.type}" does not fit a ${task.kind} task`,
      'parser_task_mismatch',
    );
  if (task.kind === 'pointwise' && /\{\{\s*aspect_description\s*\}\}/.test(user + system)) {
    const known = ASPECT_DESCRIPTIONS[config.aspectSet][task.aspect.name.toLowerCase()];
    if (task.aspect.description === undefined && !known) {
      throw new EngineInputError(
        `aspect "${task.aspect.name}" is not in the ${config.aspectSet} set (${Object.keys(ASPECT_DESCRIPTIONS[config.aspectSet]).join(', ')}); give aspect.description`,
        'aspect_description_required',
      );
    }
  }
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
  const details = {
    samples: results.length,
    parsedSamples: values.length,
    usedReference: templatesFor(config, task).reference,
  };

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
    const { system, user } = templatesFor(config, task);
    const vars = varsFor(config, task);
    const prompt = renderTemplate(user, vars);
    const messages =
      config.templateRole === 'system'
        ? [{ role: 'system' as const, content: prompt }]
        : [
            ...(system !== '' ? [{ role: 'system' as const, content: renderTemplate(system, vars) }] : []),
            { role: 'user' as const, content: prompt },
          ];
    const params = resolveAgentParams(config.defaults, undefined);
    const parser = parserFor(config, task);
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
};
