/**
 * @module
 * Prompt templates with `{{name}}` placeholders. Presets carry the papers' templates as data, users
 * override them, and a placeholder the method does not provide is a validation error, not a silent blank.
 */
import { z } from 'zod';

const PLACEHOLDER = /\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}/g;

/** Names of the placeholders a template uses, in order of first use. */
export function placeholders(template: string): string[] {
  const seen = new Set<string>();
  for (const m of template.matchAll(PLACEHOLDER)) if (m[1]) seen.add(m[1]);
  return [...seen];
}

/** Placeholders used by the template that are not in `allowed` (empty when the template is valid). */
export function unknownPlaceholders(template: string, allowed: readonly string[]): string[] {
  return placeholders(template).filter((p) => !allowed.includes(p));
}

/**
 * Fills a template. Every placeholder must have a value in `vars` (validate configs with
 * {@link unknownPlaceholders} first); a missing one throws, since that is a bug in a method.
 */
export function renderTemplate(template: string, vars: Readonly<Record<string, string | number | undefined>>): string {
  return template.replace(PLACEHOLDER, (_all, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`template placeholder {{${name}}} has no value`);
    return String(v);
  });
}

/** Upper-cases the first letter: `naturalness` → `Naturalness` (aspect names as criterion labels). */
export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Longest template a config may carry, in characters: 20,000. */
export const TEMPLATE_MAX_CHARS = 20_000;

/** The config error for unknown placeholders: `unknown placeholder(s) {{x}}; allowed: {{a}}, {{b}}`. */
export function unknownPlaceholdersMessage(unknown: readonly string[], allowed: readonly string[]): string {
  const list = (names: readonly string[]): string => names.map((n) => `{{${n}}}`).join(', ');
  return `unknown placeholder(s) ${list(unknown)}; allowed: ${list(allowed)}`;
}

/** Adds the length limit and the placeholder check to a string schema. */
function checkedTemplate(schema: z.ZodString, allowed: readonly string[]): z.ZodString {
  return schema.max(TEMPLATE_MAX_CHARS).superRefine((t, ctx) => {
    const bad = unknownPlaceholders(t, allowed);
    if (bad.length > 0) ctx.addIssue({ code: 'custom', message: unknownPlaceholdersMessage(bad, allowed) });
  });
}

/**
 * A template string of 0 to {@link TEMPLATE_MAX_CHARS} (20,000) characters whose `{{placeholders}}` must all
 * be in `allowed` (any other is a config error, see {@link unknownPlaceholdersMessage}). No default: add one
 * with `.default()`. For a required, non-empty template use {@link templateField}.
 */
export function templateText(allowed: readonly string[]): z.ZodString {
  return checkedTemplate(z.string(), allowed);
}

/**
 * A template field of a method config: 1 to {@link TEMPLATE_MAX_CHARS} (20,000) characters, using only the
 * `allowed` placeholders (message: `unknown placeholder(s) {{x}}; allowed: {{a}}, {{b}}`). With `fallback`
 * the field defaults to it; without, the field is optional (absent means the method's own default).
 */
export function templateField(allowed: readonly string[], fallback: string): z.ZodDefault<z.ZodString>;
export function templateField(allowed: readonly string[]): z.ZodOptional<z.ZodString>;
export function templateField(
  allowed: readonly string[],
  fallback?: string,
): z.ZodDefault<z.ZodString> | z.ZodOptional<z.ZodString> {
  const text = checkedTemplate(z.string().min(1), allowed);
  return fallback === undefined ? text.optional() : text.default(fallback);
}
