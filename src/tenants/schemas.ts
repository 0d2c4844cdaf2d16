/**
 * @module
 * The API's schemas for tenants, keys and usage (admin API and `GET /v1/usage`): one per concept, used by
 * the route definitions for validation, the OpenAPI document and the typed client. Times are ISO 8601 UTC.
 */
import { z } from '@hono/zod-openapi';
import { KEY_ID_PATTERN, TENANT_ID_PATTERN } from './ids.js';
import { RatePolicySchema, TenantLimitsSchema } from './limits.js';
import { ScopeSchema } from './scopes.js';
import { TierSchema } from '../llm/tiers.js';
import { USAGE_GROUPS } from './usage-report.js';

/** A tenant id in a path or body. */
export const TenantIdSchema = z
  .string()
  .regex(TENANT_ID_PATTERN, 'a tenant id is tn_ + 16 characters a-z2-7 (or the 12-hex id of an API_KEYS token)');
/** A key id in a path or body. */
export const KeyIdSchema = z.string().regex(KEY_ID_PATTERN, 'a key id is key_ + 16 characters a-z2-7');

const EXAMPLE_TENANT = 'tn_k3v7q2mx5hd4wj6n';
const EXAMPLE_KEY_ID = 'key_p4r2t5x6c3v5b7nm';

/** Per-tenant limits as set (null = the deployment default, or no cap for quotas). */
export const TenantLimitsView = TenantLimitsSchema.meta({ id: 'TenantLimits' });

/** The limits that apply: the tenant's own over the deployment's. */
export const EffectiveLimitsSchema = z
  .object({
    rateLimit: RatePolicySchema,
    maxRunning: z.number().int(),
    monthlySpendCapUsd: z.number().nullable(),
    monthlyEvaluationCap: z.number().int().nullable(),
    retentionDays: z
      .number()
      .int()
      .describe(
        "Days content is kept after an evaluation's end (a batch item's: its batch's completion); 0 = until deleted.",
      ),
    storeContent: z.boolean().describe('Whether task texts and transcripts are kept past the verdict.'),
    defaultTier: TierSchema.nullable(),
    spread: z.number().int().describe("D1 shards the tenant's new evaluations and batches are spread over."),
    readSpread: z
      .number()
      .int()
      .describe(
        'D1 shards its evaluations and batches may be in: the largest spread it ever had (what its listings read).',
      ),
  })
  .strict()
  .meta({ id: 'EffectiveLimits' });

/** What a tenant used this calendar month (UTC) and has running now. */
export const TenantCurrentSchema = z
  .object({
    evaluationsThisMonth: z.number().int(),
    spendThisMonthUsd: z.number(),
    running: z.number().int().describe('Evaluations holding a running slot now.'),
    waiting: z.number().int().describe('Queued evaluations waiting for a running slot (the tenant is at its cap).'),
    quotaResetAt: z.string().describe('When the monthly quotas reset: the first day of next month, 00:00 UTC.'),
  })
  .strict()
  .meta({ id: 'TenantCurrent' });

/** A tenant. */
export const TenantSchema = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_TENANT }),
    name: z.string(),
    limits: TenantLimitsView,
    effectiveLimits: EffectiveLimitsSchema,
    /** Only on `GET /v1/admin/tenants/{id}`. */
    current: TenantCurrentSchema.optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ id: 'Tenant' });

/** Body of `POST /v1/admin/tenants`. */
export const CreateTenantRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(200).describe('A name for people (the customer, the team).'),
    id: TenantIdSchema.optional().describe(
      'Usually left out (a new `tn_…` id is made). Give the 12-hex tenant id of an `API_KEYS` token to set limits for that tenant, or to move it to managed keys with its history.',
    ),
    limits: TenantLimitsSchema.partial()
      .optional()
      .describe('Settings; anything left out is the deployment default (no quota).'),
  })
  .strict()
  .meta({ id: 'CreateTenantRequest' });

/** Body of `PATCH /v1/admin/tenants/{id}`: fields given replace; a limit set to null goes back to the default. */
export const UpdateTenantRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    limits: TenantLimitsSchema.partial().optional(),
  })
  .strict()
  .meta({ id: 'UpdateTenantRequest' });

/** A page of tenants. */
export const TenantListSchema = z
  .object({
    tenants: z.array(TenantSchema),
    next: z.string().nullable().describe('Pass as `after` for the next page; null on the last.'),
  })
  .strict()
  .meta({ id: 'TenantList' });

/** An API key as the admin API shows it: never the key itself, except once on creation. */
export const ApiKeySchema = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_KEY_ID }),
    tenantId: z.string(),
    prefix: z.string().describe("The key's first characters, to tell keys apart.").openapi({ example: 'trb_x7k2m6' }),
    label: z.string(),
    scopes: z.array(ScopeSchema),
    status: z.enum(['active', 'revoked', 'expired']),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().describe('Updated at most once a minute.'),
    expiresAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'ApiKey' });

/** Body of `POST /v1/admin/keys`. */
export const CreateKeyRequestSchema = z
  .object({
    tenantId: TenantIdSchema,
    label: z.string().max(200).default('').describe('What the key is for, e.g. "ci" or "prod-eu".'),
    scopes: z
      .array(ScopeSchema)
      .min(1)
      .optional()
      .describe(
        'Default `["evaluations:write", "read"]`. `admin` gives the admin API (every tenant): for the operator\'s own keys only.',
      ),
    expiresAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('When the key stops working (ISO 8601, in the future). Default: never.'),
  })
  .strict()
  .meta({ id: 'CreateKeyRequest' });

/** Answer to `POST /v1/admin/keys`: the key, shown this once, and its record. */
export const CreatedKeySchema = z
  .object({
    key: z
      .string()
      .describe('The API key. Shown only here: Tribunal keeps its sha-256 only.')
      .openapi({ example: 'trb_x7k2m6p4r2t3x6c3v5b7nmq2w4e6r5tq' }),
    apiKey: ApiKeySchema,
  })
  .strict()
  .meta({ id: 'CreatedKey' });

/** A page of keys. */
export const KeyListSchema = z
  .object({
    keys: z.array(ApiKeySchema),
    next: z.string().nullable().describe('Pass as `after` for the next page; null on the last.'),
  })
  .strict()
  .meta({ id: 'KeyList' });

/** Paging parameters of the admin lists. */
export const PageQuery = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(100)
    .openapi({ param: { description: 'Items per page, 1-500 (default 100).' }, example: 100 }),
  after: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ param: { description: 'The `next` of the previous page.' } }),
};

/** A date (`2026-11-01`, midnight UTC) or a date-time (ISO 8601 with offset). */
const instant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** Query of the usage routes. */
export const UsageQuerySchema = z
  .object({
    from: instant.optional().openapi({
      param: {
        description:
          'Start, inclusive: a date (midnight UTC) or a date-time. Default: the first day of this month, UTC.',
      },
      example: '2026-11-01',
    }),
    to: instant.optional().openapi({ param: { description: 'End, exclusive. Default: now.' }, example: '2026-12-01' }),
    groupBy: z
      .enum(USAGE_GROUPS)
      .default('day')
      .openapi({
        param: {
          description: 'Group calls by UTC day, model, preset or the key that created the evaluation. Default `day`.',
        },
      }),
    format: z
      .enum(['json', 'csv'])
      .optional()
      .openapi({
        param: { description: 'Response format; default JSON, or CSV when the Accept header asks for text/csv.' },
      }),
  })
  .strict();

const sums = {
  calls: z.number().int().describe('LLM calls billed (repairs included).'),
  promptTokens: z.number().int(),
  cachedPromptTokens: z.number().int(),
  completionTokens: z.number().int(),
  costUsd: z.number(),
  cacheSavedUsd: z
    .number()
    .describe("USD the providers' prompt caches saved: cached prompt tokens × (input − cached input price)."),
  estimated: z.boolean().describe('True when some token counts were estimated locally (the provider sent none).'),
};

/** One group of a usage report. */
export const UsageRowSchema = z
  .object({
    group: z
      .string()
      .nullable()
      .describe(
        'The day (YYYY-MM-DD), model, preset or key id; null: no preset (a custom config) or no key (API_KEYS / open mode).',
      ),
    ...sums,
  })
  .strict()
  .meta({ id: 'UsageRow' });

/** A usage report. */
export const UsageReportSchema = z
  .object({
    tenant: z.string(),
    from: z.string(),
    to: z.string(),
    groupBy: z.enum(USAGE_GROUPS),
    rows: z.array(UsageRowSchema),
    totals: z.object(sums).strict(),
    verdictCache: z
      .object({
        hits: z.number().int().describe('Evaluations created in the range that the verdict cache served: 0 calls, $0.'),
        savedUsd: z.number().describe('What those cached verdicts had cost when they were judged (USD): saved.'),
      })
      .strict()
      .describe('The verdict cache in the range (its hits make no call, so no usage row).'),
  })
  .strict()
  .meta({ id: 'UsageReport' });
