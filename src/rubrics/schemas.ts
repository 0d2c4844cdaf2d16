/**
 * @module
 * The rubric API's zod schemas, one per concept, for validation, the OpenAPI document and the typed client:
 * a rubric's body (the engine's content, src/engine/rubric.ts, plus a name and golden examples), a version,
 * a tag, the lists, and the `rubric` field every judging request takes (a reference or an inline rubric).
 */
import { z } from '@hono/zod-openapi';
import type { RubricContent } from '../engine/rubric.js';
import { checkRubricContent, RubricContentSchema, RubricContentShape } from '../engine/rubric.js';
import { AgreementReportSchema } from '../metrics/agreement.js';
import { POINTWISE_RUBRIC_EXAMPLE } from './examples.js';
import type { RubricExample } from './golden.js';
import { checkExamples, MAX_RUBRIC_EXAMPLES, RubricExampleSchema } from './golden.js';

/** A rubric id: `rb_` and 32 hex characters. */
export const RUBRIC_ID = /^rb_[0-9a-f]{32}$/;

/** A tag: 1-32 lower-case letters, digits and `-` (`prod`, `staging`, `canary-2`). */
export const TAG = /^[a-z0-9-]{1,32}$/;

/** A reference: `rb_…` (latest), `rb_…@3` (version 3), `rb_…#prod` (the version tag `prod` points at). */
export const RUBRIC_REF = /^(rb_[0-9a-f]{32})(?:@([1-9][0-9]{0,8})|#([a-z0-9-]{1,32}))?$/;

/** The content fields of a body (what is hashed and judged by), without name and examples. */
export function contentOf(body: {
  kind: RubricContent['kind'];
  criteria: string;
  scale?: RubricContent['scale'];
  aspects?: RubricContent['aspects'];
  evaluationSteps?: string | undefined;
  autoSteps?: boolean | undefined;
  thresholds?: RubricContent['thresholds'];
}): RubricContent {
  return RubricContentSchema.parse({
    kind: body.kind,
    criteria: body.criteria,
    ...(body.scale !== undefined ? { scale: body.scale } : {}),
    ...(body.aspects !== undefined ? { aspects: body.aspects } : {}),
    ...(body.evaluationSteps !== undefined ? { evaluationSteps: body.evaluationSteps } : {}),
    ...(body.autoSteps !== undefined ? { autoSteps: body.autoSteps } : {}),
    ...(body.thresholds !== undefined ? { thresholds: body.thresholds } : {}),
  });
}

/** Checks a body's content and, when that holds, its examples against it. */
function checkBody(
  body: z.infer<z.ZodObject<typeof RubricContentShape>> & { examples?: RubricExample[] | undefined },
  ctx: z.RefinementCtx,
): void {
  checkRubricContent(body, ctx);
  // Strict: the content alone, without the body's own keys (present even when undefined, they would fail it).
  const { examples: _examples, name: _name, ...rest } = body as typeof body & { name?: string };
  const content = RubricContentSchema.safeParse(rest);
  if (content.success) checkExamples(content.data, body.examples, ctx);
}

const name = z.string().min(1).max(200).describe("The rubric's name, 1-200 characters (shown in lists).");
const examples = z
  .array(RubricExampleSchema)
  .max(MAX_RUBRIC_EXAMPLES)
  .describe(
    `Golden examples, at most ${MAX_RUBRIC_EXAMPLES}: \`POST …/versions/{n}/check\` runs them as a meta-evaluation.`,
  );

/** Body of `POST /v1/rubrics`: the first version. */
export const CreateRubricRequestSchema = z
  .object({ name, ...RubricContentShape, examples: examples.optional() })
  .strict()
  .superRefine(checkBody)
  .meta({ id: 'CreateRubricRequest', examples: [POINTWISE_RUBRIC_EXAMPLE] });
/** Body of `POST /v1/rubrics`. */
export type CreateRubricRequest = z.infer<typeof CreateRubricRequestSchema>;

/**
 * Body of `POST /v1/rubrics/{id}/versions`: a whole new version. `kind` may be left out (the rubric's);
 * `name`, when given, renames the rubric.
 */
export const CreateRubricVersionRequestSchema = z
  .object({
    name: name.optional(),
    ...RubricContentShape,
    kind: RubricContentShape.kind.optional(),
    examples: examples.optional(),
  })
  .strict()
  .meta({ id: 'CreateRubricVersionRequest' });
/** Body of `POST /v1/rubrics/{id}/versions`. */
export type CreateRubricVersionRequest = z.infer<typeof CreateRubricVersionRequestSchema>;

/** A whole version body with its kind: what {@link CreateRubricVersionRequestSchema} becomes once the kind is known. */
export const RubricBodySchema = z
  .object({ name: name.optional(), ...RubricContentShape, examples: examples.optional() })
  .strict()
  .superRefine(checkBody);

/** An inline rubric in a judging request: the content, plus `name` and `examples` so a rubric body can be sent as is. */
export const InlineRubricSchema = z
  .object({
    ...RubricContentShape,
    name: name.optional().describe('Accepted so that a rubric body can be sent as is; not used.'),
    examples: examples.optional().describe('Accepted (and checked) so that a rubric body can be sent as is; not run.'),
  })
  .strict()
  .superRefine(checkBody);
/** An inline rubric. */
export type InlineRubric = z.infer<typeof InlineRubricSchema>;

/** The `rubric` field of a judging request: a reference or an inline rubric. */
export const RubricField = z
  .union([
    z
      .string()
      .regex(RUBRIC_REF, 'a rubric reference: rb_… (latest), rb_…@<version> or rb_…#<tag>')
      .openapi({ example: 'rb_0f8e2c1d9b7a4e6f8a1b2c3d4e5f6a7b#prod' }),
    InlineRubricSchema,
  ])
  .meta({
    id: 'RubricRef',
    description:
      'What "better" means, by your own criteria: `rb_…` (the latest version), `rb_…@3` (version 3), `rb_…#prod` (the version a tag points at, ' +
      'resolved when the evaluation is created) or an inline rubric (hashed, not stored as a version). The evaluation records `rubric: {id, version, hash}`. ' +
      'An archived rubric judges only when named with its version.',
  });
/** The `rubric` field as sent. */
export type RubricFieldValue = z.infer<typeof RubricField>;

/** A tag's minimum agreement: the figure of the version's golden check and its least value. */
export const MinAgreementSchema = z
  .object({
    /**
     * Pairwise: `accuracy` or `kappa`; pointwise: the item-level `pearson`, `spearman` or `kendall`, and
     * `accuracy` on a pass/fail (two-point, e.g. 0-1) scale.
     */
    metric: z
      .enum(['accuracy', 'kappa', 'pearson', 'spearman', 'kendall'])
      .describe(
        "The check's figure: pairwise `accuracy` or `kappa`; pointwise the item-level `pearson`, `spearman` or `kendall`, and `accuracy` when the version's scale has two points (pass/fail, e.g. 0-1).",
      ),
    min: z.number().min(-1).max(1),
  })
  .strict()
  .meta({ id: 'RubricMinAgreement' });
/** A tag's minimum agreement. */
export type MinAgreement = z.infer<typeof MinAgreementSchema>;

/** Body of `PUT /v1/rubrics/{id}/tags/{tag}`. */
export const PutTagRequestSchema = z
  .object({
    version: z.number().int().positive().describe('The version the tag points at from now on.'),
    minAgreement: z
      .union([MinAgreementSchema, z.null()])
      .optional()
      .describe(
        "The tag's policy: a version may carry the tag only when its golden check's figure is at least `min`. Absent: the tag keeps its policy; null: none.",
      ),
  })
  .strict()
  .meta({ id: 'PutRubricTagRequest', examples: [{ version: 2, minAgreement: { metric: 'accuracy', min: 0.8 } }] });
/** Body of `PUT /v1/rubrics/{id}/tags/{tag}`. */
export type PutTagRequest = z.infer<typeof PutTagRequestSchema>;

/** A tag as shown. */
export const RubricTagSchema = z
  .object({
    tag: z.string(),
    version: z.number().int().positive(),
    minAgreement: z.union([MinAgreementSchema, z.null()]),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ id: 'RubricTag' });
/** A tag as shown. */
export type RubricTag = z.infer<typeof RubricTagSchema>;

const iso = z.string().describe('ISO 8601 UTC.');

/** Relative URLs of a rubric. */
export const RubricLinksSchema = z
  .object({ self: z.string(), versions: z.string() })
  .strict()
  .meta({ id: 'RubricLinks' });

/** A rubric as lists and `GET /v1/rubrics/{id}` show it. */
export const RubricSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(['pairwise', 'pointwise']),
    /** The newest version: what `rb_…` alone names. */
    latestVersion: z.number().int().positive(),
    tags: z.array(RubricTagSchema),
    /** Set once archived: every version stays readable, and judges only when named with its version. */
    archivedAt: iso.nullable(),
    createdAt: iso,
    updatedAt: iso,
    links: RubricLinksSchema,
  })
  .strict()
  .meta({ id: 'Rubric' });
/** A rubric. */
export type Rubric = z.infer<typeof RubricSchema>;

/** G-Eval's auto-CoT steps of a version: written once, by one `rubric-steps` evaluation, stored and reused. */
export const RubricStepsSchema = z
  .object({
    /** `pending` while its evaluation runs; `written` once stored; `failed` when the last attempt failed (the next use tries again). */
    status: z.enum(['pending', 'written', 'failed']),
    /** The `rubric-steps` evaluation that wrote (or writes) them: its calls and cost are there. */
    evaluationId: z.string(),
    /** The rubric's steps (no aspects) once written. */
    evaluationSteps: z.string().nullable(),
    /** Per aspect, once written. */
    aspects: z.array(z.object({ name: z.string(), evaluationSteps: z.string().nullable() }).strict()).nullable(),
    /** The hash of the content with the steps: what a G-Eval style evaluation of this version records. */
    hash: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'RubricSteps' });

/** A version's golden check: a meta-evaluation of its examples and, once every example ended, its agreement. */
export const RubricCheckSchema = z
  .object({
    /** The meta-evaluation (`GET /v1/meta-evaluations/{id}` has every item). */
    metaEvaluationId: z.string(),
    status: z.enum(['running', 'completed']),
    /** The judge it ran. */
    preset: z.string().nullable(),
    config: z.record(z.string(), z.unknown()).nullable(),
    /** The agreement with the examples (accuracy and κ, or correlations, with CIs), once completed. */
    report: z.union([AgreementReportSchema, z.null()]),
    completedAt: iso.nullable(),
  })
  .strict()
  .meta({ id: 'RubricCheck' });
/** A version's golden check. */
export type RubricCheck = z.infer<typeof RubricCheckSchema>;

/** A version as `GET /v1/rubrics/{id}/versions/{n}` shows it: immutable content, and what was learned about it. */
export const RubricVersionSchema = z
  .object({
    id: z.string().describe("The rubric's id."),
    version: z.number().int().positive(),
    /** The reference that names exactly this version: `rb_…@n`. */
    ref: z.string(),
    name: z.string(),
    ...RubricContentShape,
    examples: z.array(RubricExampleSchema),
    /** sha-256 of the canonical content: what an evaluation judged by this version records. */
    hash: z.string(),
    /** Tags pointing at this version. */
    tags: z.array(z.string()),
    steps: z
      .union([RubricStepsSchema, z.null()])
      .describe(
        "G-Eval's auto-CoT steps written for this version (generated, once, the first time a judge whose templates carry steps used it); null while none were: steps given with the version are `evaluationSteps` above.",
      ),
    check: z.union([RubricCheckSchema, z.null()]),
    createdAt: iso,
  })
  .strict()
  .meta({ id: 'RubricVersion' });
/** A version as shown. */
export type RubricVersion = z.infer<typeof RubricVersionSchema>;

/** Answer to `POST /v1/rubrics` and `POST /v1/rubrics/{id}/versions`: the rubric with the new version. */
export const RubricCreatedSchema = RubricVersionSchema.extend({
  kind: RubricContentShape.kind,
  links: RubricLinksSchema,
})
  .strict()
  .meta({ id: 'RubricCreated' });

const cursor = z
  .string()
  .min(1)
  .max(512)
  .optional()
  .openapi({ param: { description: 'The `nextCursor` of the previous page (opaque). Absent: the first page.' } });

/** Most rubrics or versions per page: 100 (default 20). */
export const MAX_RUBRICS_PAGE = 100;

const limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_RUBRICS_PAGE)
  .default(20)
  .openapi({ param: { description: `Per page, 1-${MAX_RUBRICS_PAGE} (default 20).` } });

/** Query of `GET /v1/rubrics`. */
export const ListRubricsQuery = z
  .object({
    cursor,
    limit,
    archived: z
      .enum(['true', 'false'])
      .optional()
      .openapi({ param: { description: '`true`: only archived rubrics; `false`: only the others. Absent: all.' } }),
  })
  .strict();

/** Query of `GET /v1/rubrics/{id}/versions`. */
export const ListVersionsQuery = z.object({ cursor, limit }).strict();

/** Answer to `GET /v1/rubrics`. */
export const RubricListSchema = z
  .object({
    data: z.array(RubricSchema),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last one.'),
  })
  .strict()
  .meta({ id: 'RubricList' });

/** A version in a list: no examples (`GET …/versions/{n}` has them). */
export const RubricVersionSummarySchema = RubricVersionSchema.omit({ examples: true })
  .extend({ examples: z.number().int().nonnegative().describe('How many golden examples it has.') })
  .strict()
  .meta({ id: 'RubricVersionSummary' });

/** Answer to `GET /v1/rubrics/{id}/versions`, newest first. */
export const RubricVersionListSchema = z
  .object({
    data: z.array(RubricVersionSummarySchema),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last one.'),
  })
  .strict()
  .meta({ id: 'RubricVersionList' });

/** Path of `/v1/rubrics/{id}…`. */
export const RubricIdParams = z.object({
  id: z
    .string()
    .regex(RUBRIC_ID, 'a rubric id: rb_ and 32 hex characters')
    .openapi({
      param: { description: 'Rubric id (`rb_…`), as returned by `POST /v1/rubrics`.' },
      example: 'rb_0f8e2c1d9b7a4e6f8a1b2c3d4e5f6a7b',
    }),
});

/** Path of `/v1/rubrics/{id}/versions/{version}…`. */
export const RubricVersionParams = RubricIdParams.extend({
  version: z.coerce
    .number()
    .int()
    .positive()
    .openapi({ param: { description: 'Version number, 1, 2, …' }, example: 1 }),
});

/** Path of `/v1/rubrics/{id}/tags/{tag}`. */
export const RubricTagParams = RubricIdParams.extend({
  tag: z
    .string()
    .regex(TAG, 'a tag: 1-32 lower-case letters, digits and -')
    .openapi({ param: { description: 'Tag name: `prod`, `staging`, any `[a-z0-9-]{1,32}`.' }, example: 'prod' }),
});

/** Body of `POST /v1/rubrics/{id}/versions/{version}/check`: the judge that runs the examples. */
export const CheckRequestSchema = z
  .object({
    preset: z.string().min(1).max(64).optional().describe('Preset id from GET /v1/methods.'),
    config: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Config overrides over the preset (or a full config with `method`), as on POST /v1/evaluations.'),
    examples: z
      .array(RubricExampleSchema)
      .min(1)
      .max(MAX_RUBRIC_EXAMPLES)
      .optional()
      .describe("Labelled examples to check against; default: the version's own golden examples."),
  })
  .strict()
  .meta({ id: 'RubricCheckRequest', examples: [{ preset: 'rubric-judge' }] });
/** Body of the check. */
export type CheckRequest = z.infer<typeof CheckRequestSchema>;
