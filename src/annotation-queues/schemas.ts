/**
 * @module
 * The annotation queues' zod schemas, one per concept, for validation, the OpenAPI document and the typed
 * client: a label (`winner` | `score` | `aspects`), its provenance, a queue and its items, the item an
 * annotator labels next, and a labelled item as exports and {@link labelledItems} (./service.ts) give it.
 */
import { z } from '@hono/zod-openapi';
import { TaskSchema } from '../engine/task.js';
import { WinnerSchema } from '../engine/verdict.js';
import { BATCH_ID_FILTER } from '../evaluations/schemas.js';
import { RUBRIC_REF } from '../rubrics/schemas.js';

/** Most items per queue: 1,000. */
export const MAX_QUEUE_ITEMS = 1_000;

/** Most labels an item waits for before it counts as labelled: 5 (default 1). */
export const MAX_LABELS_PER_ITEM = 5;

/** A queue id: `aq_` and 32 hex characters. */
export const QUEUE_ID = /^aq_[0-9a-f]{32}$/;

/** An annotator's name: 1-128 printable characters (a key id, or what `x-annotator` says). */
export const ANNOTATOR = /^[\x21-\x7e][\x20-\x7e]{0,126}[\x21-\x7e]?$/;

/** Where a label comes from: a person (`human`), a judge's verdict (`judge`), or a file (`imported`). */
export const ProvenanceSchema = z.enum(['human', 'judge', 'imported']).meta({
  id: 'LabelProvenance',
  description:
    'Where a label comes from: `human` (labelled through the API or the viewer), `judge` (a judge verdict recorded as a label), `imported` (`POST …/import`).',
});
/** A label's provenance. */
export type Provenance = z.infer<typeof ProvenanceSchema>;

/**
 * One label: `winner` for a pairwise rubric; `score` and/or `aspects` (score per aspect, by the rubric's aspect
 * names) for a pointwise one, each on the rubric's scale (checked against the queue's rubric version).
 */
export const LabelSchema = z
  .object({
    winner: WinnerSchema.optional().describe('Pairwise: `A`, `B` or `tie`.'),
    score: z.number().optional().describe("Pointwise: the overall score, on the rubric's scale."),
    aspects: z
      .record(z.string().min(1).max(64), z.number())
      .optional()
      .describe("Pointwise with aspects: the score per aspect, by the rubric's aspect names, each on its scale."),
  })
  .strict()
  .meta({ id: 'Label', examples: [{ winner: 'A' }, { score: 4 }] });
/** One label. */
export type Label = z.infer<typeof LabelSchema>;

/** Where an item stands: waiting for labels, labelled (the annotators agree), disagreed on, or settled by an adjudicator. */
export const ItemStatusSchema = z.enum(['pending', 'labelled', 'needs_adjudication', 'adjudicated']).meta({
  id: 'AnnotationItemStatus',
  description:
    '`pending`: fewer labels than `labelsPerItem`; `labelled`: the labels agree (see `resolution`); `needs_adjudication`: they do not, ' +
    "until an adjudicator's label (`adjudicate: true`) settles it (`adjudicated`).",
});
/** Where an item stands. */
export type ItemStatus = z.infer<typeof ItemStatusSchema>;

/** How an item's label was reached. */
export const ResolutionSchema = z.enum(['single', 'unanimous', 'majority', 'mean', 'adjudicated']).meta({
  id: 'LabelResolution',
  description:
    '`single`: one label wanted and given; `unanimous`: every label the same; `majority`: more than half the labels the same (pairwise winner, or ' +
    'a score); `mean`: pointwise scores no more than one point apart, averaged; `adjudicated`: an adjudicator decided.',
});
/** How an item's label was reached. */
export type Resolution = z.infer<typeof ResolutionSchema>;

const iso = z.string().describe('ISO 8601 UTC.');

/** One item of a queue as sent: the caller's id and the task. */
export const QueueItemInputSchema = z
  .object({
    id: z.string().min(1).max(256).describe('Your id for the item, unique in the queue, 1-256 characters.'),
    task: TaskSchema,
  })
  .strict();

/** Which of the tenant's evaluations become a queue's items (each item's id is the evaluation id). */
export const FromEvaluationsSchema = z
  .object({
    filter: z
      .object({
        batch: z
          .string()
          .regex(BATCH_ID_FILTER, 'expected a batch id: ba_, me_ or cp_ and 32 hex digits')
          .optional()
          .describe('Only the items of this batch (`ba_…`, or a meta-evaluation `me_…` or comparison `cp_…`).'),
        rubric: z
          .string()
          .regex(/^rb_[0-9a-f]{32}(@[1-9][0-9]{0,8})?$/, 'expected rb_… or rb_…@<version>')
          .optional()
          .describe('Only evaluations judged by this rubric (any version), or `rb_…@n` by that version.'),
        metadata: z
          .record(z.string().min(1).max(64), z.string().max(1024))
          .optional()
          .describe('Only evaluations whose metadata has every one of these entries (compared as text).'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_QUEUE_ITEMS)
          .default(100)
          .describe(`Most evaluations taken, newest first, 1-${MAX_QUEUE_ITEMS} (default 100).`),
      })
      .strict()
      .describe(
        "Succeeded evaluations of the queue's task kind, newest first; the judge's verdict comes along (a `judge` label, hidden by `blind`) when it answered the rubric's question: judged by the queue's rubric version, or by no rubric on an aspect described by the rubric's criteria word for word.",
      ),
  })
  .strict();

/** Body of `POST /v1/annotation-queues`. */
export const CreateQueueRequestSchema = z
  .object({
    name: z.string().min(1).max(200).describe("The queue's name, 1-200 characters."),
    rubric: z
      .string()
      .regex(RUBRIC_REF, 'a rubric reference: rb_… (latest), rb_…@<version> or rb_…#<tag>')
      .describe(
        'The rubric the items are labelled by: `rb_…`, `rb_…@n` or `rb_…#tag`, fixed to its version at creation.',
      ),
    items: z.array(QueueItemInputSchema).min(1).max(MAX_QUEUE_ITEMS).optional(),
    fromEvaluations: FromEvaluationsSchema.optional(),
    labelsPerItem: z
      .number()
      .int()
      .min(1)
      .max(MAX_LABELS_PER_ITEM)
      .default(1)
      .describe(`Labels each item waits for, from different annotators, 1-${MAX_LABELS_PER_ITEM} (default 1).`),
    blind: z
      .boolean()
      .default(false)
      .describe("True: `…/next` never shows the judge's verdict, so it cannot sway the annotator. Default false."),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.items === undefined) === (body.fromEvaluations === undefined))
      ctx.addIssue({ code: 'custom', path: ['items'], message: 'give items or fromEvaluations (one of them)' });
    const seen = new Set<string>();
    body.items?.forEach((item, i) => {
      if (seen.has(item.id))
        ctx.addIssue({ code: 'custom', path: ['items', i, 'id'], message: `duplicate item id "${item.id}"` });
      seen.add(item.id);
    });
  })
  .meta({ id: 'CreateAnnotationQueueRequest' });
/** Body of `POST /v1/annotation-queues`. */
export type CreateQueueRequest = z.infer<typeof CreateQueueRequestSchema>;

/** Items per status. */
export const QueueProgressSchema = z
  .object({
    total: z.number().int().nonnegative(),
    pending: z.number().int().nonnegative(),
    labelled: z.number().int().nonnegative(),
    needsAdjudication: z.number().int().nonnegative(),
    adjudicated: z.number().int().nonnegative(),
  })
  .strict()
  .meta({ id: 'AnnotationQueueProgress' });
/** Items per status. */
export type QueueProgress = z.infer<typeof QueueProgressSchema>;

/** A queue as `POST`, `GET` and the list show it. */
export const QueueSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    rubric: z.object({ id: z.string(), version: z.number().int().positive() }).strict(),
    kind: z.enum(['pairwise', 'pointwise']),
    labelsPerItem: z.number().int().positive(),
    blind: z.boolean(),
    progress: QueueProgressSchema,
    createdAt: iso,
    links: z
      .object({ self: z.string(), next: z.string(), export: z.string(), import: z.string() })
      .strict()
      .describe('Relative URLs: the queue, the caller’s next item, the export (`?format=csv|jsonl`), the import.'),
  })
  .strict()
  .meta({ id: 'AnnotationQueue' });
/** A queue. */
export type Queue = z.infer<typeof QueueSchema>;

/** One label as stored and shown. */
export const StoredLabelSchema = z
  .object({
    annotator: z.string(),
    role: z.enum(['annotator', 'adjudicator']),
    provenance: ProvenanceSchema,
    label: LabelSchema,
    comment: z.string().nullable(),
    createdAt: iso,
    updatedAt: iso,
  })
  .strict()
  .meta({ id: 'StoredLabel' });
/** One stored label. */
export type StoredLabel = z.infer<typeof StoredLabelSchema>;

/**
 * A labelled item: its task, the label its annotators agreed on (or its adjudicator gave), and the label as the
 * agreement maths take it (`human`, `humanAspects`). What exports write, one per line, and what
 * {@link labelledItems} returns.
 */
export const LabelledQueueItemSchema = z
  .object({
    queueId: z.string(),
    itemId: z.string(),
    task: TaskSchema,
    rubric: z.object({ id: z.string(), version: z.number().int().positive() }).strict(),
    status: z.enum(['labelled', 'adjudicated']),
    resolution: ResolutionSchema,
    label: LabelSchema,
    human: z
      .union([WinnerSchema, z.number()])
      .nullable()
      .describe('The label as one value: the winner (pairwise) or the score (pointwise); null for aspects only.'),
    humanAspects: z.record(z.string(), z.number()).nullable(),
    annotators: z.array(z.string()).describe('Who labelled it (adjudicator last), judges excluded.'),
    provenance: z
      .enum(['human', 'imported', 'mixed'])
      .describe('`human` or `imported` when every label that counted has it, `mixed` otherwise.'),
    evaluationId: z.string().nullable().describe('The evaluation the item came from (`fromEvaluations`), or null.'),
    labelledAt: iso.describe('When the last label that counted was written.'),
  })
  .strict()
  .meta({ id: 'LabelledQueueItem' });
/** A labelled item. */
export type LabelledQueueItem = z.infer<typeof LabelledQueueItemSchema>;

/** The caller's next item to label (`GET /v1/annotation-queues/{id}/next`). */
export const NextItemSchema = z
  .object({
    queueId: z.string(),
    itemId: z.string(),
    annotator: z.string().describe('Who the item is for: the `x-annotator` header, else the key id.'),
    task: TaskSchema,
    rubric: z
      .object({
        id: z.string(),
        version: z.number().int().positive(),
        kind: z.enum(['pairwise', 'pointwise']),
        criteria: z.string(),
        scale: z.object({ min: z.number().int(), max: z.number().int() }).strict().nullable(),
        aspects: z
          .array(
            z
              .object({ name: z.string(), scale: z.object({ min: z.number().int(), max: z.number().int() }).strict() })
              .strict(),
          )
          .nullable(),
      })
      .strict()
      .describe('What a label must look like: the kind, and pointwise the scale and the aspects with theirs.'),
    judge: LabelSchema.nullable().describe(
      "The judge's verdict on the item; null in a blind queue or when none is known.",
    ),
    remaining: z.number().int().nonnegative().describe('Items still waiting for this annotator, this one included.'),
    links: z.object({ labels: z.string() }).strict().describe('Where to POST the label.'),
  })
  .strict()
  .meta({ id: 'AnnotationNextItem' });
/** The caller's next item. */
export type NextItem = z.infer<typeof NextItemSchema>;

/** Body of `POST /v1/annotation-queues/{id}/items/{itemId}/labels`. */
export const PostLabelRequestSchema = z
  .object({
    label: LabelSchema,
    annotator: z
      .string()
      .regex(ANNOTATOR, 'an annotator: 1-128 printable ASCII characters, not starting or ending with a space')
      .optional()
      .describe('Who labels; default the `x-annotator` header, else the key id. Both given and different is a 400.'),
    comment: z.string().min(1).max(2_000).optional().describe('Why, 1-2,000 characters.'),
    adjudicate: z
      .boolean()
      .default(false)
      .describe(
        "True: this is the adjudicator's label; it settles the item whatever the annotators said. Default false.",
      ),
  })
  .strict()
  .meta({ id: 'PostLabelRequest', examples: [{ label: { winner: 'A' }, comment: 'B invents a refund' }] });
/** Body of a label. */
export type PostLabelRequest = z.infer<typeof PostLabelRequestSchema>;

/** An item with its labels and where it stands (the answer to a label). */
export const QueueItemSchema = z
  .object({
    queueId: z.string(),
    itemId: z.string(),
    status: ItemStatusSchema,
    resolution: ResolutionSchema.nullable().describe('How the label was reached; null while pending or disagreed on.'),
    label: LabelSchema.nullable().describe('The agreed or adjudicated label; null while pending or disagreed on.'),
    labels: z.array(StoredLabelSchema),
  })
  .strict()
  .meta({ id: 'AnnotationItem' });
/** An item with its labels. */
export type QueueItem = z.infer<typeof QueueItemSchema>;

/** One line of the JSONL export: an item with its task, labels and where it stands. */
export const ExportLineSchema = QueueItemSchema.extend({
  task: TaskSchema,
  evaluationId: z.string().nullable(),
})
  .strict()
  .meta({ id: 'AnnotationExportLine' });
/** One line of the JSONL export. */
export type ExportLine = z.infer<typeof ExportLineSchema>;

/** Most labels one import carries: 10,000. */
export const MAX_IMPORT_LABELS = 10_000;

/** One imported label: a JSONL line, or a CSV row (`item_id`, `annotator`, `role`, `winner`, `score`, `aspects`, `comment`). */
export const ImportLabelSchema = z
  .object({
    itemId: z.string().min(1).max(256).describe("The item's id in the queue."),
    label: LabelSchema,
    annotator: z
      .string()
      .regex(ANNOTATOR, 'an annotator: 1-128 printable ASCII characters, not starting or ending with a space')
      .optional()
      .describe('Who gave it; default the `x-annotator` header, else the key id.'),
    role: z
      .enum(['annotator', 'adjudicator'])
      .default('annotator')
      .describe('`adjudicator`: the label settles the item. Default `annotator`.'),
    comment: z.string().min(1).max(2_000).optional(),
  })
  .strict()
  .meta({ id: 'ImportedLabel' });

/** An import, as the route checks it (the file's lines as `labels`, JSONL line n or CSV row n+1 as `labels.{n-1}`). */
export const ImportRequestSchema = z
  .object({ labels: z.array(ImportLabelSchema).min(1).max(MAX_IMPORT_LABELS) })
  .strict();
/** An import. */
export type ImportRequest = z.infer<typeof ImportRequestSchema>;

/** Answer to an import. */
export const ImportResultSchema = z
  .object({
    imported: z.number().int().nonnegative().describe('Labels written (provenance `imported`).'),
    queue: QueueSchema,
  })
  .strict()
  .meta({ id: 'AnnotationImportResult' });
/** Answer to an import. */
export type ImportResult = z.infer<typeof ImportResultSchema>;
