/**
 * @module
 * Request examples of `POST /v1/meta-evaluations` shown in the API reference (`GET /docs`), typed with the
 * engine's types; tests/worker/api-contract.test.ts checks each passes the schema it illustrates.
 */
import type { JudgeExample } from '../evaluations/examples.js';
import { PAIRWISE_TASK_EXAMPLE } from '../evaluations/examples.js';
import type { LabelledItem } from '../metrics/labelled.js';

/** Labelled items for a meta-evaluation example. */
const LABELLED_EXAMPLE: LabelledItem[] = [
  { id: 'q1', task: PAIRWISE_TASK_EXAMPLE, human: 'A' },
  {
    id: 'q2',
    task: { kind: 'pairwise', question: 'Name a prime number between 10 and 15.', answerA: '12', answerB: '13' },
    human: 'B',
  },
];

/** Named examples of `POST /v1/meta-evaluations` bodies. */
export const CREATE_META_EVALUATION_EXAMPLES = {
  pairwise: {
    summary: 'Two labelled pairwise items',
    description: 'Agreement of the FastChat pairwise judge with human labels over a small batch.',
    value: { preset: 'fastchat-pair', items: LABELLED_EXAMPLE },
  },
} satisfies Record<string, { summary: string; description: string; value: JudgeExample & { items: LabelledItem[] } }>;

/** A meta-evaluation id, as the path parameter's example. */
export const META_EVALUATION_ID_EXAMPLE = 'me_0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a';
