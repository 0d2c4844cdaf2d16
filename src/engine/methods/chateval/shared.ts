/**
 * @module
 * What ChatEval and its ensemble baseline share: the config fields for prompts and aggregation, the
 * template values of a task, the final instruction and its parser, and the verdict rules.
 *
 * Aggregation follows the authors' scoring script (`calc_faireval_results_calc_score_calibration.py`,
 * method `average`): an order's winner is the answer with the higher **total** over the agents' final
 * replies; with calibration the core adds the two orders' totals (`sum-scores`), without it the scores
 * reported are the mean over the agents. A final reply the
 * script cannot read makes the whole item a tie (`unparsed: 'tie'`); `unparsed: 'ignore'` leaves it out.
 * `aggregate: 'majority'` is the per-agent vote the conference paper's §2 text describes for verdicts.
 */
import { z } from 'zod';
import type { ParsedValue, ParserSpec } from '../../parsers/spec.js';
import type { JudgedPointwiseTask, JudgedTask } from '../../judged.js';
import { EngineInputError } from '../../errors.js';
import { criteriaText } from '../../slots.js';
import { capitalise, placeholders, renderTemplate } from '../../template.js';
import type { MethodVerdict, Vote } from '../../verdict.js';
import { majority, mean, winnerOf } from '../../verdict.js';
import type { ResolvedAgent } from './roles.js';
import { RoleAssignmentShape } from './roles.js';

/** Pairwise score scale, inclusive (the parser's bounds under `scoreRead: 'lenient'`). Default 1-10 (Table 6). */
export const PairScaleSchema = z
  .object({ min: z.number().int(), max: z.number().int() })
  .strict()
  .refine((s) => s.max > s.min, 'scale.max must be greater than scale.min')
  .default({ min: 1, max: 10 });

/** Fields shared by ChatEval and the ensemble: roles, scale, criteria, how replies are read and aggregated. */
export const JudgePromptShape = {
  ...RoleAssignmentShape,
  scale: PairScaleSchema,
  /** Criteria text by lower-case aspect name, used when a pointwise task gives no `aspect.description`. Default {}. */
  aspectDescriptions: z.record(z.string(), z.string().max(4_000)).default({}),
  /**
   * How a pairwise final reply is read: `script` — the authors' format check and scoring script (no scale
   * check; an unreadable reply is final); `lenient` — our `chateval-scores` rule within `scale`. Default `script`.
   */
  scoreRead: z.enum(['script', 'lenient']).default('script'),
  /**
   * How a pointwise final reply is read: `labelled` — the last `<Aspect>: <score>` within the scale; `last-char`
   * — the authors' Topical-Chat script (the last character of the last line). Default `labelled`.
   */
  pointwiseRead: z.enum(['labelled', 'last-char']).default('labelled'),
  /** Pairwise, per order: `total` — the higher total of the agents' scores wins (authors' script); `majority` — the agents' winners vote. Default `total`. */
  aggregate: z.enum(['total', 'majority']).default('total'),
  /** A final reply that never parsed: `tie` — the item is a tie (authors' script); `ignore` — it adds nothing. Default `tie`. */
  unparsed: z.enum(['tie', 'ignore']).default('tie'),
};

/**
 * The placeholders that are a template's criteria slot (src/engine/slots.ts): a template of the config's own
 * that keeps one takes a rubric, whose criteria fill it; pointwise, without a rubric, the aspect's description.
 */
export const CRITERIA_SLOT_PLACEHOLDERS: readonly string[] = ['criteria', 'aspect_description'];

/** Pairwise task placeholders, with the authors' slot names as aliases of ours, and the criteria slot. */
export const TASK_PAIRWISE = [
  'question',
  'answer_1',
  'answer_2',
  'source_text',
  'compared_text_one',
  'compared_text_two',
  'scale_min',
  'scale_max',
  'role_description',
  'agent_name',
  'final_prompt',
  ...CRITERIA_SLOT_PLACEHOLDERS,
];
/** Pointwise task placeholders, with the authors' slot names (`source_text`, `reference_text`, `generated_text`) as aliases. */
export const TASK_POINTWISE = [
  'source',
  'context',
  'output',
  'source_text',
  'reference_text',
  'generated_text',
  'aspect',
  'aspect_description',
  'scale_min',
  'scale_max',
  'role_description',
  'agent_name',
  'final_prompt',
  'criteria',
];

/** Placeholder values of a task for an agent, given the rendered final instruction ('' before the last turn). */
export function taskVars(
  task: JudgedTask,
  config: { scale: { min: number; max: number }; aspectDescriptions: Record<string, string> },
  agent: ResolvedAgent,
  finalPrompt: string,
): Record<string, string | number> {
  const common = { role_description: agent.description, agent_name: agent.name, final_prompt: finalPrompt };
  if (task.kind === 'pairwise') {
    const { question, answerA, answerB } = task;
    // Only a template of the config's own has these (checked at init by requireCriteriaFor).
    const criteria = task.criteria ? criteriaText(task.criteria, true) : undefined;
    return {
      ...common,
      ...(criteria !== undefined ? { criteria, aspect_description: criteria } : {}),
      question,
      answer_1: answerA,
      answer_2: answerB,
      source_text: question,
      compared_text_one: answerA,
      compared_text_two: answerB,
      scale_min: config.scale.min,
      scale_max: config.scale.max,
    };
  }
  const context = task.context ?? '';
  // A rubric's criteria stand where the aspect's description does (the generic prompt's criteria slot).
  const description = task.criteria
    ? criteriaText(task.criteria, true)
    : (task.aspect.description ?? config.aspectDescriptions[task.aspect.name.toLowerCase()] ?? '');
  return {
    ...common,
    source: task.source,
    context,
    output: task.output,
    source_text: task.source,
    reference_text: context,
    generated_text: task.output,
    aspect: capitalise(task.aspect.name),
    aspect_description: description,
    criteria: description,
    scale_min: task.aspect.scale.min,
    scale_max: task.aspect.scale.max,
  };
}

/**
 * Checks that a pairwise template using a criteria placeholder ({@link CRITERIA_SLOT_PLACEHOLDERS}) has a
 * rubric to fill it (a pairwise task has no criteria of its own).
 * @param where the template and the config field it comes from, for the message.
 * @throws EngineInputError `template_task_mismatch` naming `rubric` and the config field.
 */
export function requireCriteriaFor(task: JudgedTask, where: { field: string; template: string }): void {
  if (task.kind !== 'pairwise' || task.criteria) return;
  const used = placeholders(where.template).find((p) => CRITERIA_SLOT_PLACEHOLDERS.includes(p));
  if (used === undefined) return;
  throw new EngineInputError(
    `rubric: the template in ${where.field} uses {{${used}}}, which a rubric's criteria fill: give a rubric`,
    'template_task_mismatch',
  );
}

/** Settings {@link finalFormat} reads. */
interface FinalSettings {
  scale: { min: number; max: number };
  scoreRead: 'script' | 'lenient';
  pointwiseRead: 'labelled' | 'last-char';
}

/** The final instruction and its parser for a task. */
export function finalFormat(
  task: JudgedTask,
  config: FinalSettings,
  templates: { pairwiseFinal: string; pointwiseFinal: string },
): { prompt: string; parser: ParserSpec } {
  if (task.kind === 'pairwise') {
    const { min, max } = config.scale;
    return {
      prompt: renderTemplate(templates.pairwiseFinal, { aspect: '', scale_min: min, scale_max: max }),
      parser: {
        type: 'chateval-scores',
        min,
        max,
        ...(config.scoreRead === 'script' ? { read: 'script' as const } : {}),
      },
    };
  }
  const { min, max } = task.aspect.scale;
  const label = capitalise(task.aspect.name);
  return {
    prompt: renderTemplate(templates.pointwiseFinal, { aspect: label, scale_min: min, scale_max: max }),
    parser: config.pointwiseRead === 'last-char' ? { type: 'last-char' } : { type: 'labelled-score', label, min, max },
  };
}

/** One agent's vote from its final parse (null = never parsed). */
export function voteOf(task: JudgedTask, agent: ResolvedAgent, value: ParsedValue | null | undefined): Vote {
  const base = { agent: agent.id, label: agent.name };
  if (task.kind === 'pairwise') {
    if (value?.kind !== 'pair-scores') return { ...base, winner: 'tie', parsed: false };
    return { ...base, winner: winnerOf(value.a, value.b), scores: { a: value.a, b: value.b }, parsed: true };
  }
  return value?.kind === 'score' ? { ...base, score: value.score, parsed: true } : { ...base, parsed: false };
}

/** Why an item is a tie under `unparsed: 'tie'`. */
export const UNPARSED_TIE = "a final reply could not be read; the authors' scoring script counts the item as a tie";

/**
 * Pairwise verdict of one order. The higher total over the parsed agents wins (the script's `average`; the
 * mean gives the same winner). Reported `scores`: the totals when the run is position-calibrated, so that
 * `sum-scores` adds up every agent's score over both orders as the script does; otherwise the mean over the
 * agents. `details` carries both. Confidence: the normalised gap of the means (`total`) or the vote margin
 * (`majority`).
 */
export function pairwiseVerdict(
  votes: Vote[],
  config: {
    aggregate: 'total' | 'majority';
    unparsed: 'tie' | 'ignore';
    scale: { min: number; max: number };
    calibration: { enabled: boolean };
  },
  details: Record<string, unknown>,
): MethodVerdict {
  const scored = votes.flatMap((v) => (v.scores ? [v.scores] : []));
  const totals =
    scored.length > 0 ? scored.reduce((t, s) => ({ a: t.a + s.a, b: t.b + s.b }), { a: 0, b: 0 }) : undefined;
  const means = totals ? { a: totals.a / scored.length, b: totals.b / scored.length } : undefined;
  const reported = config.calibration.enabled ? totals : means;
  const tally = { A: 0, B: 0, tie: 0 };
  for (const v of votes) tally[v.winner ?? 'tie'] += 1;
  const info = {
    ...details,
    tally,
    aggregate: config.aggregate,
    ...(totals && means ? { totalScores: totals, meanScores: means } : {}),
  };
  if (config.unparsed === 'tie' && votes.some((v) => !v.parsed)) {
    return {
      winner: 'tie',
      ...(reported ? { scores: reported } : {}),
      votes,
      confidence: 0,
      forceTie: UNPARSED_TIE,
      details: info,
    };
  }
  if (config.aggregate === 'majority') {
    const { winner, margin } = majority(votes.map((v) => v.winner ?? 'tie'));
    return { winner, ...(reported ? { scores: reported } : {}), votes, confidence: margin, details: info };
  }
  if (!totals || !means || !reported)
    return { winner: 'tie', votes, confidence: 0, details: { ...info, noParsedScore: true } };
  const confidence = Math.min(1, Math.abs(means.a - means.b) / (config.scale.max - config.scale.min));
  return { winner: winnerOf(totals.a, totals.b), scores: reported, votes, confidence, details: info };
}

/** Pointwise verdict: mean of the parsed scores (the authors' script); confidence 1 − spread / scale width. */
export function pointwiseVerdict(
  task: JudgedPointwiseTask,
  votes: Vote[],
  details: Record<string, unknown>,
): MethodVerdict {
  const scores = votes.flatMap((v) => (v.score !== undefined ? [v.score] : []));
  if (scores.length === 0) return { votes, confidence: 0, details: { ...details, noParsedScore: true } };
  const width = task.aspect.scale.max - task.aspect.scale.min;
  const spread = Math.max(...scores) - Math.min(...scores);
  return { score: mean(scores), votes, confidence: Math.max(0, 1 - spread / width), details };
}
