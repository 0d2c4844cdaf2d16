/**
 * @module
 * `GET /v1/evaluations`: the strict query (filters, page size, cursor) and the answer's schemas. Filters
 * combine with AND; a page is newest first, keyset-paged on (created, id), so inserts never shift it.
 */
import { z } from '@hono/zod-openapi';
import { PRESETS } from '../engine/registry.js';
import { didYouMean } from '../engine/suggest.js';
import {
  BATCH_ID_FILTER,
  EvaluationErrorSchema,
  EvaluationLinksSchema,
  EvaluationStatusSchema,
  MetadataSchema,
} from './schemas.js';
import { SourceField, SourceRequestSchema } from './source.js';

/** Most evaluations per page: 100 (default 20). */
export const MAX_LIST_PAGE = 100;

const iso = z.iso.datetime({ offset: true });

const PRESET_IDS = PRESETS.map((p) => p.id);

/** A rubric (`rb_…`), optionally one version of it (`rb_…@3`). */
const RUBRIC_FILTER = /^(rb_[0-9a-f]{32})(?:@([1-9][0-9]{0,8}))?$/;

/**
 * A monitor id (`mon_…`); a batch's is {@link BATCH_ID_FILTER}. A filter of another form matches nothing, which
 * would read as "none made": refused instead, naming the parameter. A well-formed id the tenant does not have lists
 * nothing, as a deleted monitor's or batch's evaluations may still be listed.
 */
const MONITOR_ID_FILTER = /^mon_[0-9a-f]{32}$/;

/** `key:value`: the key up to the first `:`, the value after it. */
const METADATA_FILTER = /^([^:]{1,64}):([\s\S]{0,1024})$/;

/** Query of `GET /v1/evaluations`. Unknown parameters are a 400 naming them. */
export const ListEvaluationsQuery = z
  .object({
    status: EvaluationStatusSchema.optional().openapi({ param: { description: 'Only evaluations in this status.' } }),
    preset: z
      .string()
      .min(1)
      .max(64)
      // A typo would list nothing, as if there were no such evaluations: refused instead, with the closest preset.
      .superRefine((id, ctx) => {
        if (PRESET_IDS.includes(id)) return;
        ctx.addIssue({
          code: 'custom',
          message: `unknown preset "${id}"${didYouMean(id, PRESET_IDS)}; see GET /v1/methods`,
        });
      })
      .optional()
      .openapi({
        param: { description: 'Only evaluations of this preset (one of `GET /v1/methods`; another is a 400).' },
      }),
    batch: z
      .string()
      .regex(BATCH_ID_FILTER, 'expected a batch id: ba_, me_ or cp_ and 32 hex digits')
      .optional()
      .openapi({
        param: {
          description: 'Only the items of this batch (`ba_…`), meta-evaluation (`me_…`) or comparison (`cp_…`).',
        },
      }),
    metadata: z
      .string()
      .regex(METADATA_FILTER, 'expected key:value')
      .optional()
      .openapi({
        param: {
          description:
            'Only evaluations whose metadata has this entry, as `key:value` (split at the first `:`). Compared as text: a string value as it is, ' +
            'a number in JSON form (`n:3`, `score:0.5`), a boolean as `true` / `false`.',
        },
        example: 'run:nightly-42',
      }),
    rubric: z
      .string()
      .regex(RUBRIC_FILTER, 'expected rb_… or rb_…@<version>')
      .optional()
      .openapi({
        param: {
          description:
            'Only evaluations judged by this stored rubric (`rb_…`: any version), or by one version of it (`rb_…@3`), as their `rubric` records it. ' +
            "A version's auto-CoT steps evaluation (method `rubric-steps`) is listed with it.",
        },
        example: 'rb_0f8e2c1d9b7a4e6f8a1b2c3d4e5f6a7b@2',
      }),
    traceId: SourceRequestSchema.shape.traceId.optional().openapi({
      param: { description: 'Only evaluations made of this trace (their `source.traceId`), by hand or by a monitor.' },
      example: '5b8efff798038103d269b633813fc60c',
    }),
    monitor: z
      .string()
      .regex(MONITOR_ID_FILTER, 'expected a monitor id: mon_ and 32 hex digits')
      .optional()
      .openapi({
        param: { description: 'Only evaluations made by this monitor (`mon_…`, their `source.monitorId`).' },
      }),
    createdAfter: iso.optional().openapi({
      param: { description: 'Only evaluations created at or after this time (ISO 8601).' },
      example: '2026-01-01T00:00:00Z',
    }),
    createdBefore: iso
      .optional()
      .openapi({ param: { description: 'Only evaluations created before this time (ISO 8601).' } }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_LIST_PAGE)
      .default(20)
      .openapi({ param: { description: `Evaluations per page, 1-${MAX_LIST_PAGE} (default 20).` } }),
    cursor: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .openapi({
        param: {
          description: 'The `nextCursor` of the previous page (opaque; pass the same filters). Absent: the first page.',
        },
      }),
  })
  .strict();
/** A parsed listing query. */
export type ListEvaluationsQuery = z.infer<typeof ListEvaluationsQuery>;

/** A `rubric` filter split into the rubric and its version (undefined: every version). */
export function rubricFilter(raw: string): { id: string; version?: number } {
  const m = RUBRIC_FILTER.exec(raw);
  return { id: m?.[1] ?? raw, ...(m?.[2] !== undefined ? { version: Number(m[2]) } : {}) };
}

/** A `metadata` filter split into key and value. */
export function metadataFilter(raw: string): { key: string; value: string } {
  const m = METADATA_FILTER.exec(raw);
  return { key: m?.[1] ?? raw, value: m?.[2] ?? '' };
}

/** An evaluation in a list: no usage or transcript, the verdict's headline only. */
export const EvaluationListItemSchema = z
  .object({
    id: z.string(),
    status: EvaluationStatusSchema,
    method: z.string(),
    preset: z.string().nullable(),
    taskKind: z.enum(['pairwise', 'pointwise', 'trajectory']),
    metadata: z.union([MetadataSchema, z.null()]),
    batchId: z.string().nullable(),
    metaId: z.string().nullable(),
    /** The verdict's headline once `succeeded` (the whole verdict: `GET /v1/evaluations/{id}`). */
    verdict: z
      .object({
        winner: z.enum(['A', 'B', 'tie']).nullable(),
        score: z.number().nullable(),
        scale: z
          .object({ min: z.number(), max: z.number() })
          .strict()
          .nullable()
          .describe('The scale `score` is on (inclusive), e.g. `{min: 1, max: 5}`; null without a score.'),
        confidence: z.number(),
      })
      .strict()
      .nullable(),
    error: z.union([EvaluationErrorSchema, z.null()]),
    source: SourceField,
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    links: EvaluationLinksSchema,
  })
  .strict()
  .meta({ id: 'EvaluationListItem' });
/** An evaluation in a list. */
export type EvaluationListItem = z.infer<typeof EvaluationListItemSchema>;

/** Answer to `GET /v1/evaluations`. */
export const EvaluationListSchema = z
  .object({
    data: z.array(EvaluationListItemSchema),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as `cursor` (with the same filters) for the next page; null on the last one.'),
  })
  .strict()
  .meta({ id: 'EvaluationList' });
