/**
 * @module
 * `config` in the API contract. The engine's `MethodConfigSchema` (a discriminated union keyed by
 * `method`) is the one definition of every method's config; this module only presents it:
 * - {@link MethodConfig}: the document's `MethodConfig` component, one variant per method (component
 *   `<Method>Config`, e.g. `ChatevalConfig`) built from the engine schema's own fields, with `method`
 *   optional because a request that names a preset may leave it out;
 * - {@link configField}: the request field. At the boundary it is any JSON object: the engine merges it
 *   over the preset and validates the result against the method's schema, which names the failing field
 *   with a stable code (`invalid_config`, `unknown_method`). Validating the raw overrides here instead
 *   would fill the schema's defaults into them and overwrite the preset's values.
 */
import { z } from '@hono/zod-openapi';
import { METHODS, MethodConfigSchema } from '../engine/registry.js';

/** Component id of the union of method configs. */
export const METHOD_CONFIG_ID = 'MethodConfig';

/** Component id of one method's config variant: `chateval` → `ChatevalConfig`. */
export function methodConfigId(method: string): string {
  return `${method.charAt(0).toUpperCase()}${method.slice(1)}Config`;
}

type MethodVariant = (typeof MethodConfigSchema.options)[number];

/** A method's config variant for the document: the engine's fields, `method` optional, unknown keys refused. */
function variantOf(schema: MethodVariant) {
  const method = schema.shape.method.value;
  return z
    .object({ ...schema.shape, method: schema.shape.method.optional() })
    .strict()
    .meta({
      id: methodConfigId(method),
      description: `Config of method \`${method}\` (${METHODS.get(method)?.paper ?? 'see GET /v1/methods'}). Fields left out take the preset's value, else the default shown.`,
    });
}

/**
 * Any method's config, keyed by `method` (`single`, `ensemble`, `chateval`, `more`, `samre`, `debate`).
 * Used for the document only (see the module note); the engine's `MethodConfigSchema` validates.
 */
export const MethodConfig = z.union(MethodConfigSchema.options.map(variantOf)).meta({
  id: METHOD_CONFIG_ID,
  description:
    "A judge method's config; `method` selects the variant. Without a preset it is required; with a preset it may be left out (it is the preset's method). " +
    "Objects merge key by key over the preset's config, arrays and scalars replace. Unknown keys are refused (400 `invalid_config`).",
});

/** `T` with every object field optional at every depth; arrays stay whole (an override replaces them). */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * What a request may send as `config`: any method's fields, each optional at every depth, since objects
 * merge key by key over the preset's config (typed per method for `hc`).
 */
export type ConfigOverrides = DeepPartial<z.input<typeof MethodConfigSchema>>;

/** The zod 4 definition fields {@link partialOf} reads. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
}
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/**
 * `schema` as an override of it, for the document: every object's fields optional at every depth (records'
 * values too, as objects merge key by key), defaults dropped (a field left out keeps the preset's value);
 * arrays, their items, scalars and unions (a parser spec, a role: one alternative is sent whole, and some are
 * recursive) as they are.
 */
function partialOf(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  let out: z.ZodType;
  if (def.type === 'object' && def.shape)
    out = z
      .object(Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, partialOf(v).optional()])))
      .strict();
  else if ((def.type === 'default' || def.type === 'prefault' || def.type === 'optional') && def.innerType)
    out = partialOf(def.innerType);
  else if (def.type === 'nullable' && def.innerType) out = partialOf(def.innerType).nullable();
  else if (def.type === 'record' && def.keyType && def.valueType)
    out = z.record(def.keyType as z.ZodString, partialOf(def.valueType));
  else return schema;
  return schema.description !== undefined ? out.describe(schema.description) : out;
}

/** Component id of the union of config overrides. */
export const METHOD_CONFIG_OVERRIDES_ID = 'MethodConfigOverrides';

/**
 * Overrides of any method's config, keyed by `method` (component `<Method>ConfigOverrides`): what a request's
 * `config` may hold. Used for the document only (see the module note); the engine validates the merge.
 */
export const MethodConfigOverrides = z
  .union(
    MethodConfigSchema.options.map((schema) =>
      partialOf(schema).meta({
        id: `${methodConfigId(schema.shape.method.value)}Overrides`,
        description: `Overrides of method \`${schema.shape.method.value}\`'s config (see \`${methodConfigId(schema.shape.method.value)}\`): every field optional at every depth. Objects merge key by key over the preset's config; arrays and scalars replace.`,
      }),
    ),
  )
  .meta({
    id: METHOD_CONFIG_OVERRIDES_ID,
    description:
      "A request's `config`: overrides merged over the preset's config (objects key by key, arrays and scalars replace), so every field is optional at every depth; " +
      'without a preset, a full config with `method`. The merged result must satisfy `MethodConfig`; unknown keys are refused (400 `invalid_config`).',
  });

const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A request field of config overrides: a JSON object at the boundary, documented as
 * {@link MethodConfigOverrides} (every field optional at every depth).
 * @param description what the field means in its request.
 */
export function configField(description: string) {
  return z
    .custom<ConfigOverrides>(isJsonObject, { message: 'expected a JSON object' })
    .openapi({ type: 'object', allOf: [{ $ref: `#/components/schemas/${METHOD_CONFIG_OVERRIDES_ID}` }], description });
}

/**
 * A response field holding a full, resolved config: documented as {@link MethodConfig}.
 * @param description what the field means in its response.
 */
export function fullConfigField(description: string) {
  return z
    .custom<Record<string, unknown>>(isJsonObject, { message: 'expected a JSON object' })
    .openapi({ type: 'object', allOf: [{ $ref: `#/components/schemas/${METHOD_CONFIG_ID}` }], description });
}
