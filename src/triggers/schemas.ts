/**
 * @module
 * The trigger API's zod schemas: a trigger (judge + mapping + optional filter and callback), the answers
 * of its CRUD routes and of `POST /v1/hooks/{id}`. Grammar of mappings and filters: ./mapping.ts.
 */
import { z } from '@hono/zod-openapi';
import {
  CreateEvaluationRequestSchema,
  EvaluationLinksSchema,
  EvaluationStatusSchema,
} from '../evaluations/schemas.js';
import { MAX_DESCRIPTION_CHARS, OneOffWebhookSchema } from '../webhooks/schemas.js';
import { POINTER, templatePointers } from './mapping.js';

/** Any JSON value (bodies are parsed JSON; a recursive `z.json()` would overflow the OpenAPI generator). */
const jsonValue = z.unknown().openapi({ description: 'Any JSON value.' });

/** Most triggers per tenant (100). */
export const MAX_TRIGGERS_PER_TENANT = 100;

/** Most metadata keys a mapping may fill (30: two more are added, `triggerId` and `triggerDeliveryId`). */
export const MAX_MAPPED_METADATA = 30;

const pointer = z
  .string()
  .max(1000)
  .regex(POINTER, 'a JSON Pointer: "" or "/"-separated tokens, "~" only as "~0" or "~1"')
  .openapi({ description: 'A JSON Pointer (RFC 6901) into the incoming JSON.', example: '/pull_request/title' });

/** What a mapping rule may be, for its error messages. */
const RULE_FORMS = 'a JSON Pointer ("/outputs/0/text"), {"template": "…{{/pointer}}…"} or {"value": <a constant>}';

/**
 * A missing or mistyped rule names its three forms (zod's own union message is only "Invalid input"); a rule of
 * one form with a mistake inside keeps that form's own message.
 */
const ruleError = (issue: { input?: unknown }): string =>
  issue.input === undefined ? `required: ${RULE_FORMS}` : `expected ${RULE_FORMS}`;

/** A mapping rule: a JSON Pointer, `{template}` with `{{<pointer>}}` placeholders, or `{value}` (a constant). */
export const MappingRuleSchema = z
  .union(
    [
      pointer,
      z
        .object({
          template: z
            .string()
            .min(1)
            .max(20_000)
            .refine(
              (t) => templatePointers(t).every((p) => POINTER.test(p)),
              'every {{…}} placeholder must hold a JSON Pointer',
            ),
        })
        .strict(),
      z
        .object({ value: jsonValue })
        .strict()
        .refine((r) => r.value !== undefined, 'value is required'),
    ],
    { error: ruleError },
  )
  .meta({
    id: 'MappingRule',
    description:
      'Where a field comes from: a JSON Pointer (`"/outputs/0/text"`); `{"template": "Q: {{/issue/title}}"}` (placeholders hold pointers; numbers and booleans are inserted as text, objects and arrays as JSON); ' +
      'or `{"value": …}`, a constant.',
  });

/** Where each task field comes from; `kind` is fixed by the trigger. */
export const TaskMappingSchema = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('pairwise'),
        question: MappingRuleSchema,
        answerA: MappingRuleSchema,
        answerB: MappingRuleSchema,
        reference: MappingRuleSchema.optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('pointwise'),
        source: MappingRuleSchema,
        context: MappingRuleSchema.optional(),
        output: MappingRuleSchema,
        aspect: MappingRuleSchema,
      })
      .strict(),
    z
      .object({
        kind: z.literal('comparison'),
        candidates: MappingRuleSchema.describe('The candidate names (a JSON array).'),
        items: MappingRuleSchema.describe(
          "The items (a JSON array of `ComparisonItem`), each with every candidate's output.",
        ),
        design: MappingRuleSchema.optional().describe('`"all-pairs"` or `{"baseline": …}`; default `"all-pairs"`.'),
        gate: MappingRuleSchema.optional().describe(
          'The CI gate (`ComparisonGate`), e.g. `{"value": {"candidate": "new", "baseline": "prod"}}`.',
        ),
      })
      .strict(),
  ])
  .meta({
    id: 'TaskMapping',
    description:
      'What each incoming request becomes: `kind` `pairwise` or `pointwise` and a rule per task field (see `Task`): one evaluation; or `kind` ' +
      '`comparison` and a rule per field of `POST /v1/comparisons` (values are JSON, e.g. `"/candidates"`): one comparison, whose ' +
      '`comparison.completed` carries the gate.',
  });
/** Where each task field comes from. */
export type TaskMapping = z.infer<typeof TaskMappingSchema>;

/** From incoming JSON to the evaluation: the task, and optional metadata keys. */
export const MappingSchema = z
  .object({
    task: TaskMappingSchema,
    metadata: z
      .record(z.string().min(1).max(64), MappingRuleSchema)
      .refine((m) => Object.keys(m).length <= MAX_MAPPED_METADATA, `at most ${MAX_MAPPED_METADATA} metadata keys`)
      .optional(),
  })
  .strict()
  .meta({ id: 'TriggerMapping' });
/** From incoming JSON to the evaluation. */
export type Mapping = z.infer<typeof MappingSchema>;

/** One filter condition: the value at `pointer` equals a value, is one of several, or exists (or not). */
export const FilterConditionSchema = z
  .union([
    z
      .object({ pointer, equals: jsonValue })
      .strict()
      .refine((c) => c.equals !== undefined, 'equals is required'),
    z.object({ pointer, in: z.array(jsonValue).min(1).max(50) }).strict(),
    z.object({ pointer, exists: z.boolean() }).strict(),
  ])
  .meta({ id: 'TriggerFilterCondition' });

/** Conditions that must all hold for a request to be judged; others are acknowledged (200) and ignored. */
export const FilterSchema = z.array(FilterConditionSchema).min(1).max(16).meta({
  id: 'TriggerFilter',
  description:
    'Every condition must hold, else the request is acknowledged with 200 `{"ignored": true}` and nothing is created.',
});

/** Body of `POST /v1/triggers`. */
export const CreateTriggerRequestSchema = z
  .object({
    preset: CreateEvaluationRequestSchema.shape.preset,
    config: CreateEvaluationRequestSchema.shape.config,
    mapping: MappingSchema,
    filter: FilterSchema.optional(),
    webhook: OneOffWebhookSchema.optional(),
    cache: CreateEvaluationRequestSchema.shape.cache.describe(
      "The verdict cache for each evaluation it creates (`CacheMode`): a sender's repeated event for an unchanged candidate gets the cached verdict.",
    ),
    description: z.string().max(MAX_DESCRIPTION_CHARS).optional(),
    /**
     * The rubric each delivery is judged by, stored as given and resolved at each delivery: with `rb_…#prod`
     * the trigger follows the tag when it moves; `rb_…@3` stays on version 3.
     */
    rubric: CreateEvaluationRequestSchema.shape.rubric,
  })
  .strict()
  .meta({ id: 'CreateTriggerRequest' });
/** Body of `POST /v1/triggers`. */
export type CreateTriggerRequest = z.infer<typeof CreateTriggerRequestSchema>;

/** A trigger as the API shows it (never its secret, except when created or rotated). */
export const TriggerSchema = z
  .object({
    id: z.string(),
    /** Where the sender POSTs: relative to this API's origin. */
    url: z.string(),
    description: z.string().nullable(),
    preset: z.string().nullable(),
    config: z.record(z.string(), z.unknown()).nullable(),
    mapping: MappingSchema,
    filter: z.union([FilterSchema, z.null()]),
    /** (A union: `.nullable()` on a component gives `allOf: [$ref, {type: [object, null]}]`, which refuses null.) */
    webhook: z.union([OneOffWebhookSchema, z.null()]),
    cache: z
      .enum(['use', 'refresh', 'off'])
      .nullable()
      .describe('The verdict cache mode of its evaluations; null: not set (the default, `CacheMode`).'),
    /** The rubric reference (or inline rubric) as given, resolved at each delivery; null for none. */
    rubric: z.union([CreateEvaluationRequestSchema.shape.rubric.unwrap(), z.null()]),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ id: 'Trigger' });
/** A trigger as the API shows it. */
export type Trigger = z.infer<typeof TriggerSchema>;

/** Answer to `POST /v1/triggers`: the trigger and its secret, shown once. */
export const CreatedTriggerSchema = TriggerSchema.extend({
  secret: z.string().openapi({
    description:
      'The secret the sender signs with (Standard Webhooks, or as a GitHub webhook secret), shown only in this answer.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  }),
}).meta({ id: 'CreatedTrigger' });

/** Answer to `GET /v1/triggers`. */
export const TriggerListSchema = z
  .object({ data: z.array(TriggerSchema) })
  .strict()
  .meta({ id: 'TriggerList' });

/** Answer to a valid, judged delivery (202; also its replays). */
export const HookAcceptedSchema = z
  .object({
    evaluationId: z.string(),
    status: EvaluationStatusSchema,
    /** True when this delivery id was seen before: the first answer again, nothing new created. */
    replayed: z.boolean(),
    links: EvaluationLinksSchema,
  })
  .strict()
  .meta({ id: 'HookAccepted' });

/** Answer to a valid delivery to a `comparison` trigger (202; also its replays). */
export const HookComparisonAcceptedSchema = z
  .object({
    comparisonId: z.string(),
    status: z.enum(['running', 'cancelling', 'completed', 'cancelled']),
    /** True when this delivery id was seen before: the first answer again, nothing new created. */
    replayed: z.boolean(),
    links: z.object({ self: z.string(), results: z.string(), cancel: z.string(), batch: z.string() }).strict(),
  })
  .strict()
  .meta({ id: 'HookComparisonAccepted' });

/** Answer to a valid delivery the filter skips (200): nothing created. */
export const HookIgnoredSchema = z
  .object({ ignored: z.literal(true), reason: z.string() })
  .strict()
  .meta({ id: 'HookIgnored' });
