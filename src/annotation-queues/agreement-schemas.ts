/**
 * @module
 * The answer of `GET /v1/rubrics/{id}/versions/{version}/agreement`: a rubric version against its human labels.
 */
import { z } from '@hono/zod-openapi';
import { WinnerSchema } from '../engine/verdict.js';

const interval = z
  .object({ lo: z.number(), hi: z.number() })
  .strict()
  .nullable()
  .describe('Bootstrap 95% interval over items; null when it cannot be computed.');
const estimate = z.object({ value: z.number().nullable(), interval }).strict();

/** A rubric version's agreement with its labels. */
export const RubricAgreementSchema = z
  .object({
    rubric: z.object({ id: z.string(), version: z.number().int().positive() }).strict(),
    status: z
      .enum(['running', 'completed'])
      .describe(
        '`running` (answered 202) while the judge runs; `completed` (200) with the figures. Read `links.self` again.',
      ),
    judge: z
      .object({ preset: z.string().nullable(), config: z.record(z.string(), z.unknown()).nullable() })
      .strict()
      .describe("The version's golden-check judge, else `fastchat-pair` (pairwise) or `rubric-judge` (pointwise)."),
    metaEvaluationId: z.string().describe('The run that judged the labelled items (`GET /v1/meta-evaluations/{id}`).'),
    n: z.number().int().nonnegative().describe('Labelled items judged (the first 500 of the version’s queues).'),
    nScored: z.number().int().nonnegative().optional().describe('Items with a judge answer; once completed.'),
    pairwise: z
      .object({
        kappa: estimate.describe("Cohen's κ over A/B/tie."),
        accuracy: estimate,
        confusion: z
          .array(z.array(z.number().int().nonnegative()))
          .describe('Human (rows) × judge (columns) counts in A, B, tie order.'),
      })
      .strict()
      .nullable(),
    pointwise: z
      .object({
        r: estimate.describe('Pearson.'),
        rho: estimate.describe('Spearman.'),
        tau: estimate.describe('Kendall τ-b.'),
      })
      .strict()
      .nullable(),
    disagreements: z
      .array(
        z
          .object({
            queueId: z.string(),
            itemId: z.string(),
            human: z.union([WinnerSchema, z.number()]),
            judge: z.union([WinnerSchema, z.number()]).nullable(),
            links: z.object({ evaluation: z.string(), item: z.string() }).strict(),
          })
          .strict(),
      )
      .describe('Items where the judge differs from the label (pointwise: by a point or more), each linked.'),
    links: z.object({ self: z.string(), metaEvaluation: z.string() }).strict(),
  })
  .strict()
  .meta({ id: 'RubricAgreement' });
/** A rubric version's agreement with its labels. */
export type RubricAgreement = z.infer<typeof RubricAgreementSchema>;
