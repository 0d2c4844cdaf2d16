/**
 * @module
 * Request examples for the Evals routes' OpenAPI document: each one a body the route accepts (the contract
 * test parses every example with the route's schema).
 */

/** A string check of the sample against the item's expected answer. */
const EXACT = {
  type: 'string_check',
  name: 'exact',
  input: '{{sample.output_text}}',
  reference: '{{item.answer}}',
  operation: 'eq',
} as const;

/** Examples of `POST /v1/evals`. */
export const CREATE_EVAL_EXAMPLES = {
  exact: {
    summary: 'Items with an expected answer, graded by a string check',
    value: {
      name: 'Capitals',
      data_source_config: {
        type: 'custom',
        item_schema: {
          type: 'object',
          properties: { question: { type: 'string' }, answer: { type: 'string' } },
          required: ['question', 'answer'],
        },
        include_sample_schema: true,
      },
      testing_criteria: [EXACT],
    },
  },
};

/** Examples of `POST /v1/evals/{eval_id}`. */
export const UPDATE_EVAL_EXAMPLES = {
  rename: { summary: 'A new name and metadata', value: { name: 'Capitals (v2)', metadata: { team: 'search' } } },
};

/** Examples of `POST /v1/evals/{eval_id}/runs`. */
export const CREATE_RUN_EXAMPLES = {
  jsonl: {
    summary: 'Items and their samples inline',
    value: {
      name: 'nightly',
      data_source: {
        type: 'jsonl',
        source: {
          type: 'file_content',
          content: [{ item: { question: 'Capital of France?', answer: 'Paris' }, sample: { output_text: 'Paris' } }],
        },
      },
    },
  },
};

/** Examples of `POST /v1/fine_tuning/alpha/graders/run`. */
export const RUN_GRADER_EXAMPLES = {
  exact: {
    summary: 'A string check on one sample',
    value: { grader: EXACT, model_sample: 'Paris', item: { answer: 'Paris' } },
  },
};

/** Examples of `POST /v1/fine_tuning/alpha/graders/validate`. */
export const VALIDATE_GRADER_EXAMPLES = { exact: { summary: 'A string check', value: { grader: EXACT } } };
