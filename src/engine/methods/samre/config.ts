/**
 * @module
 * SAMRE's config (see `protocol.ts` for what each rule does) and the shapes its flows share.
 */
import { z } from 'zod';
import { AgentParamsSchema, CommonConfigShape } from '../../method.js';
import type { ParserSpec } from '../../parsers/spec.js';
import { templateField } from '../../template.js';
import type { RepliesState } from '../bandi/index.js';
import { BANDI_JUROR_BACKGROUNDS, FIERCE_ADVOCATE_VARS, JUDGE_ROUND_VARS, JUROR_VARS } from '../bandi/index.js';

/** SAMRE's prompt templates; unset ones are the code's (or the paper's, per `flow`). */
export const samreTemplatesSchema = z
  .object({
    /** Each advocate. Placeholders: question, answer, opponent_answer, feedback, opponent_argument. */
    advocate: templateField(FIERCE_ADVOCATE_VARS),
    /** The judge. Placeholders: question, answer1, answer2, current_round, max_rounds, previous_scores, defense1, defense2. */
    judge: templateField(JUDGE_ROUND_VARS),
    /** Each juror. Placeholders: identity, question, answer1, answer2, context (the debate). */
    juror: templateField(JUROR_VARS),
    /** The code's summarizer of each defence. Placeholder: content. */
    summarizer: templateField(['content']),
  })
  .strict();

/** SAMRE config. Every field is defaulted; `{ method: 'samre' }` is the code's run (`main.py`). */
export const samreConfigSchema = z
  .object({
    method: z.literal('samre'),
    ...CommonConfigShape,
    /** `code` (default): sequential advocates whose defences are summarised, the code's prompts and read rules; `paper`: Alg. 2 / Appendix E.1. */
    flow: z.enum(['code', 'paper']).default('code'),
    /** Rounds, 1-10. Default 4 (§3.2, `main.py`). */
    maxRounds: z.number().int().min(1).max(10).default(4),
    /** Stop when the judge prefers the same answer in two consecutive rounds (Alg. 2 line 5). Default false (the code runs every round). */
    earlyStop: z.boolean().default(false),
    /** Jurors voting after the last round, 0-15; 0 is "SAMRE without Juries". Default 3 (Alg. 2, `main.py`; §3.2's text says 5). */
    jurorCount: z.number().int().min(0).max(15).default(3),
    /** Juror backgrounds, cycled. Default Appendix C.3's five (the code's `jury_identities`). */
    jurorBackgrounds: z
      .array(z.string().min(1).max(500))
      .min(1)
      .max(15)
      .default([...BANDI_JUROR_BACKGROUNDS]),
    /** A judge round without a readable tuple: `zero` counts `(0, 0)` (the code), `skip` leaves it out. Default `zero`. */
    unparsedRound: z.enum(['zero', 'skip']).default('zero'),
    /** Equal juror sums: `tie` (default) or let the judge's mean decide. */
    jurorTie: z.enum(['tie', 'judge-mean']).default('tie'),
    advocates: AgentParamsSchema.default({}),
    judge: AgentParamsSchema.default({}),
    jurors: AgentParamsSchema.default({}),
    /** Model settings of the code flow's summaries. */
    summarizer: AgentParamsSchema.default({}),
    templates: samreTemplatesSchema.prefault({}),
  })
  .strict()
  // Why: with position calibration, any combine but agree-or-tie sums the orders' judge means and takes
  // the winner from them, silently overriding the jury's vote that Alg. 2 makes the decision.
  .refine((c) => c.jurorCount === 0 || !c.calibration.enabled || c.calibration.combine === 'agree-or-tie', {
    path: ['calibration', 'combine'],
    message:
      "with jurors, calibration combine other than 'agree-or-tie' would override the jury's vote; use combine 'agree-or-tie' or jurorCount 0",
  });

/** A resolved SAMRE config. */
export type SamreConfig = z.infer<typeof samreConfigSchema>;

/**
 * Where a budget cut SAMRE (absent in every run without a budget refusal): `rounds`, the complete rounds
 * kept when a round call was refused; `jury`, set once a juror's call was refused (only the jurors who
 * voted count).
 */
export interface SamreCut {
  rounds?: number;
  jury?: true;
}

/** SAMRE's state: final replies by call id; rounds and stop are derived (and capped by a budget `cut`). */
export type SamreState = RepliesState & { cut?: SamreCut };

/** The templates and read rules of a flow. */
export interface SamreTemplates {
  advocate: string;
  judge: string;
  juror: string;
  summarizer: string;
  judgeParser: ParserSpec;
  jurorParser: ParserSpec;
}
