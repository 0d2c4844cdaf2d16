/**
 * @module
 * Request examples of the rubric API, shown in the API reference (`GET /docs`); tests/worker/api-contract.test.ts
 * checks each against the schema it illustrates.
 */

/** A refund-policy rubric for pairwise judging (which reply follows the policy better). */
export const PAIRWISE_RUBRIC_EXAMPLE = {
  name: 'Refund policy',
  kind: 'pairwise' as const,
  criteria:
    'Which reply follows our refund policy better: refunds within 30 days of delivery, store credit after that, never a refund for a used gift card. The better reply states the rule that applies and offers the next step.',
  examples: [
    {
      task: {
        kind: 'pairwise' as const,
        question: 'I bought headphones 45 days ago and they broke. Can I get my money back?',
        answerA: 'Sorry, refunds are only within 30 days; I can offer store credit for the full price instead.',
        answerB: 'Sure, I have refunded you.',
      },
      expected: 'A' as const,
      note: 'Past 30 days the policy gives store credit.',
    },
  ],
};

/** A support-reply rubric scored on three weighted aspects, 1-5. */
export const POINTWISE_RUBRIC_EXAMPLE = {
  name: 'Support reply quality',
  kind: 'pointwise' as const,
  criteria: 'A reply from our support team to a customer.',
  scale: { min: 1, max: 5 },
  aspects: [
    { name: 'policy', criteria: 'States the refund policy correctly for this case.', weight: 2 },
    { name: 'tone', criteria: 'Is polite and calm, never blames the customer.' },
    { name: 'next step', criteria: 'Ends with one clear next step for the customer.' },
  ],
  examples: [
    {
      task: {
        kind: 'pointwise' as const,
        source: 'My order arrived broken. What now?',
        output: 'Sorry about that! Reply with a photo and we will send a replacement today.',
      },
      expected: 5,
      expectedAspects: { tone: 5, 'next step': 5 },
    },
  ],
};

/** Named examples of `POST /v1/rubrics` bodies. */
export const RUBRIC_EXAMPLES = {
  pairwise: {
    summary: 'Pairwise: your policy as the criteria',
    description: 'Which of two replies follows the refund policy better, with one golden example.',
    value: PAIRWISE_RUBRIC_EXAMPLE,
  },
  pointwise: {
    summary: 'Pointwise: three weighted aspects',
    description: 'One reply scored 1-5 on three aspects (policy counts double), with a weighted overall.',
    value: POINTWISE_RUBRIC_EXAMPLE,
  },
};
