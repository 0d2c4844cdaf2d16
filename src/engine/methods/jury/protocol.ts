/**
 * @module
 * A jury (PoLL, Verga et al. 2024, "Replacing Judges with Juries"): k single judges with one prompt, each on
 * its own model and provider, all in one parallel wave; their judgements are pooled. Each juror is the
 * single-judge method (`../single/`) with the jury's `judge` prompt and reader and its own model settings,
 * so a juror reads, samples and treats unparsed replies exactly as a single judge with that config does.
 *
 * Pooling (`aggregate`), over the jurors with at least one parsed reply (the others abstain):
 * - pairwise `vote` (default; PoLL's max voting): the majority of the jurors' winners, a shared top count is
 *   a tie; confidence = (top − second) / jurors counted;
 * - pairwise `mean` (PoLL's average pooling, for scoring readers): each answer's mean score over the jurors,
 *   the higher mean wins; confidence = the gap over the reader's scale;
 * - pointwise `mean` (default): the mean of the jurors' scores; confidence = 1 − spread / scale;
 * - pointwise `vote`: the most frequent juror score (when several share the top count, their mean);
 *   confidence = (top − second) / jurors counted.
 * Without any counted juror a pairwise verdict is a tie with confidence 0 and a pointwise one has no score.
 * Both orders are the core's position calibration (`calibration`), as for every method: call ids are
 * `[ab/|ba/]juror<k>/sample<i>`.
 */
import { z } from 'zod';
import type { FinalReply, MethodDefinition, StepResult } from '../../method.js';
import { AgentParamsSchema, CommonConfigShape } from '../../method.js';
import type { ParserSpec } from '../../parsers/spec.js';
import { EngineInputError } from '../../errors.js';
import type { JudgedTask } from '../../judged.js';
import type { MethodVerdict, Vote, Winner } from '../../verdict.js';
import { majority, mean, meanPair, winnerOf } from '../../verdict.js';
import type { SingleAgentConfig, SingleAgentState } from '../single/index.js';
import { singleAgentConfigSchema, singleAgentMethod } from '../single/index.js';

/** The jury's own protocol version; its `version` also carries the single judge's (see {@link juryMethod}). */
const JURY_PROTOCOL_VERSION = 1;

// The jury's `judge` is a single judge's prompt and reader: every single-judge field except those the jury
// owns (model settings per juror, re-asks and calibration for the whole jury, the label per juror).
const {
  method: _method,
  parseRetries: _parseRetries,
  repair: _repair,
  defaults: _defaults,
  calibration: _calibration,
  label: _label,
  ...JUDGE_SHAPE
} = singleAgentConfigSchema.shape;

/** The prompt and reader every juror uses: the single-judge fields (template, parser, samples, unparsed, …). */
export const JuryJudgeSchema = z.object(JUDGE_SHAPE).strict();

/** One juror: its model settings (over the jury's `defaults`) and display name. */
export const JurorSchema = AgentParamsSchema.extend({
  /** Display name in votes and transcripts. Default `Juror <n> (<model>)`. */
  label: z.string().min(1).max(64).optional(),
}).strict();
export type Juror = z.infer<typeof JurorSchema>;

/** How the jurors' judgements are pooled: `auto` = `vote` for pairwise tasks, `mean` for pointwise ones. */
export const JURY_AGGREGATES = ['auto', 'vote', 'mean'] as const;

/** Jury config. Defaults: three jurors on the deployment's default model, ChatEval's single-agent prompt. */
export const juryConfigSchema = z
  .object({
    method: z.literal('jury'),
    ...CommonConfigShape,
    /** The judge every juror runs (a single judge's fields). Default: the single judge's defaults. */
    judge: JuryJudgeSchema.prefault({}),
    /** 1-9 jurors, each on its own model / provider. Default three with the `defaults` model. */
    jurors: z.array(JurorSchema).min(1).max(9).default([{}, {}, {}]),
    /** Pooling: `vote`, `mean`, or `auto` (vote pairwise, mean pointwise). Default `auto`. */
    aggregate: z.enum(JURY_AGGREGATES).default('auto'),
  })
  .strict()
  .superRefine((c, ctx) => {
    // The judge is validated as the single judge it becomes, so its errors read the same.
    const r = singleAgentConfigSchema.safeParse({ ...c.judge, method: 'single' });
    if (!r.success)
      for (const issue of r.error.issues)
        ctx.addIssue({ code: 'custom', path: ['judge', ...issue.path.map(String)], message: issue.message });
  });
export type JuryConfig = z.infer<typeof juryConfigSchema>;

/** Jury state: each juror's single-judge state. Plain JSON. */
export interface JuryState {
  jurors: SingleAgentState[];
}

/** The display name of juror `k`. */
export function jurorLabel(juror: Juror, k: number): string {
  return juror.label ?? `Juror ${k + 1}${juror.model !== undefined ? ` (${juror.model})` : ''}`;
}

/** Juror `k` as the single judge it runs: the jury's judge, re-ask rule and defaults, its own model settings. */
export function jurorConfig(config: JuryConfig, k: number): SingleAgentConfig {
  const juror = config.jurors[k] ?? {};
  const { label: _jurorLabel, ...params } = juror;
  return {
    ...config.judge,
    method: 'single',
    parseRetries: config.parseRetries,
    repair: config.repair,
    calibration: { enabled: false, combine: 'agree-or-tie' },
    defaults: { ...config.defaults, ...params },
    label: jurorLabel(juror, k),
  };
}

/** True for readers that give each answer a score (the others give a winner only). */
function scoresPairs(parser: ParserSpec): boolean {
  switch (parser.type) {
    case 'chateval-scores':
    case 'score-tuple':
    case 'faireval-scores':
    case 'bandi-tuple':
      return true;
    case 'json':
      return parser.shape === 'pair-scores';
    default:
      return false;
  }
}

/** The pooling rule for this task. */
function aggregateOf(config: JuryConfig, task: JudgedTask): 'vote' | 'mean' {
  return config.aggregate === 'auto' ? (task.kind === 'pairwise' ? 'vote' : 'mean') : config.aggregate;
}

/** Width of the reader's scale for normalising a score gap (pairwise) or spread; undefined when it has none. */
function scaleWidth(parser: ParserSpec, task: JudgedTask): number | undefined {
  if (task.kind === 'pointwise') return task.aspect.scale.max - task.aspect.scale.min;
  if (!('min' in parser) || parser.min === undefined || parser.max === undefined) return undefined;
  return parser.max > parser.min ? parser.max - parser.min : undefined;
}

const callPrefix = (k: number) => `juror${k}/`;

/** Splits `juror2/sample0` into juror 2 and its single-judge call id `sample0`. */
function jurorOf(callId: string): { k: number; inner: string } | undefined {
  const m = /^juror(\d+)\/(.+)$/.exec(callId);
  return m?.[1] === undefined || m[2] === undefined ? undefined : { k: Number(m[1]), inner: m[2] };
}

/** The most frequent score; several sharing the top count give their mean. With the vote margin. */
function modalScore(scores: readonly number[]): { score: number; margin: number } {
  const counts = new Map<number, number>();
  for (const s of scores) counts.set(s, (counts.get(s) ?? 0) + 1);
  const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const top = sorted[0]?.[1] ?? 0;
  const tied = sorted.filter(([, n]) => n === top).map(([s]) => s);
  const second = sorted.find(([, n]) => n < top)?.[1] ?? (tied.length > 1 ? top : 0);
  return { score: mean(tied), margin: (top - second) / scores.length };
}

/** Pools the jurors' verdicts (in juror order) into the jury's verdict for one presentation order. */
export function poolJurors(config: JuryConfig, task: JudgedTask, verdicts: readonly MethodVerdict[]): MethodVerdict {
  const rule = aggregateOf(config, task);
  const counted = verdicts.map((v) => v.votes.some((x) => x.parsed));
  const votes: Vote[] = verdicts.map((v, k) => ({
    agent: `juror${k}`,
    label: jurorLabel(config.jurors[k] ?? {}, k),
    parsed: counted[k] === true,
    ...(counted[k] && v.winner !== undefined ? { winner: v.winner } : {}),
    ...(counted[k] && v.scores ? { scores: v.scores } : {}),
    ...(counted[k] && v.score !== undefined ? { score: v.score } : {}),
  }));
  const used = votes.filter((v) => v.parsed);
  const details = {
    aggregate: rule,
    jurorsCounted: used.length,
    jurors: config.jurors.map((j, k) => ({
      label: jurorLabel(j, k),
      ...(j.model !== undefined ? { model: j.model } : {}),
      ...(j.provider !== undefined ? { provider: j.provider } : {}),
      counted: counted[k] === true,
    })),
  };
  const width = scaleWidth(config.judge.parser, task);

  if (task.kind === 'pointwise') {
    const scores = used.flatMap((v) => (v.score !== undefined ? [v.score] : []));
    if (scores.length === 0) return { votes, confidence: 0, details };
    if (rule === 'vote') {
      const { score, margin } = modalScore(scores);
      return { score, votes, confidence: margin, details };
    }
    const spread = Math.max(...scores) - Math.min(...scores);
    return { score: mean(scores), votes, confidence: Math.max(0, 1 - spread / (width ?? 1)), details };
  }

  const scores = meanPair(used.flatMap((v) => (v.scores ? [v.scores] : [])));
  if (rule === 'mean') {
    if (!scores) return { winner: 'tie', votes, confidence: 0, details };
    const gap = Math.abs(scores.a - scores.b);
    const norm = width ?? Math.max(Math.abs(scores.a), Math.abs(scores.b), 1);
    return { winner: winnerOf(scores.a, scores.b), scores, votes, confidence: Math.min(1, gap / norm), details };
  }
  const winners = used.flatMap((v): Winner[] => (v.winner !== undefined ? [v.winner] : []));
  const { winner, margin } = majority(winners);
  return { winner, ...(scores ? { scores } : {}), votes, confidence: margin, details };
}

/** The jury as a {@link MethodDefinition}. */
export const juryMethod: MethodDefinition<JuryConfig, JuryState> = {
  method: 'jury',
  // The jury replays through the single judge's steps: its version moves when either changes.
  version: JURY_PROTOCOL_VERSION * 100 + (singleAgentMethod.version ?? 1),
  paper: 'Verga et al. 2024, Replacing Judges with Juries (PoLL), arXiv 2404.18796 §2-3',
  taskKinds: ['pairwise', 'pointwise'],
  configSchema: juryConfigSchema,

  init(config, task) {
    if (task.kind === 'pairwise' && aggregateOf(config, task) === 'mean' && !scoresPairs(config.judge.parser)) {
      throw new EngineInputError(
        `aggregate "mean" needs a reader that scores both answers; parser "${config.judge.parser.type}" gives a winner only: use aggregate "vote"`,
        'aggregate_parser_mismatch',
      );
    }
    return { jurors: config.jurors.map((_, k) => singleAgentMethod.init(jurorConfig(config, k), task)) };
  },

  step(config, task, state): StepResult {
    const calls = [];
    const verdicts: MethodVerdict[] = [];
    for (const [k, juror] of state.jurors.entries()) {
      const r = singleAgentMethod.step(jurorConfig(config, k), task, juror);
      if (r.kind === 'verdict') verdicts.push(r.verdict);
      // Each juror's samples are a sampling group of their own (one request with `n` per juror).
      else
        calls.push(
          ...r.calls.map((c) => ({
            ...c,
            id: callPrefix(k) + c.id,
            agent: `juror${k}`,
            stage: 'jury',
            ...(c.sampleOf !== undefined ? { sampleOf: callPrefix(k) + c.sampleOf } : {}),
          })),
        );
    }
    if (calls.length > 0) return { kind: 'calls', calls };
    return { kind: 'verdict', verdict: poolJurors(config, task, verdicts) };
  },

  reduce(config, task, state, reply: FinalReply): JuryState {
    const at = jurorOf(reply.callId);
    const juror = at ? state.jurors[at.k] : undefined;
    if (!at || !juror) return state;
    const next = singleAgentMethod.reduce(jurorConfig(config, at.k), task, juror, { ...reply, callId: at.inner });
    return { jurors: state.jurors.map((j, k) => (k === at.k ? next : j)) };
  },

  plannedCalls(config): number {
    return config.jurors.length * config.judge.samples;
  },

  usesEvaluationSteps(config): boolean {
    return singleAgentMethod.usesEvaluationSteps?.(jurorConfig(config, 0)) ?? false;
  },
};
