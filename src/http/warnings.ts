/**
 * @module
 * Warnings on an accepted request: something it asked for holds, but not as its caller may expect (a tier
 * billed at another tier's price). One schema for every route that gives them; each route that can answer one
 * has a `warnings` field, present only when there is a warning.
 */
import { z } from '@hono/zod-openapi';

/**
 * Stable warning codes. `tier_price_missing`: the request runs at `flex` or `batch`, and a model of the judge has
 * no price for that tier in the deployment's price table, so its calls are billed at the standard price.
 */
export const WARNING_CODES = ['tier_price_missing'] as const;
/** A stable warning code. */
export type WarningCode = (typeof WARNING_CODES)[number];

/** One warning: its stable code, the request field it concerns, and what it means. */
export const WarningSchema = z
  .object({
    code: z
      .enum(WARNING_CODES)
      .describe(
        'Stable code. `tier_price_missing`: a model has no price for the tier, so its calls are billed at the standard price.',
      ),
    field: z.string().describe('The request field the warning is about, e.g. `tier`.'),
    message: z.string(),
  })
  .strict()
  .meta({ id: 'Warning' });
/** One warning. */
export type ApiWarning = z.infer<typeof WarningSchema>;

/** The `warnings` field of an answer: present only when there is one. */
export const WarningsField = z
  .array(WarningSchema)
  .optional()
  .describe(
    'What the request asked for holds, but not as one may expect (e.g. `tier_price_missing`: a tier billed at the standard price). Present only on the answer to the request that created the resource, and only with a warning.',
  );

/** `{ warnings }` when there are any, else nothing: spread into an answer. */
export function withWarnings(warnings: readonly ApiWarning[]): { warnings?: ApiWarning[] } {
  return warnings.length > 0 ? { warnings: [...warnings] } : {};
}
