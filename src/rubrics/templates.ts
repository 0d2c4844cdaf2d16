/**
 * @module
 * Rubric templates for agent trajectories: bodies of `POST /v1/rubrics` that score an agent's run (a `trajectory`
 * task) on the six trajectory aspects together, or on one of them alone. Their wording is the default aspects'
 * (src/engine/trajectory.ts), so a template judges as `trajectory-judge` does without one, and a copy edited
 * to your agent (its tools, its plan) becomes your own rubric version. Shown in the API reference as examples
 * of `POST /v1/rubrics`.
 */
import { TRAJECTORY_ASPECTS } from '../engine/trajectory.js';

/** What every trajectory template judges: the run as a `trajectory` task shows it. */
const RUN =
  "An AI agent's run: the user's request, its numbered steps (model calls, tool calls with their arguments and results, errors) and its final answer.";

/** An aspect's name in words: `task_completion` → `task completion`. */
function wordsOf(aspect: string): string {
  return aspect.replace(/_/g, ' ');
}

/** The six aspects in one rubric (1-5 each, weight 1, the overall their mean). */
export const TRAJECTORY_RUBRIC_TEMPLATE = {
  name: 'Agent trajectory',
  kind: 'pointwise' as const,
  criteria: RUN,
  scale: { min: 1, max: 5 },
  aspects: TRAJECTORY_ASPECTS.map((a) => ({ name: a.name, criteria: a.description ?? '' })),
};

/** One template per aspect, by the aspect's name: the run scored 1-5 on that aspect alone. */
export const TRAJECTORY_ASPECT_TEMPLATES: Readonly<
  Record<string, { name: string; kind: 'pointwise'; criteria: string; scale: { min: number; max: number } }>
> = Object.fromEntries(
  TRAJECTORY_ASPECTS.map((a) => [
    a.name,
    {
      name: `Agent trajectory: ${wordsOf(a.name)}`,
      kind: 'pointwise' as const,
      criteria: `${RUN} Score it on ${wordsOf(a.name)}: ${a.description ?? ''}`,
      scale: { min: 1, max: 5 },
    },
  ]),
);

/** The templates as named examples of `POST /v1/rubrics` (the API reference lists them). */
export const TRAJECTORY_RUBRIC_EXAMPLES = {
  trajectory: {
    summary: 'Template: agent trajectory, six aspects',
    description:
      'A `trajectory` task scored 1-5 on task completion, tool selection, argument correctness, plan adherence, step efficiency and error recovery.',
    value: TRAJECTORY_RUBRIC_TEMPLATE,
  },
  ...Object.fromEntries(
    Object.entries(TRAJECTORY_ASPECT_TEMPLATES).map(([aspect, value]) => [
      `trajectory-${aspect.replace(/_/g, '-')}`,
      {
        summary: `Template: agent trajectory, ${wordsOf(aspect)} alone`,
        description: `A \`trajectory\` task scored 1-5 on ${wordsOf(aspect)} only.`,
        value,
      },
    ]),
  ),
};
