/**
 * @module
 * The task as a method sees it ("judged"): a request's task and rubric resolved into the fields every method
 * has always read, plus the criteria a rubric puts in the method's slot (./slots.ts).
 *
 * - A conversation (`messages`) is rendered where the question (pairwise) or the source (pointwise) stands,
 *   one rendering for every method ({@link renderConversation}); a one-message conversation is its message,
 *   exactly as a bare question. Methods with a multi-turn form (FastChat) also read `messages`.
 * - A pointwise task is judged on one aspect at a time: its `aspect`, the rubric's (named
 *   {@link OVERALL_ASPECT} unless the task names it), or each of several (`aspects` of the task or of the
 *   rubric: one run per aspect, {@link aspectTask}, unless the method scores them all in one call).
 * - `criteria` holds a rubric's criteria for the slot. Without a rubric it is absent and the judged task
 *   carries exactly the fields the request gave, so every method renders what it always has.
 *
 * A judged task judges to itself ({@link judgedView} is idempotent), so a method that runs other methods
 * (the cascade) hands its stages the judged task.
 */
import { EngineInputError, issuesMessage } from './errors.js';
import type { RubricContent, RubricLevel } from './rubric.js';
import { RubricContentSchema } from './rubric.js';
import type { Aspect, PairwiseMessage, PointwiseMessage, Task, WeightedAspect } from './task.js';
import type { StepRef } from './trajectory.js';
import { stepRefs, trajectoryAsPointwise } from './trajectory.js';

/** A score scale, inclusive. */
export interface Bounds {
  min: number;
  max: number;
}

/** What a rubric puts in a template's criteria slot. */
export interface Criteria {
  /** The criteria text (for a rubric aspect run on its own: the aspect's, then the rubric's). */
  text: string;
  /** G-Eval style evaluation steps, when the rubric (or the aspect) has them. */
  steps?: string;
  /** What each score means, when the rubric's scale says. */
  levels?: readonly RubricLevel[];
}

/** One of several aspects, resolved: its scale, weight and (from a rubric) criteria. */
export interface JudgedAspect {
  name: string;
  /** The task's own description of the aspect (task `aspects`; a rubric aspect has `criteria` instead). */
  description?: string;
  scale: Bounds;
  /** Weight in the overall score, > 0 (default 1). */
  weight: number;
  /** The rubric aspect's own criteria (without the rubric's general criteria). */
  criteria?: Criteria;
}

/** A pairwise task as methods see it: the question always set (rendered from `messages` when given). */
export interface JudgedPairwiseTask {
  kind: 'pairwise';
  question: string;
  answerA: string;
  answerB: string;
  reference?: string;
  /** The conversation the question was rendered from, for methods with a multi-turn form. */
  messages?: PairwiseMessage[];
  /** A rubric's criteria for the slot; absent without a rubric. */
  criteria?: Criteria;
}

/** A pointwise task as methods see it: the source always set, one aspect judged. */
export interface JudgedPointwiseTask {
  kind: 'pointwise';
  source: string;
  context?: string;
  output: string;
  /** The expected output, where the judge's template has a slot for it. */
  reference?: string;
  /** The aspect judged (with several aspects: {@link OVERALL_ASPECT} on the overall scale). */
  aspect: Aspect;
  /** The conversation the source was rendered from. */
  messages?: PointwiseMessage[];
  /** A rubric's criteria for the slot; absent without a rubric. With several aspects: the rubric's general criteria. */
  criteria?: Criteria;
  /** Several aspects, before they are split into one run each (or scored in one call). */
  aspects?: JudgedAspect[];
  /** A trajectory's steps (its output is the rendered run): what a judge's first failing step refers to. */
  steps?: StepRef[];
}

/** Any task as methods see it. */
export type JudgedTask = JudgedPairwiseTask | JudgedPointwiseTask;

/** A task as a request gives it, or as a method saw it (a cascade hands its stages the judged task). */
export type AnyTask = Task | JudgedTask;

/** The aspect a rubric scores when the task names none: `overall`. */
export const OVERALL_ASPECT = 'overall';

/** Heading of a user turn in a rendered conversation. */
const USER = '### User:';
/** Heading of an assistant turn both compared conversations share (or of a pointwise conversation). */
const ASSISTANT = '### Assistant:';
/** Headings of an assistant turn each compared answer's model gave itself, by position. */
const ASSISTANT_OF = {
  a: '### Assistant (in the conversation of the first answer):',
  b: '### Assistant (in the conversation of the second answer):',
} as const;

/**
 * A conversation as one text, where a method's question or source stands: each turn under a `### User:` /
 * `### Assistant:` heading (FastChat's multi-turn layout), turns separated by a blank line; an assistant turn
 * each answer's model gave itself appears twice, under headings naming the first and the second answer (so
 * the text stays right when the answers are swapped). A one-message conversation is that message alone.
 */
export function renderConversation(messages: readonly (PairwiseMessage | PointwiseMessage)[]): string {
  const [only] = messages;
  if (messages.length === 1 && only?.role === 'user') return only.content;
  return messages
    .map((m) => {
      if (m.role === 'user') return `${USER}\n${m.content}`;
      if ('answerA' in m && m.answerA !== undefined && m.answerB !== undefined)
        return `${ASSISTANT_OF.a}\n${m.answerA}\n\n${ASSISTANT_OF.b}\n${m.answerB}`;
      return `${ASSISTANT}\n${m.content ?? ''}`;
    })
    .join('\n\n');
}

/** Parses a rubric at the engine's boundary. @throws EngineInputError naming the field (`rubric.…`). */
export function parseRubric(rubric: unknown): RubricContent {
  const r = RubricContentSchema.safeParse(rubric);
  if (!r.success) throw new EngineInputError(issuesMessage('rubric', r.error), 'invalid_rubric');
  return r.data;
}

function criteriaOf(text: string, steps: string | undefined, levels: readonly RubricLevel[] | undefined): Criteria {
  return {
    text,
    ...(steps !== undefined ? { steps } : {}),
    ...(levels !== undefined && levels.length > 0 ? { levels } : {}),
  };
}

const bounds = (s: Bounds): Bounds => ({ min: s.min, max: s.max });

/** The scale the overall score of several aspects is on: the given one, else the aspects' common one, else 0-1. */
function overallScale(given: Bounds | undefined, aspects: readonly JudgedAspect[]): Bounds {
  if (given) return bounds(given);
  const [first] = aspects;
  if (!first) return { min: 0, max: 1 };
  const common = aspects.every((a) => a.scale.min === first.scale.min && a.scale.max === first.scale.max);
  return common ? bounds(first.scale) : { min: 0, max: 1 };
}

/** The judged criteria a task already carries (a judged task handed on), if any. */
function carried(task: AnyTask): Criteria | undefined {
  return 'criteria' in task ? task.criteria : undefined;
}

function judgedPairwise(task: Extract<AnyTask, { kind: 'pairwise' }>, rubric?: RubricContent): JudgedPairwiseTask {
  const question = task.messages !== undefined ? renderConversation(task.messages) : task.question;
  if (question === undefined) throw new EngineInputError('task.question: give question or messages', 'invalid_task');
  const criteria = rubric ? criteriaOf(rubric.criteria, rubric.evaluationSteps, undefined) : carried(task);
  return {
    kind: 'pairwise',
    question,
    answerA: task.answerA,
    answerB: task.answerB,
    ...(task.reference !== undefined ? { reference: task.reference } : {}),
    ...(task.messages !== undefined ? { messages: task.messages } : {}),
    ...(criteria ? { criteria } : {}),
  };
}

/** Task aspects (weight defaulted) or a judged task's aspects handed on. */
function taskAspects(aspects: readonly (WeightedAspect | JudgedAspect)[]): JudgedAspect[] {
  return aspects.map((a) => ({
    name: a.name,
    ...(a.description !== undefined ? { description: a.description } : {}),
    scale: bounds(a.scale),
    weight: a.weight ?? 1,
    ...('criteria' in a && a.criteria ? { criteria: a.criteria } : {}),
  }));
}

function judgedPointwise(task: Extract<AnyTask, { kind: 'pointwise' }>, rubric?: RubricContent): JudgedPointwiseTask {
  const source = task.messages !== undefined ? renderConversation(task.messages) : task.source;
  if (source === undefined) throw new EngineInputError('task.source: give source or messages', 'invalid_task');
  const base = {
    kind: 'pointwise' as const,
    source,
    ...(task.context !== undefined ? { context: task.context } : {}),
    output: task.output,
    ...(task.reference !== undefined ? { reference: task.reference } : {}),
    ...(task.messages !== undefined ? { messages: task.messages } : {}),
    ...('steps' in task && task.steps !== undefined ? { steps: task.steps } : {}),
  };
  if (rubric) {
    if (task.aspects !== undefined)
      throw new EngineInputError(
        'task.aspects: the rubric says what is scored; leave task.aspects out',
        'invalid_task',
      );
    if (task.aspect?.description !== undefined)
      throw new EngineInputError(
        "task.aspect.description: the rubric's criteria replace it; leave it out",
        'invalid_task',
      );
    if (rubric.aspects !== undefined) {
      if (task.aspect !== undefined)
        throw new EngineInputError(
          "task.aspect: the rubric's aspects say what is scored; leave it out",
          'invalid_task',
        );
      const aspects = rubric.aspects.map((a): JudgedAspect => {
        // The rubric's schema requires a scale wherever an aspect has none.
        const scale = a.scale ?? rubric.scale ?? { min: 0, max: 1 };
        return {
          name: a.name,
          scale: bounds(scale),
          weight: a.weight,
          criteria: criteriaOf(a.criteria, a.evaluationSteps, scale.levels),
        };
      });
      return {
        ...base,
        aspect: { name: OVERALL_ASPECT, scale: overallScale(rubric.scale, aspects) },
        criteria: criteriaOf(rubric.criteria, rubric.evaluationSteps, undefined),
        aspects,
      };
    }
    const scale = rubric.scale ?? { min: 0, max: 1 };
    const own = task.aspect?.scale;
    if (own && (own.min !== scale.min || own.max !== scale.max))
      throw new EngineInputError(
        `rubric.scale: the rubric scores ${scale.min}-${scale.max}, the task's aspect ${own.min}-${own.max}; give one scale`,
        'rubric_task_mismatch',
      );
    return {
      ...base,
      aspect: { name: task.aspect?.name ?? OVERALL_ASPECT, scale: bounds(scale) },
      criteria: criteriaOf(rubric.criteria, rubric.evaluationSteps, scale.levels),
    };
  }
  const criteria = carried(task);
  if (task.aspects !== undefined) {
    const aspects = taskAspects(task.aspects);
    return {
      ...base,
      aspect: { name: OVERALL_ASPECT, scale: overallScale(undefined, aspects) },
      ...(criteria ? { criteria } : {}),
      aspects,
    };
  }
  if (task.aspect === undefined)
    throw new EngineInputError('task.aspect: give aspect, aspects or a rubric', 'invalid_task');
  return { ...base, aspect: task.aspect, ...(criteria ? { criteria } : {}) };
}

/**
 * The task as methods see it (see the module notes). Idempotent on a judged task.
 * @param rubric a parsed rubric ({@link parseRubric}), or none.
 * @throws EngineInputError naming the field: `rubric.kind` for a rubric of the other kind, `task.question`,
 *   `task.source`, `task.aspect`, `task.aspects`, `rubric.scale` for a task the rubric contradicts.
 */
export function judgedView(task: AnyTask, rubric?: RubricContent): JudgedTask {
  // A trajectory is judged as a pointwise task (./trajectory.ts): a pointwise rubric judges it.
  const kind = task.kind === 'trajectory' ? 'pointwise' : task.kind;
  if (rubric && rubric.kind !== kind)
    throw new EngineInputError(
      `rubric.kind: a ${rubric.kind} rubric cannot judge a ${task.kind} task`,
      'rubric_task_mismatch',
    );
  if (task.kind === 'trajectory')
    return { ...judgedPointwise(trajectoryAsPointwise(task, rubric !== undefined), rubric), steps: stepRefs(task) };
  return task.kind === 'pairwise' ? judgedPairwise(task, rubric) : judgedPointwise(task, rubric);
}

/**
 * Aspect `i` of a task with several, as its own run sees it: that aspect judged alone, with the aspect's
 * criteria followed by the rubric's general criteria (a blank line between), the aspect's steps and levels.
 */
export function aspectTask(view: JudgedPointwiseTask, i: number): JudgedPointwiseTask {
  const a = view.aspects?.[i];
  if (!a) throw new Error(`no aspect ${i}`);
  const { aspects: _aspects, criteria: general, ...rest } = view;
  const criteria = a.criteria
    ? { ...a.criteria, text: general ? `${a.criteria.text}\n\n${general.text}` : a.criteria.text }
    : undefined;
  return {
    ...rest,
    aspect: { name: a.name, ...(a.description !== undefined ? { description: a.description } : {}), scale: a.scale },
    ...(criteria ? { criteria } : {}),
  };
}
