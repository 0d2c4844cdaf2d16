/**
 * @module
 * Criteria slots: where each template states its criteria, kept as data next to the template, and how a
 * rubric's criteria replace exactly that text and nothing else.
 *
 * A slot is a list of parts, each a verbatim piece of the template (occurring exactly once) and what a
 * rubric writes in its place: a small template over the {@link SLOT_VALUES} (`{{criteria}}` — the rubric's
 * criteria with its score levels; `{{steps}}` — its evaluation steps or the method's generic ones;
 * `{{Aspect}}`, `{{aspect}}`, `{{min}}`, `{{max}}`). A method's templates are found in its {@link SlotTable}
 * by their exact text, so a template a config overrides has no slot unless it keeps a placeholder slot.
 * Templates whose criteria are already a placeholder (the G-Eval-style forms' `{{aspect_description}}` and
 * `{{evaluation_steps}}`, DEBATE's `{{criteria}}` and `{{steps}}`) have their slot there: the method fills
 * that placeholder from the rubric.
 *
 * Without a rubric nothing is touched: {@link renderWithCriteria} is `renderTemplate` itself.
 */
import { EngineInputError } from './errors.js';
import type { Criteria } from './judged.js';
import { capitalise, renderTemplate } from './template.js';

/** One piece of a template a rubric replaces. */
export interface SlotPart {
  /** The template's own text there, verbatim; it occurs exactly once in the template. */
  text: string;
  /** What a rubric writes there, over the {@link SLOT_VALUES}. */
  with: string;
  /** The steps this template writes for `{{steps}}` when the rubric has none (over the aspect and scale values). */
  stepsFallback?: string;
}

/** Where one template states its criteria: its parts, in template order. */
export type CriteriaSlot = readonly SlotPart[];

/** A method's slots by the exact text of each template that has one. */
export type SlotTable = ReadonlyMap<string, CriteriaSlot>;

/** The names a slot part's `with` may use. */
export const SLOT_VALUES = ['criteria', 'steps', 'Aspect', 'aspect', 'min', 'max'] as const;

/** Placeholder that stands for slot part `i` while a template is rendered (never in a stored template). */
const partName = (i: number) => `__criteria_slot${i}`;

/**
 * A slot table. Each part must occur exactly once in its template and use only {@link SLOT_VALUES}.
 * @throws Error at module load for a slot that does not fit its template (a bug in the slot data).
 */
export function slotTable(entries: readonly (readonly [template: string, slot: CriteriaSlot])[]): SlotTable {
  for (const [template, slot] of entries) {
    for (const part of slot) {
      const at = template.indexOf(part.text);
      if (part.text === '' || at < 0 || template.indexOf(part.text, at + 1) >= 0)
        throw new Error(`criteria slot part must occur exactly once in its template: ${JSON.stringify(part.text)}`);
      const unknown = [...part.with.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
        .map((m) => m[1] ?? '')
        .filter((n) => !(SLOT_VALUES as readonly string[]).includes(n));
      if (unknown.length > 0) throw new Error(`criteria slot uses unknown value(s) ${unknown.join(', ')}`);
    }
  }
  return new Map(entries);
}

/** The slot tables of several methods (or template sources) as one. */
export function mergeSlotTables(...tables: readonly SlotTable[]): SlotTable {
  return new Map(tables.flatMap((t) => [...t]));
}

/** Score levels as lines after the criteria: `- <score>: <text>`, lowest score first. */
function levelsText(c: Criteria): string {
  const levels = [...(c.levels ?? [])].sort((a, b) => a.score - b.score);
  return levels.length === 0 ? '' : `\n\nScores:\n${levels.map((l) => `- ${l.score}: ${l.text}`).join('\n')}`;
}

/**
 * The rubric's criteria as a slot states them: the text, its score levels, and its evaluation steps when
 * `withSteps` (a slot that has no steps part of its own still shows the rubric's steps: nothing is dropped).
 */
export function criteriaText(c: Criteria, withSteps: boolean): string {
  const steps = withSteps && c.steps !== undefined ? `\n\nEvaluation steps:\n${c.steps}` : '';
  return `${c.text}${levelsText(c)}${steps}`;
}

/** What a pointwise slot may name about the aspect: its name and scale. */
export interface SlotAspect {
  name: string;
  scale: { min: number; max: number };
}

/**
 * The values slot parts are filled with.
 * @param fallbackSteps the method's generic steps (over `{{aspect}}`, `{{Aspect}}`, `{{min}}`, `{{max}}`), used
 *   when the rubric has none.
 */
export function slotValues(
  c: Criteria,
  slot: CriteriaSlot | undefined,
  aspect?: SlotAspect,
  fallbackSteps?: string,
): Record<string, string | number> {
  const hasSteps = slot?.some((p) => /\{\{\s*steps\s*\}\}/.test(p.with)) ?? false;
  const scale = aspect ? { aspect: aspect.name, Aspect: capitalise(aspect.name), ...aspect.scale } : {};
  return {
    criteria: criteriaText(c, !hasSteps),
    steps: c.steps ?? renderTemplate(fallbackSteps ?? '', scale),
    aspect: '',
    Aspect: '',
    min: '',
    max: '',
    ...scale,
  };
}

/**
 * Renders `template` with `vars`; with `criteria`, the template's slot from `table` (if it has one) holds
 * them. A rubric's text is never read as a template: `{{x}}` in it stays as written.
 */
export function renderWithCriteria(
  template: string,
  vars: Readonly<Record<string, string | number | undefined>>,
  criteria: Criteria | undefined,
  table: SlotTable,
  options: { aspect?: SlotAspect; fallbackSteps?: string } = {},
): string {
  const slot = criteria ? table.get(template) : undefined;
  if (!criteria || !slot) return renderTemplate(template, vars);
  let slotted = template;
  const filled: Record<string, string> = {};
  slot.forEach((part, i) => {
    const values = slotValues(criteria, slot, options.aspect, part.stepsFallback ?? options.fallbackSteps);
    slotted = slotted.replace(part.text, () => `{{${partName(i)}}}`);
    filled[partName(i)] = renderTemplate(part.with, values);
  });
  return renderTemplate(slotted, { ...vars, ...filled });
}

/** Whether a template has a criteria slot: an entry in `table`, or one of the method's slot placeholders. */
export function hasSlot(template: string, table: SlotTable, placeholders: readonly string[] = []): boolean {
  return table.has(template) || placeholders.some((p) => new RegExp(`\\{\\{\\s*${p}\\s*\\}\\}`).test(template));
}

/**
 * Checks, when a rubric is given, that the templates where its criteria must stand have a slot: at least one
 * of `where` (a call whose system message holds the criteria, FastChat's, needs none in its user template).
 * @param where each template with the config field it comes from (for the error message).
 * @throws EngineInputError `rubric_unsupported` naming the config field(s) when none has one.
 */
export function requireSlots(
  criteria: Criteria | undefined,
  where: readonly { field: string; template: string }[],
  table: SlotTable,
  placeholders: readonly string[] = [],
): void {
  if (!criteria || where.some((w) => hasSlot(w.template, table, placeholders))) return;
  const marks =
    placeholders.length > 0
      ? `; a template of your own marks it with ${placeholders.map((p) => `{{${p}}}`).join(' or ')}`
      : '';
  throw new EngineInputError(
    `rubric: the template in ${where.map((w) => w.field).join(' / ')} has no criteria slot for a rubric (the presets' templates have one${marks}): keep the preset's template or leave the rubric out`,
    'rubric_unsupported',
  );
}

/**
 * Checks a rubric's scale against a reader that takes one digit (the authors' scripts: ChatEval's Topical-Chat
 * last character, DEBATE's first digit): a scale beyond 0-9 would be misread, so it is refused.
 * @param reader what reads the score and the option that reads more, for the message.
 * @throws EngineInputError `rubric_unsupported` naming `rubric.scale`.
 */
export function requireOneDigitScale(
  criteria: Criteria | undefined,
  scale: { min: number; max: number },
  reader: string,
): void {
  if (!criteria || (scale.min >= 0 && scale.max <= 9)) return;
  throw new EngineInputError(
    `rubric.scale: ${reader}, so a scale of ${scale.min}-${scale.max} cannot be read; use a scale within 0-9 or that option`,
    'rubric_unsupported',
  );
}
