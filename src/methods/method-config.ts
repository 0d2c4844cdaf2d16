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

/** What a request may send as `config`: any method's fields, each optional (typed per method for `hc`). */
export type ConfigOverrides = Partial<z.input<typeof MethodConfigSchema>>;

const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const methodConfigRef = { $ref: `#/components/schemas/${METHOD_CONFIG_ID}` };

/**
 * A field that holds a method config: a JSON object at the boundary, documented as {@link MethodConfig}.
 * @param description what the field means in its request or response.
 */
export function configField<T extends Record<string, unknown> = ConfigOverrides>(description: string) {
  return z
    .custom<T>(isJsonObject, { message: 'expected a JSON object' })
    .openapi({ type: 'object', allOf: [methodConfigRef], description });
}
