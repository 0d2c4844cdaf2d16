/**
 * @module
 * How the configuration table (./vars.ts) reads a variable's text: the spec of a variable and of a secret,
 * and the schemas its entries are built from, each naming what is wrong in the operator's words.
 */
import { z } from 'zod';
import { LOG_LEVELS } from '../log/log.js';

/** One variable: how its text is read, its default (as wrangler.toml writes it), unit and meaning. */
export interface VarSpec<T> {
  /** Reads the variable's trimmed, non-empty text. */
  schema: z.ZodType<T>;
  /** The default, as wrangler.toml writes it; an unset or empty variable takes it. */
  default: string;
  /** The unit of the value (`ms`, `s`, `bytes`, …), or what kind of text it is. */
  unit: string;
  /** What it does. */
  description: string;
}

/** One secret (`wrangler secret put`, `.dev.vars` locally): never in wrangler.toml, never logged. */
export interface SecretSpec {
  description: string;
}

/** A whole number in `[min, max]` (default: up to the largest safe integer). */
export const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });

/** A number strictly above `above`. */
export const number = (above: number) =>
  z.coerce.number({ error: 'must be a number' }).gt(above, { error: `must be above ${above}` });

/** A number of at least `min`. */
export const atLeast = (min: number) =>
  z.coerce.number({ error: 'must be a number' }).min(min, { error: `must be at least ${min}` });

/** `true` or `false`, in any case. */
export const boolean = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(['true', 'false'], { error: 'must be "true" or "false"' }))
  .transform((s) => s === 'true');

/** Any text, as written. */
export const text = z.string();

/** A log level (`debug`, `info`, `warn`, `error`), in any case. */
export const logLevel = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(LOG_LEVELS, { error: 'must be "debug", "info", "warn" or "error"' }));

/** One variable's spec from its schema, default, unit and description. */
export function spec<T>(schema: z.ZodType<T>, dflt: string, unit: string, description: string): VarSpec<T> {
  return { schema, default: dflt, unit, description };
}
