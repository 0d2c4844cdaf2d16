/**
 * @module
 * Trajectory tasks as methods see them: an agent's run rendered as one numbered text (each step with its type,
 * name, input, output and error, and its span id), judged as a pointwise task on trajectory aspects. Every
 * method that scores pointwise tasks (single judges, juries, ChatEval's and DEBATE's pointwise forms) thus
 * judges trajectories unchanged; the one-call form also names the first failing step (`firstFailingStep`).
 */
import type { PointwiseTask, TrajectoryStep, TrajectoryTask, WeightedAspect } from './task.js';

/**
 * The default trajectory aspects, each 1-5 with weight 1 (ours, after the agent-evaluation aspects in
 * DeepEval, MLflow and TRAJECT-Bench): what a task without `aspects` or a rubric is scored on.
 */
export const TRAJECTORY_ASPECTS: readonly WeightedAspect[] = [
  {
    name: 'task_completion',
    description:
      'did the run achieve what the user asked? 5: fully and correctly; 3: partly, or with errors the user must fix; 1: not at all, or the final answer is wrong.',
  },
  {
    name: 'tool_selection',
    description:
      'did the agent call the right tools for each need, and no needless ones? 5: every call was the right tool; 1: wrong tools, or tools called where none was needed.',
  },
  {
    name: 'argument_correctness',
    description:
      "were the tools' arguments right (values taken from the request and earlier results, well formed)? 5: all correct; 1: wrong or invented arguments.",
  },
  {
    name: 'plan_adherence',
    description:
      "did the steps follow a sensible plan toward the request, and the agent's own stated plan? 5: coherent and followed; 1: aimless or contradicting itself.",
  },
  {
    name: 'step_efficiency',
    description:
      'did the run take no more steps than needed (no loops, repeated calls or detours)? 5: minimal; 1: mostly wasted steps.',
  },
  {
    name: 'error_recovery',
    description:
      'when a step failed, did the agent notice and recover (retry sensibly, change course, tell the user)? 5: recovered well, or nothing failed; 1: ignored failures or built on them.',
  },
].map((a) => ({ ...a, scale: { min: 1, max: 5 }, weight: 1 }));

/** One step's heading: `[3] tool call search (span 5b8aa5a2d2c872e8)`. */
function heading(step: TrajectoryStep, n: number): string {
  const what = { llm: 'model call', tool: 'tool call', message: 'message', error: 'error' }[step.type];
  const name = step.name !== undefined ? ` ${step.name}` : '';
  const span = step.spanId !== undefined ? ` (span ${step.spanId})` : '';
  return `[${n}] ${what}${name}${span}`;
}

/** The input and output labels of a step type: a tool's arguments and result, a model's prompt and reply. */
const LABELS: Record<TrajectoryStep['type'], { input: string; output: string }> = {
  llm: { input: 'Prompt', output: 'Reply' },
  tool: { input: 'Arguments', output: 'Result' },
  message: { input: 'Input', output: 'Said' },
  error: { input: 'Input', output: 'Output' },
};

/**
 * The run as one text: each step numbered from 1 under its heading, its input, output and error on their own
 * labelled lines, then the final answer (or that there was none). The numbers are what a judge names as the
 * first failing step.
 */
export function renderTrajectory(task: Pick<TrajectoryTask, 'steps' | 'finalAnswer'>): string {
  const steps = task.steps.map((s, i) => {
    const l = LABELS[s.type];
    const lines = [heading(s, i + 1)];
    if (s.input !== undefined) lines.push(`${l.input}: ${s.input}`);
    if (s.output !== undefined) lines.push(`${l.output}: ${s.output}`);
    if (s.error !== undefined) lines.push(`Error: ${s.error}`);
    return lines.join('\n');
  });
  const final = task.finalAnswer !== undefined ? `Final answer: ${task.finalAnswer}` : 'Final answer: (none given)';
  return `${steps.join('\n\n')}\n\n${final}`;
}

/** A step as the verdict names it: its number (from 1) and its span id, if it had one. */
export interface StepRef {
  step: number;
  spanId?: string;
}

/**
 * The trajectory as the pointwise task methods judge: the request (or conversation) as the source, the
 * rendered run as the output, its own aspects or the defaults (none when a rubric says what is scored).
 * @param rubric whether a rubric judges it (its aspects or criteria then say what is scored).
 */
export function trajectoryAsPointwise(task: TrajectoryTask, rubric: boolean): PointwiseTask {
  const aspects = task.aspects ?? (rubric ? undefined : TRAJECTORY_ASPECTS.map((a) => ({ ...a })));
  return {
    kind: 'pointwise',
    ...(task.messages !== undefined ? { messages: task.messages } : { source: task.request ?? '' }),
    output: renderTrajectory(task),
    ...(aspects !== undefined ? { aspects } : {}),
  };
}

/** The steps' references, in order (for the first failing step a judge names by number). */
export function stepRefs(task: Pick<TrajectoryTask, 'steps'>): StepRef[] {
  return task.steps.map((s, i) => ({ step: i + 1, ...(s.spanId !== undefined ? { spanId: s.spanId } : {}) }));
}
