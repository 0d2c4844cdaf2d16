/**
 * @module
 * The budget of one evaluation (or of a batch): spending limits checked before every LLM call. One zod
 * schema for the API (`budget` on `POST /v1/evaluations`, on batches, and in a method config as
 * `config.budget`), the engine and the OpenAPI document. Plain zod, no imports: the engine's config
 * schema and the batch machinery both use it.
 */
import { z } from 'zod';

/** The limits a budget can set, in the order they are checked and reported. */
export const BUDGET_LIMITS = ['maxCostUsd', 'maxCalls', 'maxTokens'] as const;
/** One limit of a budget. */
export type BudgetLimit = (typeof BUDGET_LIMITS)[number];

/**
 * Spending limits; each is optional and at least one is required. A call goes out only when its worst case
 * still fits every limit set, counting what was spent and the worst case of the calls in flight.
 */
export const BudgetSchema = z
  .object({
    /** Most USD to spend, > 0, at most 10,000: every call's prompt at the input price plus its `maxTokens` at the output price, from the price table. */
    maxCostUsd: z.number().positive().max(10_000).optional(),
    /** Most LLM requests, repairs included, 1-10,000. */
    maxCalls: z.number().int().min(1).max(10_000).optional(),
    /** Most tokens, prompt plus completion over every call, 1-100,000,000. */
    maxTokens: z.number().int().min(1).max(100_000_000).optional(),
  })
  .strict()
  .refine((b) => BUDGET_LIMITS.some((k) => b[k] !== undefined), {
    message: 'a budget sets at least one of maxCostUsd, maxCalls, maxTokens',
  })
  .meta({
    id: 'Budget',
    description:
      "Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). " +
      "Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; " +
      'others end `failed` with code `budget_exceeded` before spending past it.',
    examples: [{ maxCostUsd: 0.05 }, { maxCalls: 12, maxTokens: 60_000 }],
  });
/** A budget. */
export type Budget = z.infer<typeof BudgetSchema>;

/** What has been spent (or is reserved): LLM requests, tokens (prompt + completion) and USD. */
export interface Spend {
  calls: number;
  tokens: number;
  costUsd: number;
}

/** Nothing spent: the identity of {@link addSpend}. */
export const NO_SPEND: Spend = { calls: 0, tokens: 0, costUsd: 0 };

/** Sum of two spends. */
export function addSpend(a: Spend, b: Spend): Spend {
  return { calls: a.calls + b.calls, tokens: a.tokens + b.tokens, costUsd: a.costUsd + b.costUsd };
}

/** The stable error code of a call a budget refused, and of an evaluation that ended because of one. */
export const BUDGET_EXCEEDED = 'budget_exceeded';
