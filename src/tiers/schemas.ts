/**
 * @module
 * The request fields that choose a service tier, shared by `POST /v1/evaluations`, `POST /v1/batches`,
 * `POST /v1/meta-evaluations` and `POST /v1/estimates`: one schema per concept (the LLM layer's), described
 * once for the OpenAPI document.
 */
import { FlexFallbackSchema, TierSchema } from '../llm/tiers.js';

/** The service tier, as a response shows it. */
export const TierView = TierSchema.describe(
  '`standard`: synchronous calls at the full price. `flex`: the same calls with `service_tier: "flex"`, half price, slower, ' +
    "sometimes refused for capacity (see `flexFallback`). `batch`: the calls go to the provider's Batch API in waves (every " +
    'ready call of every item at once; the next calls when the results are in), half price, each wave within 24 h; ' +
    "a line the provider failed or let expire goes in the next wave, and past the retry policy's tries as a synchronous " +
    'standard call.',
).meta({ id: 'Tier' });

/** The `tier` field of a request. */
export const TierField = TierView.optional().describe(
  "The service tier. Absent: the tenant's default, else the providers' default, else `standard`. A tier a provider " +
    'of the judge does not offer is a 400 `tier_unsupported` naming the provider.',
);

/** What a flex refusal leads to, as a response shows it. */
export const FlexFallbackView = FlexFallbackSchema.describe(
  '`standard` (default): a call refused by flex for capacity (or at a model without flex) goes again at once at the ' +
    'standard tier and price. `wait`: it is retried at flex later, with backoff, for up to `FLEX_WAIT_MAX_SECONDS` ' +
    '(a day by default), then fails `flex_unavailable`; a model without flex fails it `flex_unsupported`.',
).meta({ id: 'FlexFallback' });

/** The `flexFallback` field of a request. */
export const FlexFallbackField = FlexFallbackView.optional().describe(
  'What a flex refusal leads to (tier `flex` only; default `standard`).',
);
