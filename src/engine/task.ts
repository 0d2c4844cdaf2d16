/**
 * @module
 * What is being judged, as a request gives it. Two task kinds cover the three papers:
 * - `pairwise`: a question (or a conversation) and two answers (ChatEval on FairEval, Bandi et al. and
 *   FastChat on MT-Bench);
 * - `pointwise`: one output scored on one aspect with its scale (DEBATE and ChatEval on SummEval /
 *   Topical-Chat, G-Eval-style prompts), or on several aspects.
 * - `trajectory`: an agent's run (the user's request, its steps: model calls, tool calls with arguments and
 *   results, errors; the final answer), scored on trajectory aspects. Methods judge it as a pointwise task
 *   whose output is the rendered run (./trajectory.ts).
 * Methods see the task through `judged.ts`: the conversation rendered where the question stands, one aspect
 * per run, and a rubric's criteria for their slot.
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

/** Most messages a conversation may carry: 64. */
export const MAX_MESSAGES = 64;

/** A user turn of the conversation before the judged reply. */
export const UserMessageSchema = z
  .object({
    role: z.literal('user'),
    /** What the user said. */
    content: text('content'),
  })
  .strict();

/** An assistant turn of the conversation before a scored output. */
export const AssistantMessageSchema = z
  .object({
    role: z.literal('assistant'),
    /** What the assistant said. */
    content: text('content'),
  })
  .strict();

/**
 * An assistant turn before two compared replies: one `content` both conversations share, or `answerA` and
 * `answerB` when each answer's model gave its own earlier reply (MT-Bench's second turn).
 */
export const PairAssistantMessageSchema = z
  .object({
    role: z.literal('assistant'),
    /** The reply both conversations share. */
    content: text('content').optional(),
    /** This turn in the conversation of answer A (with `answerB`, instead of `content`). */
    answerA: text('answerA').optional(),
    /** This turn in the conversation of answer B. */
    answerB: text('answerB').optional(),
    /** A reference answer to the user turn before this one (FastChat's reference-guided multi-turn judge). */
    reference: text('reference').optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const pair = m.answerA !== undefined || m.answerB !== undefined;
    if (m.content !== undefined && pair)
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'give content, or answerA and answerB, not both' });
    else if (!pair && m.content === undefined)
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'give content, or answerA and answerB' });
    else if (pair && (m.answerA === undefined || m.answerB === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [m.answerA === undefined ? 'answerA' : 'answerB'],
        message: 'answerA and answerB go together',
      });
  });

/** One message before a scored output. */
export const PointwiseMessageSchema = z.discriminatedUnion('role', [UserMessageSchema, AssistantMessageSchema]);
export type PointwiseMessage = z.infer<typeof PointwiseMessageSchema>;

/** One message before two compared replies. */
export const PairwiseMessageSchema = z.discriminatedUnion('role', [UserMessageSchema, PairAssistantMessageSchema]);
export type PairwiseMessage = z.infer<typeof PairwiseMessageSchema>;

/** 1-{@link MAX_MESSAGES} messages ending with the user turn the judged reply answers. */
function conversation<T extends z.ZodType<{ role: 'user' | 'assistant' }>>(message: T) {
  return z
    .array(message)
    .min(1)
    .max(MAX_MESSAGES)
    .superRefine((ms, ctx) => {
      if (ms.at(-1)?.role !== 'user')
        ctx.addIssue({
          code: 'custom',
          path: [ms.length - 1, 'role'],
          message: 'the last message is the user turn the judged reply answers: its role must be "user"',
        });
    });
}

/** Exactly one of two alternative fields is given; the issue names the field. */
function oneOf(t: Record<string, unknown>, first: string, second: string, ctx: z.RefinementCtx): void {
  if (t[first] === undefined && t[second] === undefined)
    ctx.addIssue({ code: 'custom', path: [first], message: `give ${first} or ${second}` });
  else if (t[first] !== undefined && t[second] !== undefined)
    ctx.addIssue({ code: 'custom', path: [second], message: `give ${first} or ${second}, not both` });
}

/** A pairwise task: which of two answers is better. */
export const PairwiseTaskSchema = z
  .object({
    kind: z.literal('pairwise'),
    /** The user question both answers respond to (or `messages`). */
    question: text('question').optional(),
    /**
     * The conversation before the two replies, instead of `question`: 1-64 messages, the last one the user's.
     * FastChat's judge takes a two-turn conversation with its multi-turn templates; the other methods show
     * the conversation where the question stands (docs/fidelity.md, "Your own criteria").
     */
    messages: conversation(PairwiseMessageSchema).optional(),
    /** The answer shown first (Assistant 1 / A) in the normal order. */
    answerA: text('answerA'),
    /** The answer shown second (Assistant 2 / B) in the normal order. */
    answerB: text('answerB'),
    /** Optional reference answer (FastChat's reference-guided judge, math/coding). */
    reference: text('reference').optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    oneOf(t, 'question', 'messages', ctx);
  });
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

/** Most aspects a task may carry: 16. */
export const MAX_TASK_ASPECTS = 16;

/** One of several aspects of a task (`aspects`): an aspect with its weight in the overall score. */
export const WeightedAspectSchema = AspectSchema.extend({
  /** Weight in the overall score, > 0. Default 1. */
  weight: z.number().positive().optional(),
}).strict();
export type WeightedAspect = z.infer<typeof WeightedAspectSchema>;

/** A pointwise task: score one output on one aspect, or on several. */
export const PointwiseTaskSchema = z
  .object({
    kind: z.literal('pointwise'),
    /** The input the output was produced from: a news article, a dialogue history, a question (or `messages`). */
    source: text('source').optional(),
    /** The conversation before the judged output, instead of `source`: 1-64 messages, the last one the user's. */
    messages: conversation(PointwiseMessageSchema).optional(),
    /** Extra context some aspects need (Topical-Chat's fact for groundedness). */
    context: text('context').optional(),
    /** The output being judged: a summary, a dialogue response, an answer. */
    output: text('output'),
    /**
     * The expected output (a reference answer: DeepEval's `expected_output`, OpenAI Evals' `fact`). Only a judge
     * whose pointwise template has a `{{reference}}` slot takes it (the single judge with a template of the
     * caller's); for any other it is a 400 naming this field, never ignored.
     */
    reference: text('reference').optional(),
    /** The aspect scored. Required unless `aspects` or a rubric says what is scored. */
    aspect: AspectSchema.optional(),
    /** Several aspects, each scored on its own, with a weighted overall (instead of `aspect`): 1-16, names unique. */
    aspects: z
      .array(WeightedAspectSchema)
      .min(1)
      .max(MAX_TASK_ASPECTS)
      .superRefine((as, ctx) => {
        const seen = new Set<string>();
        as.forEach((a, i) => {
          if (seen.has(a.name))
            ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `aspect name "${a.name}" is used twice` });
          seen.add(a.name);
        });
      })
      .optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    oneOf(t, 'source', 'messages', ctx);
    if (t.aspect !== undefined && t.aspects !== undefined)
      ctx.addIssue({ code: 'custom', path: ['aspects'], message: 'give aspect or aspects, not both' });
  });
export type PointwiseTask = z.infer<typeof PointwiseTaskSchema>;

/** Most steps a trajectory may carry: 200. */
export const MAX_TRAJECTORY_STEPS = 200;

/** What one step of an agent's run was. */
export const TrajectoryStepTypeSchema = z.enum(['llm', 'tool', 'message', 'error']);

/** One step of an agent's run, in the order it happened. */
export const TrajectoryStepSchema = z
  .object({
    /** `llm` (a model call), `tool` (a tool call), `message` (a message shown to the user), `error`. */
    type: TrajectoryStepTypeSchema,
    /** The span the step came from (16 hex digits in OTLP), echoed in `firstFailingStep`. */
    spanId: z.string().min(1).max(64).regex(NO_NUL, 'spanId must not contain NUL characters').optional(),
    /** The model (llm) or the tool (tool) called, or the agent that spoke. */
    name: z.string().min(1).max(200).regex(NO_NUL, 'name must not contain NUL characters').optional(),
    /** What went in: the prompt (llm), the arguments (tool, as JSON text). */
    input: text('input').optional(),
    /** What came out: the reply (llm), the result (tool), the message. */
    output: text('output').optional(),
    /** What failed, when the step failed (any type). */
    error: text('error').optional(),
  })
  .strict();
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;

/**
 * An agent's run, judged on trajectory aspects (task completion, tool selection, argument correctness, plan
 * adherence, step efficiency, error recovery by default: src/engine/trajectory.ts), or on a pointwise rubric.
 */
export const TrajectoryTaskSchema = z
  .object({
    kind: z.literal('trajectory'),
    /** What the user asked the agent (or `messages`). */
    request: text('request').optional(),
    /** The conversation before the run, instead of `request`: 1-64 messages, the last one the user's. */
    messages: conversation(PointwiseMessageSchema).optional(),
    /** The steps, in order: 1-200. */
    steps: z.array(TrajectoryStepSchema).min(1).max(MAX_TRAJECTORY_STEPS),
    /** What the agent finally answered, if it did. */
    finalAnswer: text('finalAnswer').optional(),
    /** Several aspects instead of the default trajectory aspects: 1-16, names unique. */
    aspects: z.array(WeightedAspectSchema).min(1).max(MAX_TASK_ASPECTS).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    oneOf(t, 'request', 'messages', ctx);
    if (t.aspects) {
      const seen = new Set<string>();
      t.aspects.forEach((a, i) => {
        if (seen.has(a.name))
          ctx.addIssue({
            code: 'custom',
            path: ['aspects', i, 'name'],
            message: `aspect name "${a.name}" is used twice`,
          });
        seen.add(a.name);
      });
    }
  });
export type TrajectoryTask = z.infer<typeof TrajectoryTaskSchema>;

/** Any task; `kind` discriminates. */
export const TaskSchema = z.discriminatedUnion('kind', [PairwiseTaskSchema, PointwiseTaskSchema, TrajectoryTaskSchema]);
export type Task = z.infer<typeof TaskSchema>;

/**
 * The same pairwise task with its answers swapped (for position calibration): the answers, and each earlier
 * assistant turn each answer's model gave itself.
 */
export function swapAnswers<T extends { answerA: string; answerB: string; messages?: readonly PairwiseMessage[] }>(
  task: T,
): T {
  const swapped = { ...task, answerA: task.answerB, answerB: task.answerA };
  if (task.messages === undefined) return swapped;
  return {
    ...swapped,
    messages: task.messages.map((m) =>
      m.role === 'assistant' && m.answerA !== undefined && m.answerB !== undefined
        ? { ...m, answerA: m.answerB, answerB: m.answerA }
        : m,
    ),
  };
}
