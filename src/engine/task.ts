/**
 * @module
 * What is being judged. Two task kinds cover the three papers:
 * - `pairwise`: a question and two answers (ChatEval on FairEval, Bandi et al. and FastChat on MT-Bench);
 * - `pointwise`: one output scored on one aspect with its scale (DEBATE and ChatEval on SummEval /
 *   Topical-Chat, G-Eval-style prompts).
 */
import { z } from 'zod';

/** Largest accepted text field, in characters (a judge prompt must still fit a context window). */
export const MAX_TEXT_CHARS = 100_000;

/** No NUL character anywhere (linear to check; rendered as the field's `pattern` in the API document). */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const NO_NUL = /^[^\u0000]*$/;
/** At least one character that is not whitespace. */
const NOT_BLANK = /\S/;

/**
 * A task text: 1-{@link MAX_TEXT_CHARS} characters, not only whitespace, no NUL. Why: a blank text or a
 * NUL (which many providers reject or truncate at) would be judged as if it were content.
 */
const text = (what: string) =>
  z
    .string()
    .min(1, { message: `${what} must not be empty`, abort: true })
    .max(MAX_TEXT_CHARS, `${what} is longer than ${MAX_TEXT_CHARS} characters`)
    .regex(NO_NUL, `${what} must not contain NUL characters`)
    .refine((s) => NOT_BLANK.test(s), `${what} must not be only whitespace`);

/** A pairwise task: which of two answers to one question is better. */
export const PairwiseTaskSchema = z
  .object({
    kind: z.literal('pairwise'),
    /** The user question both answers respond to. */
    question: text('question'),
    /** The answer shown first (Assistant 1 / A) in the normal order. */
    answerA: text('answerA'),
    /** The answer shown second (Assistant 2 / B) in the normal order. */
    answerB: text('answerB'),
    /** Optional reference answer (FastChat's reference-guided judge, math/coding). */
    reference: text('reference').optional(),
  })
  .strict();
export type PairwiseTask = z.infer<typeof PairwiseTaskSchema>;

/** The aspect a pointwise task is scored on, with its scale (inclusive bounds). */
export const AspectSchema = z
  .object({
    /** Aspect name, e.g. `coherence`, `naturalness`. Presets know the papers' aspects by name. */
    name: z
      .string()
      .min(1, { abort: true })
      .max(64)
      .regex(NO_NUL, 'aspect name must not contain NUL characters')
      .refine((s) => NOT_BLANK.test(s), 'aspect name must not be only whitespace'),
    /** What the aspect means; presets fill it for the papers' aspects when omitted. */
    description: z.string().max(4_000).regex(NO_NUL, 'aspect description must not contain NUL characters').optional(),
    /** Score scale, inclusive; e.g. SummEval 1-5, Topical-Chat naturalness 1-3, groundedness 0-1. */
    scale: z
      .object({ min: z.number().int(), max: z.number().int() })
      .strict()
      .refine((s) => s.max > s.min, 'scale.max must be greater than scale.min'),
  })
  .strict();
export type Aspect = z.infer<typeof AspectSchema>;

/** A pointwise task: score one output on one aspect. */
export const PointwiseTaskSchema = z
  .object({
    kind: z.literal('pointwise'),
    /** The input the output was produced from: a news article, a dialogue history, a question. */
    source: text('source'),
    /** Extra context some aspects need (Topical-Chat's fact for groundedness). */
    context: text('context').optional(),
    /** The output being judged: a summary, a dialogue response, an answer. */
    output: text('output'),
    aspect: AspectSchema,
  })
  .strict();
export type PointwiseTask = z.infer<typeof PointwiseTaskSchema>;

/** Any task; `kind` discriminates. */
export const TaskSchema = z.discriminatedUnion('kind', [PairwiseTaskSchema, PointwiseTaskSchema]);
export type Task = z.infer<typeof TaskSchema>;

/** The same pairwise task with its answers swapped (for position calibration). */
export function swapAnswers(task: PairwiseTask): PairwiseTask {
  return { ...task, answerA: task.answerB, answerB: task.answerA };
}
