/**
 * @module
 * Request examples shown in the API reference (`GET /docs`) and its "try it" client. Each is typed with the
 * engine's types, and tests/worker/api-contract.test.ts checks that every example in the document passes
 * the schema it illustrates, so an example cannot drift from the contract.
 */
import type { PairwiseTask, PointwiseTask, Task } from '../engine/task.js';
import type { ConfigOverrides } from '../methods/method-config.js';

/** A judge request's shape, for typing the examples (the schemas in ./schemas.ts import this module). */
export interface JudgeExample {
  preset?: string;
  config?: ConfigOverrides;
}

/** A pairwise task (MT-Bench style). */
export const PAIRWISE_TASK_EXAMPLE: PairwiseTask = {
  kind: 'pairwise',
  question: 'What is the capital of Australia? Answer in one sentence.',
  answerA: 'The capital of Australia is Canberra.',
  answerB: 'Sydney is the capital of Australia.',
};

/** A pointwise task (SummEval style: one summary scored on coherence, 1-5). */
export const POINTWISE_TASK_EXAMPLE: PointwiseTask = {
  kind: 'pointwise',
  source:
    'The city council approved a new bike lane on Main Street on Tuesday. Construction starts in May and is expected to take six weeks.',
  output: 'The council approved a Main Street bike lane; building starts in May and takes about six weeks.',
  aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
};

/** Named examples of `POST /v1/evaluations` bodies (OpenAPI media-type `examples`). */
export const CREATE_EVALUATION_EXAMPLES = {
  pairwise: {
    summary: 'Pairwise, ChatEval preset',
    description: 'Two answers to one question, judged by the ChatEval FairEval setting (two debaters, two turns).',
    value: { preset: 'chateval-faireval', task: PAIRWISE_TASK_EXAMPLE, metadata: { run: 'nightly-42' } },
  },
  pointwise: {
    summary: 'Pointwise, DEBATE preset',
    description: 'One summary scored on coherence (1-5) by the DEBATE SummEval setting.',
    value: { preset: 'debate-summeval', task: POINTWISE_TASK_EXAMPLE },
  },
  overrides: {
    summary: 'Preset with config overrides',
    description: "The preset's config with one turn and a named model; objects merge, arrays and scalars replace.",
    value: {
      preset: 'chateval-faireval',
      config: { turns: 1, defaults: { temperature: 0 } },
      task: PAIRWISE_TASK_EXAMPLE,
    },
  },
  method: {
    summary: 'A method without a preset',
    description: 'A full config names its `method`; every other field takes the method default.',
    value: { config: { method: 'single', samples: 1 }, task: PAIRWISE_TASK_EXAMPLE },
  },
} satisfies Record<
  string,
  {
    summary: string;
    description: string;
    value: JudgeExample & { task: Task; metadata?: Record<string, string | number | boolean> };
  }
>;

/** Named examples of `POST /v1/evaluations/{id}/cancel` bodies. */
export const CANCEL_EXAMPLES = {
  reason: { summary: 'With a reason', value: { reason: 'superseded by a newer run' } },
} satisfies Record<string, { summary: string; value: { reason?: string } }>;

/** Examples of schema fields (JSON Schema `examples`). */
export const FIELD_EXAMPLES = {
  metadata: { run: 'nightly-42', model: 'my-model-v3', shard: 7 },
  evaluationId: 'ev_6f1c2a9e4b7d4e0f9a3c5b8d2e1f0a7c',
} as const;
